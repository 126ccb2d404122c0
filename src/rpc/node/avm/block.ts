import { EMPTY_ID } from '../../../core/ids.js'
import { formatBytes, txJson, type Encoding } from '../../../platform/xchain/api.js'
import type { XBlock } from '../../../platform/xchain/state.js'
import { NodeRpcError } from '../types.js'
import type { AvmContext } from './context.js'

export type GetBlockResult = { block: unknown; encoding: Encoding }

/**
 * `api.GetBlockResponse` of an avm block: its bytes under `encoding` (the checksummed hex
 * avalanchejs unpacks by default), or with `json` the `StandardBlock` as Go marshals it (struct
 * order, uint64s as numbers, each tx after `txInit` as `avm.getTx` shows it, the block id last).
 */
export function blockResult(ctx: AvmContext, block: XBlock, encoding: Encoding): GetBlockResult {
  if (encoding !== 'json') {
    try {
      return { block: formatBytes(encoding, block.bytes), encoding }
    } catch (error) {
      throw new NodeRpcError(`couldn't encode block ${block.id} as string: ${(error as Error).message}`)
    }
  }
  const txs = block.txIds.map((txId) => txJson(ctx.xchain, ctx.xchain.getTx(txId)!.tx, txId))
  return {
    block: { parentID: block.parentId, height: BigInt(block.height), time: BigInt(block.timestamp), merkleRoot: EMPTY_ID, txs, id: block.id },
    encoding,
  }
}
