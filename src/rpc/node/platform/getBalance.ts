import { idToString } from '../../../core/ids.js'
import { objectParams, strArray } from '../params.js'
import { defineNodeMethod } from '../types.js'
import { parseServiceAddresses } from './common.js'
import type { PlatformContext } from './context.js'
import { paginatedUtxos } from './state.js'

/** `avax.UTXOID` as JSON. */
export type ApiUtxoId = { txID: string; outputIndex: number }

/** `GetBalanceResponse`, in Go's field order; the maps are keyed by asset id (sorted by the id's text, as Go writes maps). */
export type GetBalanceResult = {
  balance: string
  unlocked: string
  lockedStakeable: string
  lockedNotStakeable: string
  balances: Record<string, string>
  unlockeds: Record<string, string>
  lockedStakeables: Record<string, string>
  lockedNotStakeables: Record<string, string>
  /** null when no UTXO counted (a nil slice). */
  utxoIDs: ApiUtxoId[] | null
}

const MAX_UINT64 = (1n << 64n) - 1n

/**
 * `platform.getBalance({addresses})` (deprecated, still served): the UTXOs of the addresses split
 * by lock state at the node's clock — a TransferOutput is unlocked or locked-not-stakeable by its
 * locktime; a stakeable lock is locked-not-stakeable while its inner locktime is in the future,
 * unlocked once its stake locktime passed, else locked-stakeable. Sums saturate at MaxUint64.
 */
export const getBalance = defineNodeMethod(objectParams({ addresses: strArray }), ({ addresses }, ctx: PlatformContext): GetBalanceResult => {
  const addrs = parseServiceAddresses(ctx, addresses)
  const now = BigInt(ctx.now?.() ?? ctx.pchain.timestamp)
  const { utxos } = paginatedUtxos(ctx.pchain, addrs, new Uint8Array(20), new Uint8Array(32), Number.MAX_SAFE_INTEGER)
  const unlockeds = new Map<string, bigint>()
  const lockedStakeables = new Map<string, bigint>()
  const lockedNotStakeables = new Map<string, bigint>()
  const add = (m: Map<string, bigint>, asset: string, amount: bigint) => {
    const sum = (m.get(asset) ?? 0n) + amount
    m.set(asset, sum > MAX_UINT64 ? MAX_UINT64 : sum)
  }
  let utxoIDs: ApiUtxoId[] | null = null
  for (const { utxo } of utxos) {
    const asset = idToString(utxo.assetId)
    const out = utxo.output
    if (out.type === 'TransferOutput') {
      add(out.owners.locktime <= now ? unlockeds : lockedNotStakeables, asset, out.amount)
    } else if (out.type === 'StakeableLockOut') {
      if (out.output.owners.locktime > now) add(lockedNotStakeables, asset, out.output.amount)
      else if (out.locktime <= now) add(unlockeds, asset, out.output.amount)
      else add(lockedStakeables, asset, out.output.amount)
    } else continue
    ;(utxoIDs ??= []).push({ txID: idToString(utxo.txId), outputIndex: utxo.outputIndex })
  }
  const balances = new Map(lockedStakeables)
  for (const m of [lockedNotStakeables, unlockeds]) for (const [asset, amount] of m) add(balances, asset, amount)
  const avax = ctx.pchain.config.avaxAssetId
  const json = (m: Map<string, bigint>) => Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, String(v)]))
  return {
    balance: String(balances.get(avax) ?? 0n),
    unlocked: String(unlockeds.get(avax) ?? 0n),
    lockedStakeable: String(lockedStakeables.get(avax) ?? 0n),
    lockedNotStakeable: String(lockedNotStakeables.get(avax) ?? 0n),
    balances: json(balances),
    unlockeds: json(unlockeds),
    lockedStakeables: json(lockedStakeables),
    lockedNotStakeables: json(lockedNotStakeables),
    utxoIDs,
  }
})
