// Bundles the CLI into one file: a cold start then reads one module instead of several hundred
// (about 200 ms less from spawn to the first answer). The library entry (dist/index.js) stays
// unbundled for projects that import l1sim. Run by `npm run build`.
//
// The bundle is a CommonJS script (dist/l1sim.bundle.cjs) rather than an ES module, so that the
// bin, dist/l1sim.mjs (scripts/launcher.mjs), can run it with a V8 code cache (see there).
import { copyFile, chmod, readFile } from 'node:fs/promises'
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

await build({
  entryPoints: ['dist/cli.js'],
  outfile: 'dist/l1sim.bundle.cjs',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // Native addons load their prebuilt binaries from node_modules at run time.
  external: ['secp256k1', 'keccak', 'node-gyp-build'],
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
  plugins: [exposeInterpreter],
  logLevel: 'warning',
})
await copyFile('scripts/launcher.mjs', 'dist/l1sim.mjs')
await chmod('dist/l1sim.mjs', 0o755)
