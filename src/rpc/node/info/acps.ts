import { defineNodeMethod } from '../types.js'
import { noParams } from '../params.js'
import type { InfoContext } from './context.js'

export type AcpVotes = {
  supportWeight: string
  supporters: string[]
  objectWeight: string
  objectors: string[]
  abstainWeight: string
}

/**
 * `info.acps`: votes on the ACPs under consideration. avalanchego 1.14.2's `CurrentACPs` is empty
 * and peers' votes are filtered through it, so a node always answers `{"acps":{}}`; simulated
 * nodes vote on nothing either.
 */
export const acps = defineNodeMethod(noParams, (_params, _ctx: InfoContext): { acps: Record<string, AcpVotes> } => ({
  acps: {},
}))
