import { describe, expect, it } from 'vitest'
import { hrpForNetworkId } from '../../src/core/address.js'
import { EMPTY_ID, idFromString, idToString } from '../../src/core/ids.js'
import {
  INITIALLY_ACTIVE_TIME,
  l1GenesisTime,
  NETWORK_PRESETS,
  UNSCHEDULED_ACTIVATION_TIME,
  type NetworkPresetName,
  type NetworkUpgrades,
} from '../../src/network/presets.js'

const names = Object.keys(NETWORK_PRESETS) as NetworkPresetName[]
const utc = (y: number, mo: number, d: number, h: number, mi = 0) => Date.UTC(y, mo - 1, d, h, mi) / 1000

// Transcribed from avalanchego upgrade/upgrade.go's time.Date(...) calls, not from the preset file.
const GO_SCHEDULES: Record<'mainnet' | 'fuji', NetworkUpgrades> = {
  mainnet: {
    apricotPhase1Time: utc(2021, 3, 31, 14), apricotPhase2Time: utc(2021, 5, 10, 11),
    apricotPhase3Time: utc(2021, 8, 24, 14), apricotPhase4Time: utc(2021, 9, 22, 21),
    apricotPhase5Time: utc(2021, 12, 2, 18), apricotPhasePre6Time: utc(2022, 9, 5, 1, 30),
    apricotPhase6Time: utc(2022, 9, 6, 20), apricotPhasePost6Time: utc(2022, 9, 7, 3),
    banffTime: utc(2022, 10, 18, 16), cortinaTime: utc(2023, 4, 25, 15), durangoTime: utc(2024, 3, 6, 16),
    etnaTime: utc(2024, 12, 16, 17), fortunaTime: utc(2025, 4, 8, 15), graniteTime: utc(2025, 11, 19, 16),
    heliconTime: utc(9999, 12, 1, 0),
  },
  fuji: {
    apricotPhase1Time: utc(2021, 3, 26, 14), apricotPhase2Time: utc(2021, 5, 5, 14),
    apricotPhase3Time: utc(2021, 8, 16, 19), apricotPhase4Time: utc(2021, 9, 16, 21),
    apricotPhase5Time: utc(2021, 11, 24, 15), apricotPhasePre6Time: utc(2022, 9, 6, 20),
    apricotPhase6Time: utc(2022, 9, 6, 20), apricotPhasePost6Time: utc(2022, 9, 7, 6),
    banffTime: utc(2022, 10, 3, 14), cortinaTime: utc(2023, 4, 6, 15), durangoTime: utc(2024, 2, 13, 16),
    etnaTime: utc(2024, 11, 25, 16), fortunaTime: utc(2025, 3, 13, 15), graniteTime: utc(2025, 10, 29, 15),
    heliconTime: utc(9999, 12, 1, 0),
  },
}

describe('NETWORK_PRESETS', () => {
  it('has local, fuji and mainnet with their network ids, names, hrps and EVM chain ids', () => {
    expect(names.sort()).toEqual(['fuji', 'local', 'mainnet'])
    expect(
      Object.fromEntries(names.map((n) => {
        const p = NETWORK_PRESETS[n]
        return [n, [p.networkId, p.networkName, p.hrp, p.evmChainId]]
      })),
    ).toEqual({
      local: [12345, 'local', 'local', 43112],
      fuji: [5, 'fuji', 'fuji', 43113],
      mainnet: [1, 'mainnet', 'avax', 43114],
    })
  })

  it.each(names)('%s: the hrp is constants.GetHRP of the network id', (name) => {
    const preset = NETWORK_PRESETS[name]
    expect(preset.hrp).toBe(hrpForNetworkId(preset.networkId))
  })

  it.each(names)('%s: the P-chain is the empty id', (name) => {
    expect(NETWORK_PRESETS[name].pChainId).toBe(EMPTY_ID)
    expect(NETWORK_PRESETS[name].pChainId).toBe('11111111111111111111111111111111LpoYY')
  })

  it.each(names)('%s: chain, asset and stop-vertex ids are valid 32-byte cb58 ids', (name) => {
    const p = NETWORK_PRESETS[name]
    for (const id of [p.pChainId, p.xChainId, p.cChainId, p.avaxAssetId, p.upgradeParams.cortinaXChainStopVertexID]) {
      const bytes = idFromString(id)
      expect(bytes).toHaveLength(32)
      expect(idToString(bytes)).toBe(id)
    }
    expect(new Set([p.xChainId, p.cChainId, p.avaxAssetId]).size).toBe(3)
  })

  it('uses the reference ids', () => {
    expect(NETWORK_PRESETS.local.xChainId).toBe('2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed')
    expect(NETWORK_PRESETS.local.cChainId).toBe('2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC')
    expect(NETWORK_PRESETS.local.avaxAssetId).toBe('2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe')
    expect(NETWORK_PRESETS.fuji.xChainId).toBe('2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm')
    expect(NETWORK_PRESETS.fuji.cChainId).toBe('yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp')
    expect(NETWORK_PRESETS.fuji.avaxAssetId).toBe('U8iRqJoiJm8xZHAacmvYyZVwqQx6uDNtQeP3CQ6fcgQk3JqnK')
    expect(NETWORK_PRESETS.mainnet.xChainId).toBe('2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM')
    expect(NETWORK_PRESETS.mainnet.cChainId).toBe('2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5')
    expect(NETWORK_PRESETS.mainnet.avaxAssetId).toBe('FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z')
  })

  it.each(['mainnet', 'fuji'] as const)('%s: upgrade times match upgrade.go', (name) => {
    expect(NETWORK_PRESETS[name].upgrades).toEqual(GO_SCHEDULES[name])
  })

  it('local: every upgrade active since 2020-12-05 05:00 UTC, Helicon unscheduled', () => {
    const { heliconTime, ...rest } = NETWORK_PRESETS.local.upgrades
    expect(INITIALLY_ACTIVE_TIME).toBe(utc(2020, 12, 5, 5))
    expect(new Set(Object.values(rest))).toEqual(new Set([1607144400]))
    expect(Object.keys(rest)).toHaveLength(14)
    expect(heliconTime).toBe(UNSCHEDULED_ACTIVATION_TIME)
    expect(UNSCHEDULED_ACTIVATION_TIME).toBe(253399622400)
  })

  it.each(names)('%s: upgrades are in activation order (upgrade.Config.Validate)', (name) => {
    const times = Object.values(NETWORK_PRESETS[name].upgrades)
    expect(times).toEqual([...times].sort((a, b) => a - b))
  })

  it('carries the non-time upgrade fields info.upgrades returns', () => {
    expect(NETWORK_PRESETS.mainnet.upgradeParams.apricotPhase4MinPChainHeight).toBe(793005)
    expect(NETWORK_PRESETS.fuji.upgradeParams.apricotPhase4MinPChainHeight).toBe(47437)
    expect(NETWORK_PRESETS.local.upgradeParams.cortinaXChainStopVertexID).toBe(EMPTY_ID)
    expect(NETWORK_PRESETS.mainnet.upgradeParams.graniteEpochDurationNs).toBe(300000000000)
    expect(NETWORK_PRESETS.local.upgradeParams.graniteEpochDurationNs).toBe(30000000000)
  })
})

describe('l1GenesisTime', () => {
  it('is the latest upgrade at the start, never before Durango (warp and managers need it); local keeps InitiallyActiveTime', () => {
    const start2026 = utc(2026, 1, 1, 0)
    expect(l1GenesisTime(NETWORK_PRESETS.local, start2026)).toBe(INITIALLY_ACTIVE_TIME)
    expect(l1GenesisTime(NETWORK_PRESETS.local, utc(2019, 1, 1, 0))).toBe(INITIALLY_ACTIVE_TIME)
    expect(l1GenesisTime(NETWORK_PRESETS.fuji, start2026)).toBe(NETWORK_PRESETS.fuji.upgrades.graniteTime)
    expect(l1GenesisTime(NETWORK_PRESETS.mainnet, start2026)).toBe(NETWORK_PRESETS.mainnet.upgrades.graniteTime)
    expect(l1GenesisTime(NETWORK_PRESETS.mainnet, utc(2025, 1, 1, 0))).toBe(NETWORK_PRESETS.mainnet.upgrades.etnaTime)
    expect(l1GenesisTime(NETWORK_PRESETS.fuji, utc(2023, 1, 1, 0))).toBe(NETWORK_PRESETS.fuji.upgrades.durangoTime)
  })
})
