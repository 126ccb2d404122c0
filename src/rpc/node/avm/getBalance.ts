import { getBalance as build, type GetBalanceResult } from '../../../platform/xchain/api.js'
import { bool, objectParams, str } from '../params.js'
import { defineNodeMethod } from '../types.js'
import { aliasesOf, type AvmContext } from './context.js'

export type { GetBalanceResult }

/**
 * `avm.getBalance({address, assetID, includePartial})` (deprecated, still served): the balance of
 * one asset (alias or id) held by the address; without `includePartial` only outputs it alone
 * owns and can spend now. `balance` is a json.Uint64; `utxoIDs` the UTXOs counted.
 */
export const getBalance = defineNodeMethod(
  objectParams({ address: str, assetID: str, includePartial: bool }),
  (args, ctx: AvmContext): GetBalanceResult => build(ctx.xchain, args, aliasesOf(ctx)),
)
