// Bundles the CLI into one file: a cold start then reads one module instead of several hundred
// (about 200 ms less from spawn to the first answer). The library entry (dist/index.js) stays
// unbundled for projects that import l1sim. Run by `npm run build`.
import { build } from 'esbuild'

/**
 * The interpreter class of @ethereumjs/evm is internal; in a bundle it cannot be imported from
 * outside, so it is published under a registered symbol for src/evm/jumpAnalysisCache.ts.
 */
const exposeInterpreter = {
  name: 'expose-ethereumjs-interpreter',
  setup(b) {
    b.onLoad({ filter: /@ethereumjs[\\/]evm[\\/]dist[\\/]esm[\\/]interpreter\.js$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises')
      const source = await readFile(args.path, 'utf8')
      return { contents: `${source}\nglobalThis[Symbol.for('l1sim.ethereumjs.Interpreter')] = Interpreter;\n`, loader: 'js' }
    })
  },
}

await build({
  entryPoints: ['dist/cli.js'],
  outfile: 'dist/l1sim.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Native addons load their prebuilt binaries from node_modules at run time.
  external: ['secp256k1', 'keccak', 'node-gyp-build'],
  banner: { js: "import { createRequire as __l1simCreateRequire } from 'node:module';\nconst require = __l1simCreateRequire(import.meta.url);" },
  plugins: [exposeInterpreter],
  logLevel: 'warning',
})
