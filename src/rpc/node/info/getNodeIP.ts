import { defineNodeMethod } from '../types.js'
import { noParams } from '../params.js'
import type { InfoContext } from './context.js'

/** A node's staking address, `netip.AddrPort` text: every simulated node is on 127.0.0.1. */
export const stakingAddress = (port: number): string => `127.0.0.1:${port}`

/** `info.getNodeIP`: the node's staking (P2P) address. */
export const getNodeIP = defineNodeMethod(noParams, (_params, ctx: InfoContext): { ip: string } => ({
  ip: stakingAddress(ctx.node.stakingPort),
}))
