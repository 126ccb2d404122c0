import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import type { CustomCrypto } from '@ethereumjs/common'
import { calculateSigRecovery, concatBytes, setLengthLeft } from '@ethereumjs/util'

type NativeSecp256k1 = {
  ecdsaRecover(sig: Uint8Array, recid: number, msg32: Uint8Array, compressed?: boolean): Uint8Array
}

/**
 * Sender recovery is the largest single cost of admitting a transaction: pure-JS recovery takes
 * about a millisecond, the libsecp256k1 binding (shipped prebuilt in the `secp256k1` package)
 * about 40 µs. When the binding cannot load (an unusual platform), ethereumjs' own noble code
 * is used, so behaviour is identical and only speed differs.
 */
const require = createRequire(import.meta.url)

function loadNative(): NativeSecp256k1 | undefined {
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

/**
 * keccak256 through the `keccak` package's native sponge, one state reused call after call (a
 * call runs to completion synchronously, so there is no sharing). Trie nodes, block, transaction
 * and code hashes are a tenth of a block's time in pure JS; this is 3–5× faster. Undefined when
 * the addon cannot load, and ethereumjs' own noble keccak is used.
 */
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

const native = loadNative()
const keccak256 = loadKeccak()

/** Whether the native secp256k1 and keccak bindings are in use (reported by the benchmark). */
export const nativeCrypto = { secp256k1: native !== undefined, keccak: keccak256 !== undefined }

export function createCustomCrypto(): CustomCrypto {
  const crypto: CustomCrypto = keccak256 ? { keccak256 } : {}
  if (!native) return crypto
  return {
    ...crypto,
    ecrecover(msgHash, v, r, s, chainId) {
      const recovery = calculateSigRecovery(v, chainId)
      if (recovery !== 0n && recovery !== 1n) throw new Error('Invalid signature v value')
      const sig = concatBytes(setLengthLeft(r, 32), setLengthLeft(s, 32))
      return native.ecdsaRecover(sig, Number(recovery), msgHash, false).subarray(1)
    },
  }
}
