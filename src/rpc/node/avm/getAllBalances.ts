import { idToString } from '../../../core/ids.js'
import { AvmApiError, parseServiceAddress } from '../../../platform/xchain/api.js'
import { bool, objectParams, str } from '../params.js'
import { defineNodeMethod } from '../types.js'
import { aliasesOf, type AvmContext } from './context.js'

export type GetAllBalancesResult = { balances: Array<{ asset: string; balance: string }> }

const U64_MAX = (1n << 64n) - 1n

/**
 * `avm.getAllBalances({address, includePartial})` (deprecated, still served): per asset the
 * address holds, its balance (json.Uint64, capped at MaxUint64 as `safemath.Add` overflows), under
 * the asset's primary alias (`AVAX`) or its id; without `includePartial` only outputs it alone
 * owns and can spend now. Assets come in the order their first UTXO is met (Go's map order is
 * random). A bad address fails `problem parsing address '<a>': <reason>`.
 */
export const getAllBalances = defineNodeMethod(objectParams({ address: str, includePartial: bool }), (args, ctx: AvmContext): GetAllBalancesResult => {
  const x = ctx.xchain
  let address: Uint8Array
  try {
    address = parseServiceAddress(x, aliasesOf(ctx), args.address)
  } catch (error) {
    throw new AvmApiError(`problem parsing address '${args.address}': ${(error as Error).message}`)
  }
  const now = BigInt(x.now())
  const balances = new Map<string, bigint>()
  for (const { utxo } of x.utxosOf(address)) {
    if (utxo.output.type !== 'TransferOutput') continue
    const owners = utxo.output.owners
    if (!args.includePartial && (owners.addrs.length !== 1 || owners.locktime > now)) continue
    const assetId = idToString(utxo.assetId)
    const sum = (balances.get(assetId) ?? 0n) + utxo.output.amount
    balances.set(assetId, sum > U64_MAX ? U64_MAX : sum)
  }
  return {
    balances: [...balances].map(([assetId, balance]) => ({ asset: assetId === x.avaxAssetId ? 'AVAX' : assetId, balance: String(balance) })),
  }
})
