import { defineEthMethod } from '../define.js'
import { chainConfigJson } from '../../../evm/config/json.js'
import type { NetworkUpgrades } from '../../../network/presets.js'
import { tuple } from '../../params.js'
import { l1Of } from '../shared.js'

/**
 * Serves `eth_getChainConfig()`. On an L1, subnet-EVM's config with its fee config, precompile
 * configs and `upgrades` (last key); on the C-chain, coreth's plain config: geth's forks and the
 * Avalanche upgrade times, keys sorted as libevm writes them, no `upgrades`.
 */
export const eth_getChainConfig = defineEthMethod(tuple(), (_params, ctx) => {
  if (ctx.chain.flavour === 'coreth') return corethChainConfig(Number(ctx.chain.chainId), ctx.network.preset.upgrades)
  return chainConfigJson(l1Of(ctx, 'eth_getChainConfig').rules.config)
})

/** coreth's `params.ChainConfig` for a network: its upgrade times, geth's forks as coreth maps them. */
function corethChainConfig(chainId: number, u: NetworkUpgrades): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    chainId,
    homesteadBlock: 0,
    eip150Block: 0,
    eip155Block: 0,
    eip158Block: 0,
    byzantiumBlock: 0,
    constantinopleBlock: 0,
    petersburgBlock: 0,
    istanbulBlock: 0,
    muirGlacierBlock: 0,
    // Berlin and London came with ApricotPhase2 and 3; coreth schedules them by those times.
    berlinBlock: 0,
    londonBlock: 0,
    shanghaiTime: u.durangoTime,
    cancunTime: u.etnaTime,
    apricotPhase1BlockTimestamp: u.apricotPhase1Time,
    apricotPhase2BlockTimestamp: u.apricotPhase2Time,
    apricotPhase3BlockTimestamp: u.apricotPhase3Time,
    apricotPhase4BlockTimestamp: u.apricotPhase4Time,
    apricotPhase5BlockTimestamp: u.apricotPhase5Time,
    apricotPhasePre6BlockTimestamp: u.apricotPhasePre6Time,
    apricotPhase6BlockTimestamp: u.apricotPhase6Time,
    apricotPhasePost6BlockTimestamp: u.apricotPhasePost6Time,
    banffBlockTimestamp: u.banffTime,
    cortinaBlockTimestamp: u.cortinaTime,
    durangoBlockTimestamp: u.durangoTime,
    etnaTimestamp: u.etnaTime,
    fortunaTimestamp: u.fortunaTime,
    graniteTimestamp: u.graniteTime,
  }
  return Object.fromEntries(Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : 1)))
}
