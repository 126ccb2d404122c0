import { describe, expect, it } from 'vitest'
import { AggregationError, createNetwork } from '../../src/index.js'
import { PRIMARY_NETWORK_ID } from '../../src/core/ids.js'
import { encodeAddressedCall, encodeUnsignedMessage, parseMessage } from '../../src/evm/warp/codec.js'
import { canonicalValidatorSet, verifyWarpMessage } from '../../src/evm/warp/signature.js'

const NOT_ENOUGH_SIGNATURES = 'failed to aggregate signatures. error: failed to collect a threshold of signatures'

describe('network.signatureAggregator message sources', () => {
  it('validators sign what an added source vouches for (with its justification), and refuse what one refuses', async () => {
    const network = await createNetwork({})
    try {
      // A P-chain-sourced message (blockchain id 32 zero bytes, empty source address), as the P-chain's own messages will be.
      const unsigned = encodeUnsignedMessage({ networkId: network.preset.networkId, sourceChainId: new Uint8Array(32), payload: encodeAddressedCall(new Uint8Array(), Uint8Array.of(9)) })
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
        if (message.sourceChainId.some((b) => b !== 0)) return undefined
        seen.push(Buffer.from(justification).toString('hex'))
        return justification[0] === 1
      })
      const signed = attempt('0x01')
      expect(signed).toBeInstanceOf(Uint8Array)
      expect(parseMessage(signed as Uint8Array).unsignedBytes).toEqual(unsigned)
      // the source chain is the P-chain: the primary network's validators sign
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
