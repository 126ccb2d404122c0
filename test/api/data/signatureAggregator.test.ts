/**
 * `POST /v1/signatureAggregator/{network}/aggregateSignatures` through @avalabs/glacier-sdk: a
 * message an L1 sent (viem) is signed by the L1's validators; refusals come back as the SDK's
 * ApiError with the data API's error body. Responses are validated against the Glacier schema.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Glacier, type Network as GlacierNetwork } from '@avalabs/glacier-sdk'
import type { Hex } from 'viem'
import type { Devnet } from '../../../src/index.js'
import { parseMessage } from '../../../src/evm/warp/codec.js'
import { canonicalValidatorSet, verifyWarpMessage } from '../../../src/evm/warp/signature.js'
import { warpDevnet } from '../../helpers/warpDevnet.js'

const local = 'local' as GlacierNetwork

describe('the data API\'s signature aggregator through @avalabs/glacier-sdk', () => {
  let devnet: Devnet
  let glacier: Glacier
  let message: Hex
  beforeAll(async () => {
    ;({ devnet, sent: { unsigned: message } } = await warpDevnet('0xc0ffee', { dataApi: { validateResponses: true } }))
    glacier = new Glacier({ BASE: devnet.url })
  })
  afterAll(() => devnet.close())

  const refusal = async (call: Promise<unknown>) => {
    const error = (await call.then(() => undefined, (e: unknown) => e)) as { status: number; body: unknown } | undefined
    return error && { status: error.status, body: error.body }
  }

  it('signs a message the L1 sent (201 {signedMessage}), verifiable against the L1\'s validators', async () => {
    for (const network of [local, String(devnet.network.preset.networkId) as GlacierNetwork]) {
      const { signedMessage } = await glacier.signatureAggregator.aggregateSignatures({ network, requestBody: { message, quorumPercentage: 80 } })
      const signed = Buffer.from(signedMessage, 'hex')
      expect(`0x${Buffer.from(parseMessage(signed).unsignedBytes).toString('hex')}`).toBe(message)
      const validators = canonicalValidatorSet(devnet.network.validators.get(devnet.network.l1('a')!.subnetId))
      expect(verifyWarpMessage({ message: signed, networkId: devnet.network.preset.networkId, validators, quorumNumerator: 100 })).toBeUndefined()
    }
  })

  it('refuses with the aggregator\'s words in the data API\'s error body', async () => {
    const aggregate = (requestBody: object, network = local) => refusal(glacier.signatureAggregator.aggregateSignatures({ network, requestBody: requestBody as { message: string } }))
    expect(await aggregate({ message: '0x00' })).toEqual({ status: 400, body: { message: ['Error unpacking warp message'], statusCode: 400, error: 'Bad Request' } })
    expect(await aggregate({ message, quorumPercentage: 101 })).toEqual({ status: 400, body: { message: ['Invalid quorum number'], statusCode: 400, error: 'Bad Request' } })
    expect(await aggregate({ message: 7, quorumPercentage: '5' })).toEqual({
      status: 400,
      body: { message: ['message must be a string', 'quorumPercentage must be a number conforming to the specified constraints'], statusCode: 400, error: 'Bad Request' },
    })
    expect((await aggregate({ message }, 'nope' as GlacierNetwork))?.status).toBe(400)
    const forged = `${message.slice(0, -2)}00`
    expect(await aggregate({ message: forged })).toEqual({
      status: 500,
      body: { message: 'failed to aggregate signatures. error: failed to collect a threshold of signatures', statusCode: 500, error: 'Internal Server Error' },
    })
    // mainnet's aggregator does not know this network's chains
    expect(await aggregate({ message }, 'mainnet' as GlacierNetwork)).toEqual({
      status: 500,
      body: { message: `failed to aggregate signatures. error: source blockchain not found for chain ID ${devnet.network.l1('a')!.blockchainId}`, statusCode: 500, error: 'Internal Server Error' },
    })
  })
})
