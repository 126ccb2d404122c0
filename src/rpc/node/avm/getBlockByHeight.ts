import { encodingField } from '../platform/common.js'
import { objectParams, uint64 } from '../params.js'
import { NodeRpcError, defineNodeMethod } from '../types.js'
import { blockResult, type GetBlockResult } from './block.js'
import type { AvmContext } from './context.js'

/**
 * `avm.getBlockByHeight({height, encoding})`: the accepted X-chain block at `height` (json.Uint64;
 * 0 is the genesis block on the Cortina stop vertex); above the last accepted one it fails
 * `couldn't get block at height <h>: not found`.
 */
export const getBlockByHeight = defineNodeMethod(objectParams({ height: uint64, encoding: encodingField }), (args, ctx: AvmContext): GetBlockResult => {
  const block = args.height <= BigInt(ctx.xchain.height) ? ctx.xchain.getBlockByHeight(Number(args.height)) : undefined
  if (!block) throw new NodeRpcError(`couldn't get block at height ${args.height}: not found`)
  return blockResult(ctx, block, args.encoding)
})
