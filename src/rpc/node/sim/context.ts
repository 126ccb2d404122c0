import type { Network } from '../../../network/network.js'
import { PChainIssueError } from '../../../platform/pchain/mempool.js'
import type { SimNode } from '../../../network/node.js'
import { NodeArgumentError, NodeRpcError } from '../types.js'
import type { FieldDecoder } from '../params.js'

/** The network-control service's context: the whole network, the node that answers, and the (absolute) directory snapshot files go to. */
export type SimContext = { network: Network; node: SimNode; snapshotDir: string }

/** A Go float64 field: a JSON number. */
export const float64: FieldDecoder<number> = {
  zero: () => 0,
  decode: (value, current) => {
    if (value === null) return current
    if (typeof value !== 'number') throw new NodeArgumentError(`cannot decode ${typeof value} as float64`)
    return value
  },
}

/**
 * The node a request names: `node` (index) or `nodeID`; the answering node when neither is given
 * and `fallback` allows it. Unknown nodes are the service's error, not a decoding one.
 */
export function selectNode(ctx: SimContext, args: { node?: number | undefined; nodeID?: string | undefined }, fallback: boolean): number | undefined {
  if (args.nodeID !== undefined && args.nodeID !== '') {
    const node = ctx.network.node(args.nodeID)
    if (!node) throw new NodeRpcError(`unknown node ${args.nodeID}`)
    return node.index
  }
  if (args.node !== undefined) {
    if (!ctx.network.node(args.node)) throw new NodeRpcError(`node ${args.node} does not exist (the network has ${ctx.network.nodes.length} nodes)`)
    return args.node
  }
  return fallback ? ctx.node.index : undefined
}

/** A chain named by alias or id, as its health check names it (`C`, an L1's name). */
export function chainAlias(ctx: SimContext, chain: string): string {
  const found = ctx.network.chain(ctx.node.lookupChain(chain) ?? chain)
  if (!found) throw new NodeRpcError(`there is no chain with alias/ID '${chain}'`)
  return found.alias
}

/** The dev account a request spends from (`account`, default 0): its P- and X-chain wallets. */
export function walletsOf(ctx: SimContext, account: number | undefined) {
  const wallets = ctx.network.wallets(account ?? 0)
  if (!wallets) throw new NodeRpcError(`account ${account} does not exist (the network has ${ctx.network.devAccounts.length} dev accounts)`)
  return wallets
}

/** A validator's signer: a simulated node (`node` index) or a fresh identity the network derives. */
export function signerOf(ctx: SimContext, node: number | undefined) {
  if (node === undefined) return ctx.network.newValidatorIdentity()
  const found = ctx.network.node(node)
  if (!found) throw new NodeRpcError(`node ${node} does not exist (the network has ${ctx.network.nodes.length} nodes)`)
  return found.identity
}

/**
 * Runs a wallet call; the chain's refusal (a Go error text) becomes the service's -32000 error. A
 * P-chain tx goes through the chain's mempool as `platform.issueTx` sends it there, so its refusal
 * reads as that method's (`couldn't issue tx: failed verification: …`).
 */
export function issue<T>(fn: () => T): T {
  try {
    return fn()
  } catch (error) {
    if (error instanceof NodeRpcError) throw error
    if (error instanceof PChainIssueError) throw new NodeRpcError(`couldn't issue tx: ${error.shortMessage}`)
    throw new NodeRpcError((error as { shortMessage?: string }).shortMessage ?? (error as Error).message)
  }
}
