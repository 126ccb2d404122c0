import { createRequire } from 'node:module'
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
function loadNative(): NativeSecp256k1 | undefined {
  try {
    return createRequire(import.meta.url)('secp256k1/bindings') as NativeSecp256k1
  } catch {
    return undefined
  }
}

const native = loadNative()

/** Whether the native secp256k1 binding is in use (reported by the benchmark). */
export const hasNativeSecp256k1 = native !== undefined

export function createCustomCrypto(): CustomCrypto {
  if (!native) return {}
  return {
    ecrecover(msgHash, v, r, s, chainId) {
      const recovery = calculateSigRecovery(v, chainId)
      if (recovery !== 0n && recovery !== 1n) throw new Error('Invalid signature v value')
      const sig = concatBytes(setLengthLeft(r, 32), setLengthLeft(s, 32))
      return native.ecdsaRecover(sig, Number(recovery), msgHash, false).subarray(1)
    },
  }
}
