/**
 * `import()` of a module named at run time: `node:inspector/promises` for the profiler, a VM
 * plugin file for `admin.loadVMs`, a dependency's internal module. Every lazy load of something
 * outside the project goes through here, with an absolute specifier (a `file:` URL, a `node:`
 * module or a package name), because the CLI bundle cannot run `import()` itself: the bin
 * (`scripts/launcher.mjs`) compiles it from a V8 code cache, and on Node 20 a script compiled
 * from a cache has lost what tells node how to load its `import()` ("A dynamic import callback
 * was not specified."). `scripts/bundle-cli.mjs` puts in its place a function that asks the
 * launcher, an ES module, to do the `import()`; the library runs this one.
 */
export function importModule<T = Record<string, unknown>>(specifier: string): Promise<T> {
  return import(specifier) as Promise<T>
}
