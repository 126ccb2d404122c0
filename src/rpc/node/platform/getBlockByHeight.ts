import { objectParams, uint64 } from '../params.js'
import { NodeRpcError, defineNodeMethod } from '../types.js'
import { blockReply, type GetBlockResult } from './blockJson.js'
import { encodingField } from './common.js'
import type { PlatformContext } from './context.js'

/**
 * `platform.getBlockByHeight({height, encoding})`: the accepted block at `height` (a
 * `json.Uint64`, bare or quoted), as {@link blockReply} writes it. Above the last accepted height:
 * `couldn't get block at height <h>: not found`.
 */
export const getBlockByHeight = defineNodeMethod(objectParams({ height: uint64, encoding: encodingField }), ({ height, encoding }, ctx: PlatformContext): GetBlockResult => {
  const block = height <= BigInt(ctx.pchain.height) ? ctx.pchain.state.d.blocks[Number(height)] : undefined
  if (!block) throw new NodeRpcError(`couldn't get block at height ${height}: not found`)
  return blockReply(ctx.pchain, block, encoding)
})
