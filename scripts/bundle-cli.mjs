// Bundles the CLI into one file: a cold start then reads one module instead of several hundred
// (about 200 ms less from spawn to the first answer). The library entry (dist/index.js) stays
// unbundled for projects that import l1sim. Run by `npm run build`.
//
// The bundle is a CommonJS script (dist/l1sim.bundle.cjs) rather than an ES module, so that the
// bin, dist/l1sim.mjs (scripts/launcher.mjs), can run it with a V8 code cache (see there).
import { createHash } from 'node:crypto'
import { chmod, readFile, writeFile } from 'node:fs/promises'
import { build } from 'esbuild'

/**
 * The interpreter class of @ethereumjs/evm is internal; in a bundle it cannot be imported from
 * outside, so it is published under a registered symbol for src/evm/jumpAnalysisCache.ts.
 */
const exposeInterpreter = {
  name: 'expose-ethereumjs-interpreter',
  setup(b) {
    b.onLoad({ filter: /@ethereumjs[\\/]evm[\\/]dist[\\/]esm[\\/]interpreter\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8')
      return { contents: `${source}\nglobalThis[Symbol.for('l1sim.ethereumjs.Interpreter')] = Interpreter;\n`, loader: 'js' }
    })
  },
}

/**
 * fastify's lib/server.js requires node:http2 at load for its `http2: true` option, which the CLI
 * never sets (its servers come from a `serverFactory` over node:http); loading node:http2 and its
 * internals is ~10 ms of a cold start. In the bundle the module is required on first use. The
 * build fails if fastify starts using http2 some other way, rather than shipping a broken shim.
 */
const lazyFastifyHttp2 = {
  name: 'lazy-fastify-http2',
  setup(b) {
    b.onLoad({ filter: /[\\/]fastify[\\/]lib[\\/]server\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8')
      const eager = "const http2 = require('node:http2')"
      // Every use of the module outside JSDoc types (`{http2.Http2Server}`).
      const used = new Set([...source.matchAll(/(?<![{<])\bhttp2\.(\w+)/g)].map((m) => m[1]))
      if (!source.includes(eager) || [...used].some((name) => name !== 'createServer' && name !== 'createSecureServer'))
        throw new Error(`${args.path} no longer matches what lazy-fastify-http2 expects (uses http2.${[...used].join(', http2.')})`)
      const lazy = [
        'let http2Module',
        'const loadHttp2 = () => (http2Module ??= require(\'node:http2\'))',
        'const http2 = { createServer: (...args) => loadHttp2().createServer(...args), createSecureServer: (...args) => loadHttp2().createSecureServer(...args) }',
      ].join('\n')
      return { contents: source.replace(eager, lazy), loader: 'js' }
    })
  },
}

/**
 * The bundle cannot run `import()` (see src/core/importModule.ts): its lazy loads go through the
 * launcher's, which the launcher passes in as `__l1simImport`. Required as a plain CommonJS module
 * (no launcher), the bundle's own `import()` works and is used.
 */
const launcherImport = {
  name: 'launcher-import',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/]core[\\/]importModule\.js$/ }, () => ({
      contents: "export const importModule = (specifier) => (typeof __l1simImport === 'function' ? __l1simImport(specifier) : import(specifier))\n",
      loader: 'js',
    }))
  },
}

await build({
  entryPoints: ['dist/cli.js'],
  outfile: 'dist/l1sim.bundle.cjs',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // Native addons load their prebuilt binaries from node_modules at run time.
  external: ['secp256k1', 'keccak', 'node-gyp-build', '@chainsafe/blst'],
  // A CommonJS script has no import.meta: the sources' uses get the bundle's own URL (the launcher
  // passes the bundle's `require` and `__filename`) and a resolver through `require`. Its only use,
  // src/evm/jumpAnalysisCache.ts, finds a package's directory, which both conditions agree on.
  define: { 'import.meta.url': '__l1simImportMetaUrl', 'import.meta.resolve': '__l1simImportMetaResolve' },
  banner: {
    js: [
      // Strict as the ES modules it is bundled from (esbuild's own directive comes after this banner).
      "'use strict';",
      "const __l1simImportMetaUrl = require('node:url').pathToFileURL(__filename).href;",
      "const __l1simImportMetaResolve = (specifier) => require('node:url').pathToFileURL(require.resolve(specifier)).href;",
    ].join('\n'),
  },
  plugins: [exposeInterpreter, lazyFastifyHttp2, launcherImport],
  logLevel: 'warning',
})
// The bundle is made ASCII: V8 then holds its source as a one-byte string (5 MB, where a few
// non-ASCII characters made it a two-byte one of 10 MB, kept for the whole run), and node decodes
// it in ~9 ms at a cold start instead of 12–35. (Read as latin1 it would be an external string,
// which starts a mark-compact during the start.) esbuild leaves a few non-ASCII characters, in
// comments and regular expressions; each UTF-16 unit becomes its `\uXXXX` escape, which means the
// same character in a string, a regular expression or an identifier, and is only text in a comment.
const built = await readFile('dist/l1sim.bundle.cjs', 'utf8')
// After a backslash the escape would be read as `\\` and text: such a character must be looked at.
if (/\\[^\x00-\x7f]/.test(built)) throw new Error('dist/l1sim.bundle.cjs has a backslash before a non-ASCII character: escape it by hand in the build')
const bundled = built.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
await writeFile('dist/l1sim.bundle.cjs', bundled)
// An `import()` left in the bundle fails in the bin (see launcherImport): every one must be the
// launcher's. JSDoc types (`{import('x').T}`) and methods named import (`w.x.import(...)`, and
// their definitions) are not calls.
const stray = bundled
  .split('\n')
  .filter((line) => /(?<![.\w${])import\(/.test(line) && !/^\s*import\([\w\s,]*\)\s*\{/.test(line) && !line.includes('__l1simImport(specifier) : import(specifier)'))
if (stray.length > 0) throw new Error(`dist/l1sim.bundle.cjs calls import() outside src/core/importModule.ts, which fails in the bin:\n${stray.join('\n')}`)
// The launcher keys its code cache by the bundle's hash, computed here once rather than at every start.
const bundleHash = createHash('sha256').update(bundled).digest('hex')
const launcher = await readFile('scripts/launcher.mjs', 'utf8')
if (!launcher.includes("'@@BUNDLE_SHA256@@'")) throw new Error('scripts/launcher.mjs lost its @@BUNDLE_SHA256@@ placeholder')
await writeFile('dist/l1sim.mjs', launcher.replace("'@@BUNDLE_SHA256@@'", `'${bundleHash}'`))
await chmod('dist/l1sim.mjs', 0o755)
