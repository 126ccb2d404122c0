import { encodingField } from '../platform/common.js'
import { cb58Id, objectParams } from '../params.js'
import { NodeRpcError, defineNodeMethod } from '../types.js'
import { blockResult, type GetBlockResult } from './block.js'
import type { AvmContext } from './context.js'

export type { GetBlockResult }

/**
 * `avm.getBlock({blockID, encoding})`: an accepted X-chain block (see {@link blockResult}); an
 * unknown id fails `couldn't get block with id <id>: not found`.
 */
export const getBlock = defineNodeMethod(objectParams({ blockID: cb58Id, encoding: encodingField }), (args, ctx: AvmContext): GetBlockResult => {
  const block = ctx.xchain.getBlock(args.blockID)
  if (!block) throw new NodeRpcError(`couldn't get block with id ${args.blockID}: not found`)
  return blockResult(ctx, block, args.encoding)
})
