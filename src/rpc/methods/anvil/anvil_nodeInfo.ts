import { defineEthMethod } from '../define.js'
import { toQuantity } from '../../../core/hex.js'
import { tuple } from '../../params.js'

/**
 * Serves `anvil_nodeInfo`: anvil's summary of the node, with the network's own fields.
 */
export const anvil_nodeInfo = defineEthMethod(
  tuple(),
  (_params, ctx) => {
    const head = ctx.chain.head
    return {
      currentBlockNumber: toQuantity(head.number),
      currentBlockTimestamp: Number(head.block.header.timestamp),
      currentBlockHash: head.hash,
      hardFork: ctx.chain.common.hardfork(),
      transactionOrder: 'fees',
      environment: {
        baseFee: toQuantity(ctx.chain.nextBaseFee()),
        chainId: Number(ctx.chain.chainId),
        gasLimit: toQuantity(ctx.chain.nextGasLimit()),
        gasPrice: toQuantity(ctx.chain.nextBaseFee()),
      },
      forkConfig: {},
      network: {
        preset: ctx.network.presetName,
        networkId: ctx.network.preset.networkId,
        blockchainId: ctx.network.preset.cChainId,
        nodes: ctx.network.nodes.length,
        mining: ctx.chain.mining,
      },
    }
  },
)
