import { describe, expect, it } from 'vitest'
import { AggregationError, createNetwork } from '../../src/index.js'
import { idFromString, idToString, PRIMARY_NETWORK_ID } from '../../src/core/ids.js'
import { encodeAddressedCall, encodeUnsignedMessage, parseMessage } from '../../src/evm/warp/codec.js'
import { canonicalValidatorSet, verifyWarpMessage } from '../../src/evm/warp/signature.js'

const NOT_ENOUGH_SIGNATURES = 'failed to aggregate signatures. error: failed to collect a threshold of signatures'

describe('network.signatureAggregator message sources', () => {
  it('validators sign what an added source vouches for (with its justification), and refuse what one refuses', async () => {
    const network = await createNetwork({})
    try {
      // A message of a chain no built-in source judges (the X-chain's: the P-chain's ACP-77 messages and
      // the EVM chains' sent messages have sources of their own), as a plug-in VM's would be.
      const unsigned = encodeUnsignedMessage({ networkId: network.preset.networkId, sourceChainId: idFromString(network.preset.xChainId), payload: encodeAddressedCall(new Uint8Array(), Uint8Array.of(9)) })
      const attempt = (justification: string) => {
        try {
          return network.aggregateSignatures({ message: unsigned, justification })
        } catch (error) {
          return error
        }
      }
      expect(attempt('0x01')).toMatchObject({ name: 'AggregationError', status: 500, shortMessage: NOT_ENOUGH_SIGNATURES })
      const seen: string[] = []
      network.signatureAggregator.addSource((message, justification) => {
        if (idToString(message.sourceChainId) !== network.preset.xChainId) return undefined
        seen.push(Buffer.from(justification).toString('hex'))
        return justification[0] === 1
      })
      const signed = attempt('0x01')
      expect(signed).toBeInstanceOf(Uint8Array)
      expect(parseMessage(signed as Uint8Array).unsignedBytes).toEqual(unsigned)
      // the source chain is the X-chain: the primary network's validators sign
      expect(verifyWarpMessage({ message: signed as Uint8Array, networkId: network.preset.networkId, validators: canonicalValidatorSet(network.validators.get(PRIMARY_NETWORK_ID)) })).toBeUndefined()
      const refused = attempt('0x02')
      expect(refused).toBeInstanceOf(AggregationError)
      expect((refused as AggregationError).shortMessage).toBe(NOT_ENOUGH_SIGNATURES)
      expect(seen).toEqual(['01', '02'])
    } finally {
      await network.close()
    }
  })
})
