import type { Network } from '../../src/network/network.js'
import { testGenesis } from '../l1/helpers.js'

const SUBNET_EVM_VM_ID = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy'
const DURANGO_LOCAL = 1607144400

/**
 * An L1 made on the P-chain as users make one (account 1's wallet): CreateSubnetTx, CreateChainTx of
 * a subnet-EVM chain (`chainId`, warp from genesis when asked), the chain started, then
 * ConvertSubnetToL1Tx naming manager `0x…0abc` with `nodes` (0, 1, 2 by default) at weight 100 each.
 */
export async function convertedL1(network: Network, options: { name: string; chainId: number; warp?: boolean; nodes?: readonly number[] }) {
  const { p } = network.wallets(1)!
  const { subnetId } = p.createSubnet()
  const genesis = testGenesis({ chainId: options.chainId, ...(options.warp ? { warpConfig: { blockTimestamp: DURANGO_LOCAL } } : {}) })
  const { blockchainId } = p.createChain({ subnetId, name: options.name, vmId: SUBNET_EVM_VM_ID, genesis: JSON.stringify(genesis) })
  await network.startChainFromP(blockchainId)
  const validators = (options.nodes ?? [0, 1, 2]).map((i) => ({ node: network.nodes[i]!.identity, weight: 100n, balance: 10n ** 9n }))
  const convertTx = p.convertSubnetToL1({ subnetId, chainId: blockchainId, address: '0x0000000000000000000000000000000000000abc', validators }).txId
  return { subnetId, blockchainId, convertTx }
}
