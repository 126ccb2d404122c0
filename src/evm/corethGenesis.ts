import { INITIAL_DELAY_EXCESS } from './acp176.js'

/** The C-chain's upgrade times (unix seconds) that decide its genesis header's fields. */
export type CorethGenesisUpgrades = { etnaTime: number; graniteTime: number }

/**
 * Header fields beyond Ethereum's of a C-chain genesis dated `timestamp`, as coreth's
 * `core/genesis.go` `toBlock` sets them for the upgrades active then: Etna, a zero block gas cost
 * and atomic gas (`blockGasCost`, `extDataGasUsed`); Granite, the time in milliseconds and
 * ACP-226's initial delay excess. A genesis before them has none.
 */
export function corethGenesisExtras(upgrades: CorethGenesisUpgrades, timestamp: bigint): Record<string, bigint> {
  const extras: Record<string, bigint> = {}
  if (timestamp >= BigInt(upgrades.etnaTime)) Object.assign(extras, { blockGasCost: 0n, extDataGasUsed: 0n })
  if (timestamp >= BigInt(upgrades.graniteTime)) Object.assign(extras, { timestampMilliseconds: timestamp * 1000n, minDelayExcess: INITIAL_DELAY_EXCESS })
  return extras
}
