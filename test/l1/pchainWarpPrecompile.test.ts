/**
 * A P-chain warp message signed by signPChainWarpMessage is what an L1's warp precompile accepts:
 * subnet-EVM checks P-chain-sourced messages against the L1's own validators, so the conversion
 * message the P-chain's validators of the L1 sign verifies in getVerifiedWarpMessage (source chain
 * 32 zero bytes, empty origin sender), and the same message signed by the primary network's
 * validators does not. Read through viem.
 */
import { describe, expect, it } from 'vitest'
import { bytesToHex, createPublicClient, custom, decodeFunctionResult, defineChain, encodeFunctionData, parseAbi } from 'viem'
import { idFromString, PRIMARY_NETWORK_ID } from '../../src/core/ids.js'
import { packPredicateHex } from '../../src/evm/warp/predicate.js'
import { createNetwork } from '../../src/network/network.js'
import { pchainWarpMessage, signPChainWarpMessage } from '../../src/network/pchainWarp.js'
import { encodeSubnetToL1Conversion } from '../../src/platform/pchain/warpMessages.js'
import { createEIP1193Provider } from '../../src/rpc/provider.js'
import { carol, testGenesis } from './helpers.js'

const WARP = '0x0200000000000000000000000000000000000005' as const
const abi = parseAbi([
  'struct WarpMessage { bytes32 sourceChainID; address originSenderAddress; bytes payload; }',
  'function getVerifiedWarpMessage(uint32 index) view returns (WarpMessage message, bool valid)',
])

describe('P-chain warp messages on an L1', () => {
  it('the signed SubnetToL1Conversion verifies in the L1\'s precompile; signed by the primary network it does not', async () => {
    const network = await createNetwork({ nodes: 4 })
    const { p } = network.wallets(1)!
    const { subnetId } = p.createSubnet()
    const { blockchainId } = p.createChain({ subnetId, name: 'conv', vmId: 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy', genesis: JSON.stringify(testGenesis({ chainId: 55555, warpConfig: { blockTimestamp: 1607144400 } })) })
    const l1 = (await network.startChainFromP(blockchainId))!
    p.convertSubnetToL1({ subnetId, chainId: blockchainId, address: '0x0000000000000000000000000000000000000abc', validators: [0, 1].map((i) => ({ node: network.nodes[i]!.identity, weight: 100n, balance: 10n ** 9n })) })
    const conversionId = network.primary.pchain.state.getSubnet(subnetId)!.conversion!.conversionId
    const payload = encodeSubnetToL1Conversion(idFromString(conversionId))
    const unsigned = pchainWarpMessage(network, payload)

    const chain = defineChain({ id: 55555, name: 'conv', nativeCurrency: { name: 'T', symbol: 'T', decimals: 18 }, rpcUrls: { default: { http: ['http://unused'] } } })
    const client = createPublicClient({ chain, transport: custom(createEIP1193Provider({ network, chain: l1.chain })) })
    const verified = async (signed: Uint8Array) => {
      const { data } = await client.call({ account: carol.address, to: WARP, data: encodeFunctionData({ abi, functionName: 'getVerifiedWarpMessage', args: [0] }), accessList: [{ address: WARP, storageKeys: packPredicateHex(signed) }] })
      return decodeFunctionResult({ abi, functionName: 'getVerifiedWarpMessage', data: data! })
    }
    const [message, valid] = await verified(signPChainWarpMessage(network, unsigned, idFromString(subnetId)))
    expect(valid).toBe(true)
    expect(message).toEqual({ sourceChainID: `0x${'00'.repeat(32)}`, originSenderAddress: '0x0000000000000000000000000000000000000000', payload: bytesToHex(payload) })
    expect((await verified(signPChainWarpMessage(network, unsigned, idFromString(subnetId), PRIMARY_NETWORK_ID)))[1]).toBe(false)
  })
})
