import { decodeBlsPublicKey, decodeBlsSignature } from '../../core/bls.js'
import { verifyProofOfPossession } from '../../core/keys.js'
import { PChainTxError, fail } from './errors.js'

/**
 * `signer.ProofOfPossession.Verify` (avalanchego `vms/platformvm/signer`), as RegisterL1ValidatorTx
 * runs it on the message's BLS key and the tx's proof: the key must decompress (`couldn't
 * decompress public key`) to a valid point (`invalid public key`), the proof to a signature
 * (`couldn't decompress signature`) in the subgroup (`invalid signature`), and the proof must sign
 * the key's bytes under the PoP DST (`invalid proof of possession`). The decoding is native blst's
 * (microseconds, avalanchego's checks); the pairing under the PoP DST is noble's, as blst's JS API
 * only takes the signature DST.
 */
export function verifyPop(publicKey: Uint8Array, proof: Uint8Array): void {
  const key = decodeBlsPublicKey(publicKey)
  if (typeof key === 'string') throw new PChainTxError('invalidProofOfPossession', key)
  const signature = decodeBlsSignature(proof)
  if (typeof signature === 'string') throw new PChainTxError('invalidProofOfPossession', signature)
  if (!verifyProofOfPossession({ publicKey, proofOfPossession: proof })) throw fail('invalidProofOfPossession')
}

/**
 * {@link verifyPop} that remembers the last 1,024 pairs it accepted: a RegisterL1ValidatorTx is
 * verified when it enters the mempool and again when its block is built, one pairing each
 * otherwise. A refusal is not remembered (it is thrown again, the same way).
 */
export function createPopVerifier(): (publicKey: Uint8Array, proof: Uint8Array) => void {
  let accepted = new Set<string>()
  return (publicKey, proof) => {
    const key = `${Buffer.from(publicKey).toString('hex')}:${Buffer.from(proof).toString('hex')}`
    if (accepted.has(key)) return
    verifyPop(publicKey, proof)
    if (accepted.size >= 1024) accepted = new Set()
    accepted.add(key)
  }
}
