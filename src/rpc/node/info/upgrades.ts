import { formatRFC3339Nano, NANOS_PER_SECOND } from '../../../network/goTime.js'
import type { NetworkPreset } from '../../../network/presets.js'
import { defineNodeMethod } from '../types.js'
import { noParams } from '../params.js'
import type { InfoContext } from './context.js'

/** `upgrade.Config` as JSON: times RFC 3339 (UTC), the epoch duration in nanoseconds. Field order is Go's. */
export type UpgradesResult = {
  apricotPhase1Time: string
  apricotPhase2Time: string
  apricotPhase3Time: string
  apricotPhase4Time: string
  apricotPhase4MinPChainHeight: number
  apricotPhase5Time: string
  apricotPhasePre6Time: string
  apricotPhase6Time: string
  apricotPhasePost6Time: string
  banffTime: string
  cortinaTime: string
  cortinaXChainStopVertexID: string
  durangoTime: string
  etnaTime: string
  fortunaTime: string
  graniteTime: string
  graniteEpochDuration: number
  heliconTime: string
}

/** A preset's upgrade schedule in `upgrade.Config`'s JSON form. */
export function upgradeConfigJson(preset: Pick<NetworkPreset, 'upgrades' | 'upgradeParams'>): UpgradesResult {
  const u = preset.upgrades
  const p = preset.upgradeParams
  const t = (seconds: number) => formatRFC3339Nano(BigInt(seconds) * NANOS_PER_SECOND)
  return {
    apricotPhase1Time: t(u.apricotPhase1Time),
    apricotPhase2Time: t(u.apricotPhase2Time),
    apricotPhase3Time: t(u.apricotPhase3Time),
    apricotPhase4Time: t(u.apricotPhase4Time),
    apricotPhase4MinPChainHeight: p.apricotPhase4MinPChainHeight,
    apricotPhase5Time: t(u.apricotPhase5Time),
    apricotPhasePre6Time: t(u.apricotPhasePre6Time),
    apricotPhase6Time: t(u.apricotPhase6Time),
    apricotPhasePost6Time: t(u.apricotPhasePost6Time),
    banffTime: t(u.banffTime),
    cortinaTime: t(u.cortinaTime),
    cortinaXChainStopVertexID: p.cortinaXChainStopVertexID,
    durangoTime: t(u.durangoTime),
    etnaTime: t(u.etnaTime),
    fortunaTime: t(u.fortunaTime),
    graniteTime: t(u.graniteTime),
    graniteEpochDuration: p.graniteEpochDurationNs,
    heliconTime: t(u.heliconTime),
  }
}

/** `info.upgrades`: the network's upgrade schedule. */
export const upgrades = defineNodeMethod(noParams, (_params, ctx: InfoContext): UpgradesResult => upgradeConfigJson(ctx.network.preset))
