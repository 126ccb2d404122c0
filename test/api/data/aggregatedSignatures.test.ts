/**
 * `GET /v1/signatureAggregator/{network}/aggregateSignatures/{txHash}` through @avalabs/glacier-sdk
 * (`signatureAggregator.getAggregatedSignatures`): the P-chain's ACP-77 message a ConvertSubnetToL1Tx,
 * RegisterL1ValidatorTx or SetL1ValidatorWeightTx gave rise to, signed by the L1's validators through
 * the aggregator every other request goes through; an EVM tx's sendWarpMessage; and the refusals.
 * Responses are validated against the Glacier schema.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Glacier, type Network as GlacierNetwork } from '@avalabs/glacier-sdk'
import type { Hex } from 'viem'
import { idFromString, idToString } from '../../../src/core/ids.js'
import { parseMessage } from '../../../src/evm/warp/codec.js'
import { canonicalValidatorSet, verifyWarpMessage } from '../../../src/evm/warp/signature.js'
import { startDevnet, type Devnet } from '../../../src/index.js'
import { pchainWarpMessage } from '../../../src/network/pchainWarp.js'
import { conversionValidationId, encodeL1ValidatorRegistration, encodeL1ValidatorWeight, encodeSubnetToL1Conversion } from '../../../src/platform/pchain/warpMessages.js'
import { convertedL1 } from '../../helpers/convertedL1.js'
import { warpDevnet } from '../../helpers/warpDevnet.js'

const local = 'local' as GlacierNetwork
const refusal = async (call: Promise<unknown>) => {
  const error = (await call.then(() => undefined, (e: unknown) => e)) as { status: number; body: unknown } | undefined
  return error && { status: error.status, body: error.body }
}

describe('getAggregatedSignatures on P-chain transactions', () => {
  let devnet: Devnet
  let glacier: Glacier
  let subnetId: string
  let convertTx: string
  let registerTx: string
  let validationId: string
  beforeAll(async () => {
    devnet = await startDevnet({ port: 0, nodes: 5, dataApi: { validateResponses: true } })
    glacier = new Glacier({ BASE: devnet.url })
    const network = devnet.network
    ;({ subnetId, convertTx } = await convertedL1(network, { name: 'conv', chainId: 55557 }))
    const { p } = network.wallets(1)!
    const registered = p.registerL1Validator({ subnetId, node: network.nodes[3]!.identity, weight: 50n, balance: 10n ** 9n })
    ;({ txId: registerTx, validationId } = registered)
  })
  afterAll(() => devnet.close())

  const get = (txHash: string, network = local) => glacier.signatureAggregator.getAggregatedSignatures({ network, txHash })
  /** The signed message's unsigned bytes, after checking the L1's current validators signed it (67 %). */
  const signedBy = (signedMessage: string, subnet = subnetId) => {
    const signed = Buffer.from(signedMessage, 'hex')
    const validators = canonicalValidatorSet(devnet.network.validators.get(subnet))
    expect(verifyWarpMessage({ message: signed, networkId: devnet.network.preset.networkId, validators })).toBeUndefined()
    return Buffer.from(parseMessage(signed).unsignedBytes)
  }

  it('ConvertSubnetToL1Tx: the SubnetToL1Conversion message, signed by the L1\'s validators', async () => {
    const { signedMessage } = await get(convertTx)
    const conversionId = devnet.network.primary.pchain.state.getSubnet(subnetId)!.conversion!.conversionId
    expect(signedBy(signedMessage)).toEqual(Buffer.from(pchainWarpMessage(devnet.network, encodeSubnetToL1Conversion(idFromString(conversionId)))))
    // the library call goes through the same aggregator
    expect(signedBy(Buffer.from(devnet.network.aggregateSignaturesOfTx(convertTx)).toString('hex'))).toEqual(signedBy(signedMessage))
    expect(() => devnet.network.aggregateSignaturesOfTx('nonsense')).toThrow(expect.objectContaining({ name: 'TxWarpMessageError', status: 404, shortMessage: 'Transaction nonsense not found' }))
  })

  it('RegisterL1ValidatorTx: the registration (true while it validates, false once removed); SetL1ValidatorWeightTx: the weight acknowledgement of the current nonce only, a removal\'s registration false', async () => {
    const registration = (registered: boolean) => Buffer.from(pchainWarpMessage(devnet.network, encodeL1ValidatorRegistration(idFromString(validationId), registered)))
    expect(signedBy((await get(registerTx)).signedMessage)).toEqual(registration(true))

    const { p } = devnet.network.wallets(1)!
    const weightTx = p.setL1ValidatorWeight({ validationId, weight: 70n }).txId
    expect(signedBy((await get(weightTx)).signedMessage)).toEqual(Buffer.from(pchainWarpMessage(devnet.network, encodeL1ValidatorWeight({ validationId: idFromString(validationId), nonce: 0n, weight: 70n }))))
    // a later change makes the first acknowledgement stale: the P-chain no longer signs it
    p.setL1ValidatorWeight({ validationId, weight: 80n })
    expect(await refusal(get(weightTx))).toEqual({
      status: 500,
      body: { message: 'failed to aggregate signatures. error: failed to collect a threshold of signatures', statusCode: 500, error: 'Internal Server Error' },
    })

    // a removal (weight 0) is acknowledged by the registration saying it is gone, justified by the RegisterL1Validator message
    const removalTx = p.setL1ValidatorWeight({ validationId, weight: 0n }).txId
    expect(signedBy((await get(registerTx)).signedMessage)).toEqual(registration(false))
    expect(signedBy((await get(removalTx)).signedMessage)).toEqual(registration(false))
    // … or, for a validator of the conversion, by its SubnetIDIndex
    const converted = idToString(conversionValidationId(idFromString(subnetId), 1))
    const removeConverted = p.setL1ValidatorWeight({ validationId: converted, weight: 0n }).txId
    expect(signedBy((await get(removeConverted)).signedMessage)).toEqual(Buffer.from(pchainWarpMessage(devnet.network, encodeL1ValidatorRegistration(idFromString(converted), false))))
  })

  it('refuses a tx it does not have (404), one that made no warp message (400), and a bad network name', async () => {
    const unknown = '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm'
    expect(await refusal(get(unknown))).toEqual({ status: 404, body: { message: `Transaction ${unknown} not found`, statusCode: 404, error: 'Not Found' } })
    expect(await refusal(get('nonsense'))).toEqual({ status: 404, body: { message: 'Transaction nonsense not found', statusCode: 404, error: 'Not Found' } })
    // the subnet's id is its CreateSubnetTx's
    expect(await refusal(get(subnetId))).toEqual({
      status: 400,
      body: { message: [`Transaction ${subnetId} (CreateSubnetTx) makes no P-Chain warp message: only ConvertSubnetToL1Tx, RegisterL1ValidatorTx and SetL1ValidatorWeightTx do`], statusCode: 400, error: 'Bad Request' },
    })
    // an X-chain tx (the hosted operation takes them) makes no P-chain message
    const { x } = devnet.network.wallets(1)!
    const assetTx = devnet.network.primary.xchain.issueTx(x.createAsset({ name: 'Token', symbol: 'TOK', denomination: 0, holders: [] })).txId
    expect(await refusal(get(assetTx))).toEqual({
      status: 400,
      body: { message: [`Transaction ${assetTx} (X-Chain CreateAssetTx) makes no P-Chain warp message: only ConvertSubnetToL1Tx, RegisterL1ValidatorTx and SetL1ValidatorWeightTx do`], statusCode: 400, error: 'Bad Request' },
    })
    // another network's API has none of this network's transactions
    expect(await refusal(get(convertTx, 'mainnet' as GlacierNetwork))).toMatchObject({ status: 404 })
    expect(await refusal(get(convertTx, 'nope' as GlacierNetwork))).toEqual({
      status: 400,
      body: { message: ['network must be one of the following values: mainnet, fuji, testnet, local, 12345'], statusCode: 400, error: 'Bad Request' },
    })
  })
})

describe('getAggregatedSignatures on an EVM transaction', () => {
  let devnet: Devnet
  let unsigned: Hex
  let txHash: Hex
  beforeAll(async () => {
    ;({ devnet, sent: { unsigned, txHash } } = await warpDevnet('0xbeef', { dataApi: { validateResponses: true } }))
  })
  afterAll(() => devnet.close())

  it('signs the warp message the transaction sent, with its L1\'s validators', async () => {
    const glacier = new Glacier({ BASE: devnet.url })
    const { signedMessage } = await glacier.signatureAggregator.getAggregatedSignatures({ network: local, txHash })
    const signed = Buffer.from(signedMessage, 'hex')
    expect(`0x${Buffer.from(parseMessage(signed).unsignedBytes).toString('hex')}`).toBe(unsigned)
    const validators = canonicalValidatorSet(devnet.network.validators.get(devnet.network.l1('a')!.subnetId))
    expect(verifyWarpMessage({ message: signed, networkId: devnet.network.preset.networkId, validators })).toBeUndefined()
  })
})
