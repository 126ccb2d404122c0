import { ripemd160 as nobleRipemd160 } from '@noble/hashes/legacy.js'
import * as crypto from 'node:crypto'

/**
 * sha256 of `bytes`, as a plain `Uint8Array` (never a Buffer, whose `slice` shares memory). On
 * node's native hash: a start hashes thousands of small inputs (cb58 checksums, genesis ids, UTXO
 * ids) while the JS hashers are still interpreted, where `@noble/hashes`' sha256 was ~20 ms of a
 * cold start. `crypto.hash` (one call, no Hash object) is node ≥ 20.12; older nodes use `createHash`.
 */
export function sha256(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const digest = oneShot === undefined ? crypto.createHash('sha256').update(bytes).digest() : oneShot('sha256', bytes, 'buffer')
  return new Uint8Array(digest)
}

const oneShot = (crypto as { hash?: (algorithm: string, data: Uint8Array, encoding: 'buffer') => Buffer }).hash

let nodeRipemd160: boolean | undefined

/**
 * ripemd160 of `bytes` (X/P addresses and NodeIDs hash a public key's sha256 with it), on node's
 * native hash like {@link sha256}: `@noble/hashes`' runs interpreted in a cold process (~2–8 ms
 * for a start's 25 keys). An OpenSSL built without RIPEMD-160 leaves noble's (same bytes).
 */
export function ripemd160(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  if (nodeRipemd160 !== false) {
    try {
      const digest = crypto.createHash('ripemd160').update(bytes).digest()
      nodeRipemd160 = true
      return new Uint8Array(digest)
    } catch (error) {
      if (nodeRipemd160 === true) throw error
      nodeRipemd160 = false
    }
  }
  return new Uint8Array(nobleRipemd160(bytes))
}
