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
