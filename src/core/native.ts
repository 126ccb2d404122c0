import { createRequire } from 'node:module'
import { dirname } from 'node:path'

/**
 * The native crypto bindings the emulator uses when they load: libsecp256k1 (prebuilt in the
 * `secp256k1` package) and the `keccak` package's sponge. Each is undefined when its addon cannot
 * load (an unusual platform); callers then use node's crypto or noble, so results are identical and
 * only speed differs. Loaded once per process: they are library handles, not state.
 */
const require = createRequire(import.meta.url)

/** The part of the `secp256k1` package's binding the emulator calls. */
export type NativeSecp256k1 = {
  ecdsaRecover(sig: Uint8Array, recid: number, msg32: Uint8Array, compressed?: boolean): Uint8Array
  /** RFC 6979 nonces, low-s: 64 bytes `r ‖ s` and the recovery id. */
  ecdsaSign(msg32: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number }
  publicKeyCreate(privateKey: Uint8Array, compressed?: boolean): Uint8Array
}

function loadSecp256k1(): NativeSecp256k1 | undefined {
  try {
    return require('secp256k1/bindings') as NativeSecp256k1
  } catch {
    return undefined
  }
}

type KeccakState = {
  initialize(rate: number, capacity: number): void
  absorb(data: Buffer): void
  absorbLastFewBits(bits: number): void
  squeeze(length: number): Buffer
}

function loadKeccak(): ((data: Uint8Array) => Uint8Array) | undefined {
  try {
    const load = require('node-gyp-build') as (dir: string) => new () => KeccakState
    const State = load(dirname(require.resolve('keccak/package.json')))
    const state = new State()
    state.initialize(1088, 512)
    return (data) => {
      state.absorb(Buffer.from(data.buffer, data.byteOffset, data.byteLength))
      state.absorbLastFewBits(0x01)
      const digest = state.squeeze(32)
      state.initialize(1088, 512)
      return new Uint8Array(digest.buffer, digest.byteOffset, 32)
    }
  } catch {
    return undefined
  }
}

let secp256k1Binding: NativeSecp256k1 | null | undefined

/**
 * libsecp256k1: sender recovery in about 40 µs instead of a millisecond in pure JS, a public key
 * or a signature in µs, where node's ECDH takes about half a millisecond (OpenSSL's generic curve
 * code) and noble's first multiplication in a process 30–60 ms (JIT warm-up and its precomputed
 * tables). Loaded on the first call: the binding builds its signing and verification tables when
 * it loads (~8 ms), which a start that signs and recovers nothing (`l1sim start --no-scenario`)
 * need not wait for. Undefined when it cannot load.
 */
export function nativeSecp256k1(): NativeSecp256k1 | undefined {
  if (secp256k1Binding === undefined) secp256k1Binding = loadSecp256k1() ?? null
  return secp256k1Binding ?? undefined
}

/**
 * keccak256 through the `keccak` package's native sponge, one state reused call after call (a
 * call runs to completion synchronously, so there is no sharing). Trie nodes, block, transaction
 * and code hashes are a tenth of a block's time in pure JS; this is 3–5× faster, and in a cold
 * process far more (noble's keccak runs interpreted until the JIT warms up).
 */
export const nativeKeccak256: ((data: Uint8Array) => Uint8Array) | undefined = loadKeccak()
