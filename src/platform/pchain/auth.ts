import { sha256 } from '../../core/sha256.js'
import { encodeSignedTx, encodeUnsignedTx, txIdBytes } from '../codec.js'
import { Secp256k1fxError, recoverAddress } from '../secp256k1fx.js'
import type { PChainSignedTx } from '../txs.js'
import type { Authenticator } from './chain.js'
import { PChainTxError } from './errors.js'
import type { CredentialSigners, TxAuth } from './executor.js'

/**
 * The real {@link Authenticator} of the P-chain: the tx id is sha256 of the signed tx bytes
 * (`txs.Tx.Initialize`), and the signers of each credential are the addresses recovered from its
 * 65-byte `[r ‖ s ‖ v]` signatures over sha256 of the unsigned tx bytes (`secp256k1fx.Fx`
 * recovering the public key, `PublicKey.Address()`), in signature order. Which address each
 * signature had to come from is then checked by the executor against the spent outputs, subnet
 * owners or deactivation owners (`expected signature from X but got from Y`).
 *
 * A credential with a signature that cannot be recovered (wrong length, high s, bad recovery id,
 * not on the curve) carries secp256k1fx's refusal (`invalid signature length`, `signature was
 * mutated from its original format`, `invalid signature`) instead of signers: the executor throws
 * it where it checks that credential, wrapped as there (`failed to verify transfer: …` for a
 * spent input, `unauthorized modification: …` for a subnet or disable authorization).
 */
export const authenticate: Authenticator = (tx: PChainSignedTx): TxAuth => {
  const txId = txIdBytes(encodeSignedTx('P', tx))
  const hash = sha256(encodeUnsignedTx('P', tx.unsigned))
  const signers: CredentialSigners[] = tx.credentials.map((cred) => {
    try {
      return cred.sigs.map((sig) => recoverAddress(hash, sig))
    } catch (err) {
      if (err instanceof Secp256k1fxError) return new PChainTxError(err.code, err.shortMessage)
      throw err
    }
  })
  return { txId, signers }
}
