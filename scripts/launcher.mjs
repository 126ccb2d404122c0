#!/usr/bin/env -S node --max-semi-space-size=32 --min-semi-space-size=32
// The `l1sim` bin (copied to dist/l1sim.mjs by scripts/bundle-cli.mjs). The shebang gives V8 a
// larger young generation: a server allocating per request spends about a third less time in
// scavenges (eth_call over HTTP: ~10% more calls per second). It starts at that size rather than
// growing into it: a start keeps most of what it allocates (the bundle's functions, the chains),
// and a small young generation copied it through ten scavenges (~40 ms) where one suffices.
//
// It runs the bundle (dist/l1sim.bundle.cjs, one function expression) through a V8 code cache: compiling the 4 MB bundle,
// and then the functions a start calls, is about a sixth of a cold start, and node 20 has no
// compile cache for modules (module.enableCompileCache is node 22), so the bundle is a script
// compiled with vm.Script's `cachedData`. A script compiled from a cache has lost, on node 20, what
// tells node how to load its `import()` (vm.Script's `importModuleDynamically` is dropped with the
// host-defined options V8 does not restore from a cache): the bundle's lazy loads (node:inspector,
// VM plugins; src/core/importModule.ts) call this module's `import()` instead, passed in as
// `__l1simImport`. The cache is an optimisation only:
// - it is kept next to the bundle under a name holding the bundle's sha256 (computed at build
//   time), the node version and the flags node runs with, so a rebuilt bundle or another node never reads a stale one (V8 itself only checks the
//   source's length and its flags, and refuses a mismatch by `cachedDataRejected`);
// - it is written after the first `start` is serving (so it holds the functions a start compiles
//   lazily), atomically (a temporary file renamed), and only when missing or refused;
// - a missing, unreadable, refused or unwritable cache only means compiling as without one.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import vm from 'node:vm'

// The bundle's sha256, written here by scripts/bundle-cli.mjs when it copies this file beside the
// bundle it built: hashing the 4 MB source at every start was 8–10 ms of a cold start.
const BUNDLE_SHA256 = '@@BUNDLE_SHA256@@'

const dir = dirname(fileURLToPath(import.meta.url))
const bundle = join(dir, 'l1sim.bundle.cjs')
const source = readFileSync(bundle, 'utf8')
const key = createHash('sha256').update(BUNDLE_SHA256).update(process.version).update(process.arch).digest('hex').slice(0, 16)
// V8 refuses a cache made under other flags (`node dist/l1sim.mjs` has none, the shebang and
// `npm start` give the semi-space ones): one cache per flag set, or starts that alternate them
// would each refuse and rewrite the other's.
const flags = createHash('sha256').update(process.execArgv.join('\0')).update(process.env.NODE_OPTIONS ?? '').digest('hex').slice(0, 8)
const cacheName = `${basename(bundle)}.${key}.${flags}.v8cache`
const cacheFile = join(dir, cacheName)
let cachedData
try {
  cachedData = readFileSync(cacheFile)
} catch {
  // No cache yet (or unreadable): compile from source.
}
// The file is the bundle inside its CommonJS wrapper (scripts/bundle-cli.mjs): compiled as read,
// with no second copy of the source to make.
const script = new vm.Script(source, { filename: bundle, cachedData })
// The cache's bytes (~3 MB) are not needed once compiled: the callback below kept them alive for
// the whole run (peak RSS).
const readCache = cachedData !== undefined
cachedData = undefined
installHexBuiltins()
const module = { exports: {} }
script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dir, (specifier) => import(specifier))
await module.exports.main(() => {
  if (readCache && !script.cachedDataRejected) return
  try {
    const temporary = `${cacheFile}.${process.pid}.tmp`
    writeFileSync(temporary, script.createCachedData())
    renameSync(temporary, cacheFile)
    // Caches of earlier bundles (or node versions) are dead weight; those of other flags are not.
    for (const name of readdirSync(dir)) if (name.startsWith(`${basename(bundle)}.`) && name.endsWith('.v8cache') && !(name.startsWith(`${basename(bundle)}.${key}.`) && name.length === cacheName.length)) unlinkSync(join(dir, name))
  } catch {
    // A read-only install: every start compiles, as without a cache.
  }
})

/**
 * Uint8Array's `toHex` and `fromHex` (TC39's "Uint8Array to/from base64 and hex", not in node
 * 20's V8), installed in this process only, before the bundle runs, when node has neither. The
 * bundle's @noble/hashes (under @ethereumjs/util, the journal, the state caches and the
 * interpreter) turns bytes into hex for every address, slot and word it keys or converts (~30
 * times an eth_call), and without them it builds the string two characters at a time: ~1.1 KB of
 * garbage for 32 bytes, ~0.25 with node's native hex (most of an eth_call's allocation, hence its
 * scavenges). `fromHex` throws a SyntaxError with the message noble's own parser gives (noble
 * rethrows it as the RangeError it throws itself): same bytes, same errors. Not in the library
 * build: an import must not change a global its user sees.
 */
function installHexBuiltins() {
  if (typeof Uint8Array.prototype.toHex === 'function' || typeof Uint8Array.fromHex === 'function') return
  // node's own hex codecs, which take any Uint8Array (undocumented Buffer methods: checked, else through a Buffer view).
  const hexSlice = typeof Buffer.prototype.hexSlice === 'function' ? Buffer.prototype.hexSlice : undefined
  const hexWrite = typeof Buffer.prototype.hexWrite === 'function' ? Buffer.prototype.hexWrite : undefined
  const HEX = /^[0-9a-fA-F]*$/
  const PAIR = /^[0-9a-fA-F]{2}$/
  Object.defineProperty(Uint8Array.prototype, 'toHex', {
    value: function toHex() {
      return hexSlice ? hexSlice.call(this, 0, this.length) : Buffer.from(this.buffer, this.byteOffset, this.byteLength).toString('hex')
    },
    writable: true,
    configurable: true,
  })
  Object.defineProperty(Uint8Array, 'fromHex', {
    value: function fromHex(hex) {
      if (typeof hex !== 'string') throw new TypeError('Uint8Array.fromHex expects a string')
      if (hex.length % 2) throw new SyntaxError(`hex string expected, got unpadded hex of length ${hex.length}`)
      if (!HEX.test(hex)) {
        for (let at = 0; at < hex.length; at += 2) {
          if (!PAIR.test(hex.slice(at, at + 2))) throw new SyntaxError(`hex string expected, got non-hex character "${hex[at] + hex[at + 1]}" at index ${at}`)
        }
      }
      const bytes = new Uint8Array(hex.length / 2)
      if (hexWrite) hexWrite.call(bytes, hex, 0, bytes.length)
      else Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).write(hex, 'hex')
      return bytes
    },
    writable: true,
    configurable: true,
  })
}
