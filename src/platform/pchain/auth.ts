import { sha256 } from '@noble/hashes/sha2.js'
import { encodeSignedTx, encodeUnsignedTx, txIdBytes } from '../codec.js'
import { Secp256k1fxError, recoverAddress } from '../secp256k1fx.js'
import type { PChainSignedTx } from '../txs.js'
import type { Authenticator } from './chain.js'
import { PChainTxError } from './errors.js'
import type { TxAuth } from './executor.js'

/**
 * The real {@link Authenticator} of the P-chain: the tx id is sha256 of the signed tx bytes
 * (`txs.Tx.Initialize`), and the signers of each credential are the addresses recovered from its
 * 65-byte `[r ‖ s ‖ v]` signatures over sha256 of the unsigned tx bytes (`secp256k1fx.Fx`
 * recovering the public key, `PublicKey.Address()`), in signature order. Which address each
 * signature had to come from is then checked by the executor against the spent outputs, subnet
 * owners or deactivation owners (`expected signature from X but got from Y`).
 *
 * A signature that cannot be recovered (wrong length, high s, bad recovery id, not on the curve)
 * is refused here, before any state is touched, as a {@link PChainTxError} whose code and message
 * are secp256k1fx's (`invalid signature length`, `signature was mutated from its original format`,
 * `invalid signature`), prefixed with `failed to verify transfer: ` as the executor wraps them.
 */
export const authenticate: Authenticator = (tx: PChainSignedTx): TxAuth => {
  const txId = txIdBytes(encodeSignedTx('P', tx))
  const hash = sha256(encodeUnsignedTx('P', tx.unsigned))
  const signers = tx.credentials.map((cred) =>
    cred.sigs.map((sig) => {
      try {
        return recoverAddress(hash, sig)
      } catch (err) {
        if (err instanceof Secp256k1fxError) throw new PChainTxError(err.code, `failed to verify transfer: ${err.shortMessage}`)
        throw err
      }
    }),
  )
  return { txId, signers }
}
