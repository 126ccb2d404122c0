// Bundles the CLI into one file: a cold start then reads one module instead of several hundred
// (about 200 ms less from spawn to the first answer). The library entry (dist/index.js) stays
// unbundled for projects that import l1sim. Run by `npm run build`.
//
// The bundle is a CommonJS script (dist/l1sim.bundle.cjs) rather than an ES module, so that the
// bin, dist/l1sim.mjs (scripts/launcher.mjs), can run it with a V8 code cache (see there). The file
// holds one function expression, the CommonJS wrapper around the bundle, which only the launcher
// calls: it is not a module to require.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import Module, { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, transform } from 'esbuild'

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
      // node:https likewise, for the `https` option (with ws's, below: node's TLS modules, ~0.6 ms).
      return { contents: lazyRequire(source.replace(eager, lazy), args.path, 'https', "const https = require('node:https')", ['createServer']), loader: 'js' }
    })
  },
}

/**
 * `source` (the file at `path`) with `eager`, its require of a node module at load, replaced by an
 * object holding the same functions (`members`), each requiring the module on its first call.
 * Throws if the file no longer requires it so or uses another member of it.
 */
function lazyRequire(source, path, variable, eager, members) {
  // Its uses outside comments (JSDoc types name `tls.Socket` and the like).
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
  const used = new Set([...code.matchAll(new RegExp(`(?<![.\\w$'"])${variable}\\.(\\w+)`, 'g'))].map((m) => m[1]))
  if (!source.includes(eager) || [...used].some((name) => !members.includes(name)))
    throw new Error(`${path} no longer matches what the build's lazy ${variable} expects (uses ${variable}.${[...used].join(`, ${variable}.`)})`)
  const module = /require\('([^']+)'\)/.exec(eager)[1]
  const lazy = [
    `let ${variable}Module`,
    `const ${variable} = { ${members.map((name) => `${name}: (...args) => (${variable}Module ??= require('${module}')).${name}(...args)`).join(', ')} }`,
  ].join('\n')
  return source.replace(eager, lazy)
}

/**
 * ws's websocket.js requires node:https and node:tls (with fastify's node:https, node's TLS
 * modules: ~0.6 ms of a cold start) for a client's `wss:` connections; the servers' WebSockets are
 * accepted, never dialled. In the bundle each is required on its first call.
 */
const lazyWsTls = {
  name: 'lazy-ws-tls',
  setup(b) {
    b.onLoad({ filter: /[\\/]ws[\\/]lib[\\/]websocket\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8')
      const https = lazyRequire(source, args.path, 'https', "const https = require('https');", ['request'])
      return { contents: lazyRequire(https, args.path, 'tls', "const tls = require('tls');", ['connect']), loader: 'js' }
    })
  },
}

/**
 * The bundle cannot run `import()` (see src/core/importModule.ts): its lazy loads go through the
 * launcher's, which the launcher passes in as `__l1simImport` (the bundle runs only under the
 * launcher: see the wrapper at the end of this file).
 */
const launcherImport = {
  name: 'launcher-import',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/]core[\\/]importModule\.js$/ }, () => ({
      contents: 'export const importModule = (specifier) => __l1simImport(specifier)\n',
      loader: 'js',
    }))
  },
}

/**
 * Each fastify instance (one per node) loads its schema compilers when it is created:
 * @fastify/ajv-compiler (Ajv with its formats and the JSON Schema drafts) and
 * @fastify/fast-json-stringify-compiler, ~5 ms of a cold start, though a start compiles no
 * schema. In the bundle each instance makes its compiler selector on the first schema it
 * compiles instead, from the same modules, so routes get the same validators and serializers.
 */
const lazyFastifyCompilers = {
  name: 'lazy-fastify-compilers',
  setup(b) {
    b.onLoad({ filter: /[\\/]fastify[\\/]lib[\\/]schema-controller\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8')
      const eager = [
        "    const ValidatorSelector = require('@fastify/ajv-compiler')\n    compilersFactory.buildValidator = ValidatorSelector()\n",
        "    const SerializerSelector = require('@fastify/fast-json-stringify-compiler')\n    compilersFactory.buildSerializer = SerializerSelector()\n",
      ]
      if (eager.some((code) => !source.includes(code))) throw new Error(`${args.path} no longer matches what lazy-fastify-compilers expects`)
      const lazy = [
        "    let validatorSelector\n    compilersFactory.buildValidator = (...args) => (validatorSelector ??= require('@fastify/ajv-compiler')())(...args)\n",
        "    let serializerSelector\n    compilersFactory.buildSerializer = (...args) => (serializerSelector ??= require('@fastify/fast-json-stringify-compiler')())(...args)\n",
      ]
      return { contents: source.replace(eager[0], lazy[0]).replace(eager[1], lazy[1]), loader: 'js' }
    })
  },
}

/**
 * fastify's plugin-utils.js requires semver when it loads (~1 ms of a cold start: semver compiles
 * its regular expressions at load) for the version check of a plugin that names the fastify it
 * needs, which runs when the routes are built. In the bundle semver loads at that first check.
 */
const lazyFastifySemver = {
  name: 'lazy-fastify-semver',
  setup(b) {
    b.onLoad({ filter: /[\\/]fastify[\\/]lib[\\/]plugin-utils\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8')
      const eager = "const semver = require('semver')\n"
      const used = new Set([...source.matchAll(/\bsemver\.(\w+)/g)].map((m) => m[1]))
      if (!source.includes(eager) || [...used].some((name) => !['gt', 'coerce', 'satisfies'].includes(name)))
        throw new Error(`${args.path} no longer matches what lazy-fastify-semver expects (uses semver.${[...used].join(', semver.')})`)
      const lazy = [
        'let semverModule',
        "const loadSemver = () => (semverModule ??= require('semver'))",
        'const semver = { gt: (...args) => loadSemver().gt(...args), coerce: (...args) => loadSemver().coerce(...args), satisfies: (...args) => loadSemver().satisfies(...args) }',
        '',
      ].join('\n')
      return { contents: source.replace(eager, lazy), loader: 'js' }
    })
  },
}

/**
 * src/evm/ethereumjsInternals/ (sealing.ts, opcodeWatch.ts, stateCaches.ts) and src/evm/jumpAnalysisCache.ts find the installed
 * @ethereumjs packages' versions at load by walking up to their package.json (~1 ms and several
 * file reads each, at every cold start). In the bundle
 * the code that runs is the copy bundled here, so its version is known now: each call becomes
 * the version of the package esbuild resolves from the same file (the same walk, done once).
 */
const pinnedVersions = {
  name: 'pinned-ethereumjs-versions',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/]evm[\\/](ethereumjsInternals[\\/](sealing|opcodeWatch|stateCaches)|jumpAnalysisCache)\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8')
      const calls = [...source.matchAll(/installedVersion\('([^']+)'\)/g)]
      if (calls.length === 0) throw new Error(`${args.path} no longer calls installedVersion('<package>'): update pinned-ethereumjs-versions`)
      const require = createRequire(args.path)
      const versionOf = (name) => {
        for (let dir = dirname(require.resolve(name)); dir !== dirname(dir); dir = dirname(dir)) {
          const file = join(dir, 'package.json')
          if (!existsSync(file)) continue
          const json = JSON.parse(readFileSync(file, 'utf8'))
          if (json.name === name) return json.version
        }
        throw new Error(`no package.json of ${name} above ${require.resolve(name)}`)
      }
      return { contents: source.replace(/installedVersion\('([^']+)'\)/g, (_, name) => JSON.stringify(versionOf(name))), loader: 'js' }
    })
  },
}

/**
 * @ethereumjs/util's bytes.js makes a BigInt for each of 0…65535 when it loads (for
 * `bytesToBigInt` of one- and two-byte inputs): ~4 ms of a cold start, and 65,536 objects the
 * start's scavenges copy and promote. In the bundle each is made on its first use instead; the
 * values returned are the same. The build fails if the source no longer has that shape.
 */
const lazyBigIntCache = {
  name: 'lazy-ethereumjs-bigint-cache',
  setup(b) {
    b.onLoad({ filter: /[\\/]@ethereumjs[\\/]util[\\/]dist[\\/]esm[\\/]bytes\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8')
      const eager = 'const BIGINT_CACHE = [];\nfor (let i = 0; i <= 256 * 256 - 1; i++) {\n    BIGINT_CACHE[i] = BigInt(i);\n}\n'
      const uses = ['return BIGINT_CACHE[bytes[0]];', 'return BIGINT_CACHE[bytes[0] * 256 + bytes[1]];']
      if (!source.includes(eager) || uses.some((use) => !source.includes(use)) || source.split('BIGINT_CACHE').length !== 5)
        throw new Error(`${args.path} no longer matches what lazy-ethereumjs-bigint-cache expects`)
      const lazy = [
        '// Filled on first use (scripts/bundle-cli.mjs): holes, not 65,536 BigInts made at load.',
        'const BIGINT_CACHE = new Array(256 * 256);',
        'const cachedBigInt = (i) => BIGINT_CACHE[i] ?? (BIGINT_CACHE[i] = BigInt(i));',
        '',
      ].join('\n')
      return {
        contents: source.replace(eager, lazy).replace(uses[0], 'return cachedBigInt(bytes[0]);').replace(uses[1], 'return cachedBigInt(bytes[0] * 256 + bytes[1]);'),
        loader: 'js',
      }
    })
  },
}

/**
 * hash-wasm's `main` (what esbuild takes for node) is one UMD file holding every algorithm it
 * offers, each with its WebAssembly module as a base64 string (~260 KB of the bundle, which every
 * start reads and deserialises); src/core/keccak.ts uses keccak only. The package's ES module build
 * (its `module`, the same code, marked side-effect free) lets esbuild keep only what is imported.
 */
const hashWasmModule = {
  name: 'hash-wasm-module',
  setup(b) {
    b.onResolve({ filter: /^hash-wasm$/ }, (args) => {
      const require = createRequire(join(args.resolveDir, 'index.js'))
      const main = require.resolve('hash-wasm')
      const json = JSON.parse(readFileSync(join(dirname(main), '..', 'package.json'), 'utf8'))
      if (json.name !== 'hash-wasm' || typeof json.module !== 'string') throw new Error(`hash-wasm at ${main} no longer has the ES module build hash-wasm-module expects`)
      return { path: join(dirname(main), '..', json.module) }
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
  plugins: [hashWasmModule, exposeInterpreter, lazyFastifyHttp2, lazyWsTls, lazyFastifyCompilers, lazyFastifySemver, launcherImport, pinnedVersions, lazyBigIntCache],
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
// An `import()` left in the bundle fails in the bin (see launcherImport): every one must be the
// launcher's. JSDoc types (`{import('x').T}`) and methods named import (`w.x.import(...)`, and
// their definitions) are not calls.
const stray = bundled
  .split('\n')
  .filter((line) => /(?<![.\w${])import\(/.test(line) && !/^\s*import\([\w\s,]*\)\s*\{/.test(line))
if (stray.length > 0) throw new Error(`dist/l1sim.bundle.cjs calls import() outside src/core/importModule.ts, which fails in the bin:\n${stray.join('\n')}`)
// Whitespace and comments are a third of the bundle's 5 MB, which every start reads and decodes
// (~3 ms): the bundle is written without them (names and code are left as they are; the license
// comments are kept). esbuild prints it with ASCII escapes, as above; the check is that it did.
const { code: minified } = await transform(bundled, { minifyWhitespace: true, legalComments: 'inline', charset: 'ascii', target: 'node20' })
if (/[^\x00-\x7f]/.test(minified)) throw new Error('esbuild printed the bundle with non-ASCII characters')
// The bundle is written inside the function the launcher calls (its CommonJS wrapper, plus
// `__l1simImport`), so that the launcher compiles the file's text as read: wrapping it at run time
// made V8 flatten a second 5 MB copy of the source (~4 ms of a cold start, and the copy kept).
const wrapped = `(function (exports, require, module, __filename, __dirname, __l1simImport) {${minified}\n})`
await writeFile('dist/l1sim.bundle.cjs', wrapped)
// What the default scenario signs and recovers, recorded from libsecp256k1 itself as a start runs
// it (src/evm/knownSignatures.ts): the binding the library loads, wrapped before it first loads.
const recorded = { signatures: [], recoveries: [] }
const loadModule = Module._load
Module._load = function (request, ...rest) {
  const binding = loadModule.call(this, request, ...rest)
  if (request !== 'secp256k1/bindings') return binding
  const hex = (bytes) => Buffer.from(bytes).toString('hex')
  return {
    ...binding,
    ecdsaSign(message, privateKey, ...more) {
      const result = binding.ecdsaSign(message, privateKey, ...more)
      if (more.length === 0) recorded.signatures.push([hex(message), hex(privateKey), hex(result.signature), result.recid])
      return result
    },
    ecdsaRecover(signature, recid, message, compressed, ...more) {
      const key = binding.ecdsaRecover(signature, recid, message, compressed, ...more)
      if (compressed === false && more.length === 0) recorded.recoveries.push([hex(signature), recid, hex(message), hex(key)])
      return key
    },
  }
}
// The default scenario, parsed now (the parse `l1sim start` would repeat at every start; the CLI
// decodes it when the file and its artifacts are still the ones parsed: src/scenario/preparsed.ts).
const { readScenario } = await import('../dist/scenario/index.js')
const { encodeScenario } = await import('../dist/scenario/preparsed.js')
const defaultScenario = fileURLToPath(new URL('../scenarios/default.yaml', import.meta.url))
const preparsed = encodeScenario(await readScenario(defaultScenario), await readFile(defaultScenario, 'utf8'))
await writeFile('dist/scenario/default.preparsed.json', JSON.stringify(preparsed))
// The default scenario run as `l1sim start` runs it (its options, a free port), for what it signs.
{
  const { parseCommandLine } = await import('../dist/cli/commandLine.js')
  const { readPreparsedScenario } = await import('../dist/scenario/preparsed.js')
  const { startDevnet } = await import('../dist/devnet.js')
  // Its nodes' logs go to a temporary directory, not `.l1sim/` in the checkout.
  const dataDir = await mkdtemp(join(tmpdir(), 'l1sim-build-'))
  const line = parseCommandLine(['start', '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir])
  const scenario = readPreparsedScenario(defaultScenario, 'dist/scenario/default.preparsed.json')
  if (line.kind !== 'command' || scenario === undefined) throw new Error('scripts/bundle-cli.mjs cannot run the default scenario as `l1sim start` does')
  try {
    const devnet = await startDevnet({ ...line.options, scenario })
    await devnet.close()
  } catch (error) {
    // A build where the scenario cannot run here (no loopback to serve on, say) ships an empty
    // table: starts then load libsecp256k1 for it, as before.
    console.warn(`scripts/bundle-cli.mjs: the default scenario did not run (${error.message}); dist/scenario/default.signatures.json is empty`)
    recorded.signatures.length = 0
    recorded.recoveries.length = 0
  } finally {
    Module._load = loadModule
    await rm(dataDir, { recursive: true, force: true })
  }
  await writeFile('dist/scenario/default.signatures.json', JSON.stringify(recorded))
}
// The launcher keys its code cache by the bundle's hash, computed here once rather than at every start.
const bundleHash = createHash('sha256').update(wrapped).digest('hex')
const launcher = await readFile('scripts/launcher.mjs', 'utf8')
if (!launcher.includes("'@@BUNDLE_SHA256@@'")) throw new Error('scripts/launcher.mjs lost its @@BUNDLE_SHA256@@ placeholder')
await writeFile('dist/l1sim.mjs', launcher.replace("'@@BUNDLE_SHA256@@'", `'${bundleHash}'`))
await chmod('dist/l1sim.mjs', 0o755)
