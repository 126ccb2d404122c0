// A RegisterL1ValidatorTx's proof of possession check: avalanchego's decode rules (native blst)
// before noble's pairing under the PoP DST.
import { describe, expect, it } from 'vitest'
import { hexToBytes } from '../../../src/core/hex.js'
import { PChainTxError } from '../../../src/platform/pchain/index.js'
import { verifyPop } from '../../../src/platform/pchain/proofOfPossession.js'
import { identities, offSubgroupG1, offSubgroupG2 } from '../../evm/warp/helpers.js'

const [node, other] = identities(2, 'pop-test')
const key = hexToBytes(node!.blsPublicKey)
const proof = hexToBytes(node!.proofOfPossession)

function refusal(publicKey: Uint8Array, pop: Uint8Array): string | undefined {
  try {
    verifyPop(publicKey, pop)
  } catch (error) {
    expect(error).toBeInstanceOf(PChainTxError)
    return (error as PChainTxError).shortMessage
  }
}

describe('verifyPop', () => {
  it("accepts the node's own proof and refuses another key's", () => {
    expect(refusal(key, proof)).toBeUndefined()
    expect(refusal(key, hexToBytes(other!.proofOfPossession))).toBe('invalid proof of possession')
  })

  it('refuses keys and proofs as signer.ProofOfPossession.Verify does: decompression, then KeyValidate / SigValidate', () => {
    const infinityKey = Uint8Array.from({ length: 48 }, (_, i) => (i === 0 ? 0xc0 : 0))
    expect(refusal(new Uint8Array(48).fill(0xff), proof)).toBe("couldn't decompress public key")
    expect(refusal(infinityKey, proof)).toBe('invalid public key')
    expect(refusal(offSubgroupG1(), proof)).toBe('invalid public key')
    expect(refusal(key, new Uint8Array(96).fill(0x11))).toBe("couldn't decompress signature")
    expect(refusal(key, offSubgroupG2())).toBe('invalid signature')
  })
})
