import type { CustomCrypto } from '@ethereumjs/common'
import { calculateSigRecovery, concatBytes, ecrecover, setLengthLeft } from '@ethereumjs/util'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { keccak256 } from '../core/keccak.js'
import { nativeKeccak256, nativeSecp256k1 } from '../core/native.js'
import { knownRecovery, knownSignature, secp256k1ResultsInstalled } from './knownSignatures.js'

/**
 * The chains' crypto: sender recovery is the largest single cost of admitting a transaction and
 * hashing a tenth of a block's time. Recovery runs in the native binding of `src/core/native.ts`
 * when it loads, ethereumjs' own noble code otherwise; keccak is the process's
 * (`src/core/keccak.ts`: WebAssembly). Results are identical either way.
 */

/** Whether the native secp256k1 and keccak bindings are in use (reported by the benchmark; asking loads secp256k1's). */
export const nativeCrypto = {
  get secp256k1() {
    return nativeSecp256k1() !== undefined
  },
  keccak: nativeKeccak256 !== undefined,
}

export function createCustomCrypto(): CustomCrypto {
  // libsecp256k1 loads on the first signature or recovery (see src/core/native.ts), not with the
  // chain; without it, what ethereumjs does with no custom function (noble).
  return {
    keccak256,
    ecrecover(msgHash, v, r, s, chainId) {
      // What the default scenario recovers is known before libsecp256k1 loads (src/evm/knownSignatures.ts).
      const known = secp256k1ResultsInstalled() ? recoverKnown(msgHash, v, r, s, chainId) : undefined
      if (known !== undefined) return known
      const native = nativeSecp256k1()
      if (!native) return ecrecover(msgHash, v, r, s, chainId)
      const recovery = calculateSigRecovery(v, chainId)
      if (recovery !== 0n && recovery !== 1n) throw new Error('Invalid signature v value')
      const sig = concatBytes(setLengthLeft(r, 32), setLengthLeft(s, 32))
      return native.ecdsaRecover(sig, Number(recovery), msgHash, false).subarray(1)
    },
    /**
     * Transaction signing (`tx.sign(key)`, what the provider does for a dev account). The first
     * noble signature in a process builds secp256k1's precomputed tables, 30–60 ms of a cold
     * start; libsecp256k1 signs in µs. Both are RFC 6979 with low s, so for the deterministic
     * signatures ethereumjs asks for (no extra entropy) the bytes are the same; any other request
     * goes to noble unchanged.
     */
    ecsign(message, secretKey, options) {
      const deterministic = options?.extraEntropy === false && options.format === 'recovered' && options.prehash === false && options.lowS !== false
      // What the default scenario signs is known before libsecp256k1 loads (src/evm/knownSignatures.ts).
      const known = deterministic && secp256k1ResultsInstalled() ? knownSignature(message, secretKey) : undefined
      if (known !== undefined) return known
      const native = nativeSecp256k1()
      if (!native || !deterministic) return secp256k1.sign(message, secretKey, options)
      const { signature, recid } = native.ecdsaSign(message, secretKey)
      // noble's `recovered` format: the recovery id, then r and s.
      return concatBytes(Uint8Array.of(recid), signature)
    },
  }
}

/**
 * The public key (64 bytes, no prefix) a known recovery gives, when the signature is one
 * src/evm/knownSignatures.ts holds. A `v` neither recovery accepts is left to them (the same error).
 */
function recoverKnown(msgHash: Uint8Array, v: bigint, r: Uint8Array, s: Uint8Array, chainId: bigint | undefined): Uint8Array | undefined {
  if (r.length > 32 || s.length > 32) return undefined
  let recovery: bigint
  try {
    recovery = calculateSigRecovery(v, chainId)
  } catch {
    return undefined
  }
  if (recovery !== 0n && recovery !== 1n) return undefined
  return knownRecovery(concatBytes(setLengthLeft(r, 32), setLengthLeft(s, 32)), Number(recovery), msgHash)?.subarray(1)
}
