import { defineNodeMethod } from '../types.js'
import { noParams } from '../params.js'
import type { InfoContext } from './context.js'
import { sortedRecord } from './getNodeVersion.js'

/** `secp256k1fx.ID`, `nftfx.ID`, `propertyfx.ID` and their names, as every node lists them. */
const FXS: [string, string][] = [
  ['spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ', 'secp256k1fx'],
  ['qd2U4HDWUvMrVUeTcCHp6xH3Qpnn1XbU5MDdnBoiifFqvgXwT', 'nftfx'],
  ['rXJsCSEYXg2TehWxCEEGj6JU2PWKTkd6cBdNLjoe2SpsKD9cy', 'propertyfx'],
]

export type GetVMsResult = { vms: Record<string, string[]>; fxs: Record<string, string> }

/** `info.getVMs`: each registered VM's aliases without its own id (`ids.GetRelevantAliases`), and the fxs. */
export const getVMs = defineNodeMethod(noParams, (_params, ctx: InfoContext): GetVMsResult => ({
  vms: sortedRecord(ctx.node.vms().map((vm): [string, string[]] => [vm.id, vm.aliases.filter((a) => a !== vm.id)])),
  fxs: sortedRecord(FXS),
}))
