/**
 * The signature aggregator collects the L1 validators' signatures on the P-chain's own ACP-77
 * messages, as icm-services' aggregator does for a ValidatorManager's `initializeValidatorSet`:
 * the SubnetToL1Conversion message justified by the subnet id is signed by the L1's validators
 * (`signing-subnet-id`), and one whose justification does not hold is refused, over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { idFromString } from '../../src/core/ids.js'
import { canonicalValidatorSet, verifyWarpMessage } from '../../src/evm/warp/signature.js'
import { parseMessage } from '../../src/evm/warp/codec.js'
import { startDevnet, type Devnet } from '../../src/index.js'
import { pchainWarpMessage } from '../../src/network/pchainWarp.js'
import { encodeSubnetToL1Conversion } from '../../src/platform/pchain/warpMessages.js'
import { testGenesis } from '../l1/helpers.js'

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`

describe('the signature aggregator on P-chain messages', () => {
  let devnet: Devnet
  let subnetId: string
  let unsigned: Uint8Array
  beforeAll(async () => {
    devnet = await startDevnet({ port: 0, nodes: 4 })
    const network = devnet.network
    const { p } = network.wallets(1)!
    ;({ subnetId } = p.createSubnet())
    const { blockchainId } = p.createChain({ subnetId, name: 'conv', vmId: 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy', genesis: JSON.stringify(testGenesis({ chainId: 55556 })) })
    await network.startChainFromP(blockchainId)
    p.convertSubnetToL1({ subnetId, chainId: blockchainId, address: '0x0000000000000000000000000000000000000abc', validators: [0, 1, 2].map((i) => ({ node: network.nodes[i]!.identity, weight: 100n, balance: 10n ** 9n })) })
    const conversionId = network.primary.pchain.state.getSubnet(subnetId)!.conversion!.conversionId
    unsigned = pchainWarpMessage(network, encodeSubnetToL1Conversion(idFromString(conversionId)))
  })
  afterAll(() => devnet.close())

  const aggregate = async (body: unknown) => {
    const res = await fetch(`${devnet.url}/aggregate-signatures`, { method: 'POST', body: JSON.stringify(body) })
    return { status: res.status, body: (await res.json()) as Record<string, string> }
  }

  it('signs the SubnetToL1Conversion message justified by the subnet id with the L1 validators', async () => {
    const { status, body } = await aggregate({ message: hex(unsigned), justification: hex(idFromString(subnetId)), 'signing-subnet-id': subnetId })
    expect(status).toBe(200)
    const signed = Buffer.from(body['signed-message']!, 'hex')
    expect(Buffer.from(parseMessage(signed).unsignedBytes)).toEqual(Buffer.from(unsigned))
    const validators = canonicalValidatorSet(devnet.network.validators.get(subnetId))
    expect(verifyWarpMessage({ message: signed, networkId: devnet.network.preset.networkId, validators, quorumNumerator: 67 })).toBeUndefined()
  })

  it('refuses it when the justification names another subnet: the validators do not sign', async () => {
    const other = new Uint8Array(32).fill(7)
    expect(await aggregate({ message: hex(unsigned), justification: hex(other), 'signing-subnet-id': subnetId })).toEqual({
      status: 500,
      body: { error: 'failed to aggregate signatures. error: failed to collect a threshold of signatures' },
    })
  })
})
