/**
 * P-Chain blocks as `platform.getBlock` and `platform.getBlockByHeight` return them: their bytes
 * (encoded as asked) or `json.Marshal` of the block after `InitCtx`: the Go structs' json tags in
 * field order, embedded structs flattened (`time`, then a proposal block's decision `txs`, then
 * `parentID`, `height`, `id`, then a standard block's `txs` or a proposal block's `tx`), each tx
 * as `platform.getTx` writes it. The genesis block, an Apricot commit block, has no `time`.
 */
import { idFromString } from '../../../core/ids.js'
import { encodeSignedTx } from '../../../platform/codec.js'
import { encodeBanffBlock, encodeGenesisBlock } from '../../../platform/pchain/blocks.js'
import type { PChain } from '../../../platform/pchain/chain.js'
import type { PBlock } from '../../../platform/pchain/state.js'
import type { PChainSignedTx } from '../../../platform/txs.js'
import { NodeRpcError } from '../types.js'
import { encodeBytes, type Encoding } from './common.js'
import { platformTxJson } from './txJson.js'

/** `api.GetBlockResponse`: `block` is the encoded string, or the block as JSON for `encoding: "json"`. */
export type GetBlockResult = { block: unknown; encoding: Encoding }

/** An accepted block by id (`GetStatelessBlock`), searched from the tip. */
export function findBlock(pchain: PChain, id: string): PBlock | undefined {
  const blocks = pchain.state.d.blocks
  for (let i = blocks.length - 1; i >= 0; i--) if (blocks[i]!.id === id) return blocks[i]
  return undefined
}

function signedTx(pchain: PChain, txId: string): PChainSignedTx {
  const stored = pchain.state.getTx(txId)
  if (!stored) throw new NodeRpcError(`couldn't get tx ${txId}: not found`)
  return stored.tx as PChainSignedTx
}

/**
 * The block's bytes: those it was accepted with, or (a block restored from a file saved by an older
 * l1sim, which kept none) its encoding from its fields and txs.
 */
function blockBytes(pchain: PChain, block: PBlock): Uint8Array {
  if (block.bytes) return block.bytes
  if (block.height === 0) return encodeGenesisBlock(idFromString(block.parentId))
  return encodeBanffBlock({ ...block, txs: block.txs.map((id) => encodeSignedTx('P', signedTx(pchain, id))) })
}

/** The reply of `getBlock` / `getBlockByHeight` for an accepted block. */
export function blockReply(pchain: PChain, block: PBlock, encoding: Encoding): GetBlockResult {
  if (encoding !== 'json') return { block: encodeBytes(encoding, blockBytes(pchain, block)), encoding }
  const networkId = pchain.config.networkId
  const tx = (id: string) => platformTxJson(networkId, signedTx(pchain, id), id)
  const common = { parentID: block.parentId, height: block.height, id: block.id }
  if (block.height === 0) return { block: common, encoding }
  const time = block.timestamp
  switch (block.kind) {
    case 'standard':
      return { block: { time, ...common, txs: block.txs.map(tx) }, encoding }
    case 'proposal':
      return { block: { time, txs: [], ...common, tx: tx(block.txs[0]!) }, encoding }
    default:
      return { block: { time, ...common }, encoding }
  }
}
