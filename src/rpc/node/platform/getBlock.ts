import { cb58Id, objectParams } from '../params.js'
import { NodeRpcError, defineNodeMethod } from '../types.js'
import { blockReply, findBlock, type GetBlockResult } from './blockJson.js'
import { encodingField } from './common.js'
import type { PlatformContext } from './context.js'

/**
 * `platform.getBlock({blockID, encoding})`: an accepted block's bytes under `encoding` (default
 * hex, with checksum), or the block as JSON (see {@link blockReply}). Unknown:
 * `couldn't get block with id <id>: not found`.
 */
export const getBlock = defineNodeMethod(objectParams({ blockID: cb58Id, encoding: encodingField }), ({ blockID, encoding }, ctx: PlatformContext): GetBlockResult => {
  const block = findBlock(ctx.pchain, blockID)
  if (!block) throw new NodeRpcError(`couldn't get block with id ${blockID}: not found`)
  return blockReply(ctx.pchain, block, encoding)
})
