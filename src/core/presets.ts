import { EMPTY_ID } from './ids.js'

/**
 * The well-known identity of each network the emulator can impersonate: ids that tools hard-code
 * (wallets look up the C-chain by its id, SDKs check the AVAX asset id) and the upgrade schedule
 * that decides which EVM rules apply at a timestamp. Values come from avalanchego
 * `genesis/genesis_test.go` (ids) and `upgrade/upgrade.go` (times), as summarised in
 * `reference/node-api.md` §6 and `reference/subnet-evm.md` §5.
 */

export type NetworkPresetName = 'local' | 'fuji' | 'mainnet'

/** `upgrade.InitiallyActiveTime`, 2020-12-05 05:00 UTC: every upgrade's time on local and custom networks. */
export const INITIALLY_ACTIVE_TIME = 1607144400

/** `upgrade.UnscheduledActivationTime`, 9999-12-01 00:00 UTC: an upgrade that is not scheduled. */
export const UNSCHEDULED_ACTIVATION_TIME = 253399622400

/** Activation times in unix seconds, in activation order, with `upgrade.Config`'s JSON names. */
export type NetworkUpgrades = {
  apricotPhase1Time: number
  apricotPhase2Time: number
  apricotPhase3Time: number
  apricotPhase4Time: number
  apricotPhase5Time: number
  apricotPhasePre6Time: number
  apricotPhase6Time: number
  apricotPhasePost6Time: number
  banffTime: number
  cortinaTime: number
  durangoTime: number
  etnaTime: number
  fortunaTime: number
  graniteTime: number
  heliconTime: number
}

/** The non-time fields of `upgrade.Config`, which `info.upgrades` also returns. */
export type NetworkUpgradeParams = {
  apricotPhase4MinPChainHeight: number
  cortinaXChainStopVertexID: string
  /** Nanoseconds, as Go's `time.Duration` is written in JSON. */
  graniteEpochDurationNs: number
}

export type NetworkPreset = {
  networkId: number
  /** What `info.getNetworkName` returns. */
  networkName: string
  /** The bech32 prefix of X/P addresses (`constants.GetHRP`). */
  hrp: string
  /** The P-chain is `ids.Empty` on every network. */
  pChainId: string
  xChainId: string
  cChainId: string
  avaxAssetId: string
  /** The C-chain's EIP-155 chain id. */
  evmChainId: number
  upgrades: NetworkUpgrades
  upgradeParams: NetworkUpgradeParams
}

const LOCAL_UPGRADES = {
  apricotPhase1Time: INITIALLY_ACTIVE_TIME,
  apricotPhase2Time: INITIALLY_ACTIVE_TIME,
  apricotPhase3Time: INITIALLY_ACTIVE_TIME,
  apricotPhase4Time: INITIALLY_ACTIVE_TIME,
  apricotPhase5Time: INITIALLY_ACTIVE_TIME,
  apricotPhasePre6Time: INITIALLY_ACTIVE_TIME,
  apricotPhase6Time: INITIALLY_ACTIVE_TIME,
  apricotPhasePost6Time: INITIALLY_ACTIVE_TIME,
  banffTime: INITIALLY_ACTIVE_TIME,
  cortinaTime: INITIALLY_ACTIVE_TIME,
  durangoTime: INITIALLY_ACTIVE_TIME,
  etnaTime: INITIALLY_ACTIVE_TIME,
  fortunaTime: INITIALLY_ACTIVE_TIME,
  graniteTime: INITIALLY_ACTIVE_TIME,
  heliconTime: UNSCHEDULED_ACTIVATION_TIME,
} as const

export const NETWORK_PRESETS = {
  local: {
    networkId: 12345,
    networkName: 'local',
    hrp: 'local',
    pChainId: EMPTY_ID,
    xChainId: '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed',
    // Since avalanchego PR #3413; older local genesis files give 2CA6j5zYzasynPsFeNoqWkmTCt3VScMvXUZHbfDJ8k3oGzAPtU.
    cChainId: '2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC',
    avaxAssetId: '2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe',
    evmChainId: 43112,
    upgrades: LOCAL_UPGRADES,
    upgradeParams: {
      apricotPhase4MinPChainHeight: 0,
      cortinaXChainStopVertexID: EMPTY_ID,
      graniteEpochDurationNs: 30_000_000_000,
    },
  },
  fuji: {
    networkId: 5,
    networkName: 'fuji',
    hrp: 'fuji',
    pChainId: EMPTY_ID,
    xChainId: '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm',
    cChainId: 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp',
    avaxAssetId: 'U8iRqJoiJm8xZHAacmvYyZVwqQx6uDNtQeP3CQ6fcgQk3JqnK',
    evmChainId: 43113,
    upgrades: {
      apricotPhase1Time: 1616767200, // 2021-03-26 14:00 UTC
      apricotPhase2Time: 1620223200, // 2021-05-05 14:00
      apricotPhase3Time: 1629140400, // 2021-08-16 19:00
      apricotPhase4Time: 1631826000, // 2021-09-16 21:00
      apricotPhase5Time: 1637766000, // 2021-11-24 15:00
      apricotPhasePre6Time: 1662494400, // 2022-09-06 20:00
      apricotPhase6Time: 1662494400, // 2022-09-06 20:00
      apricotPhasePost6Time: 1662530400, // 2022-09-07 06:00
      banffTime: 1664805600, // 2022-10-03 14:00
      cortinaTime: 1680793200, // 2023-04-06 15:00
      durangoTime: 1707840000, // 2024-02-13 16:00
      etnaTime: 1732550400, // 2024-11-25 16:00
      fortunaTime: 1741878000, // 2025-03-13 15:00
      graniteTime: 1761750000, // 2025-10-29 15:00
      heliconTime: UNSCHEDULED_ACTIVATION_TIME,
    },
    upgradeParams: {
      apricotPhase4MinPChainHeight: 47437,
      cortinaXChainStopVertexID: '2D1cmbiG36BqQMRyHt4kFhWarmatA1ighSpND3FeFgz3vFVtCZ',
      graniteEpochDurationNs: 300_000_000_000,
    },
  },
  mainnet: {
    networkId: 1,
    networkName: 'mainnet',
    hrp: 'avax',
    pChainId: EMPTY_ID,
    xChainId: '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM',
    cChainId: '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5',
    avaxAssetId: 'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z',
    evmChainId: 43114,
    upgrades: {
      apricotPhase1Time: 1617199200, // 2021-03-31 14:00 UTC
      apricotPhase2Time: 1620644400, // 2021-05-10 11:00
      apricotPhase3Time: 1629813600, // 2021-08-24 14:00
      apricotPhase4Time: 1632344400, // 2021-09-22 21:00
      apricotPhase5Time: 1638468000, // 2021-12-02 18:00
      apricotPhasePre6Time: 1662341400, // 2022-09-05 01:30
      apricotPhase6Time: 1662494400, // 2022-09-06 20:00
      apricotPhasePost6Time: 1662519600, // 2022-09-07 03:00
      banffTime: 1666108800, // 2022-10-18 16:00
      cortinaTime: 1682434800, // 2023-04-25 15:00
      durangoTime: 1709740800, // 2024-03-06 16:00
      etnaTime: 1734368400, // 2024-12-16 17:00
      fortunaTime: 1744124400, // 2025-04-08 15:00
      graniteTime: 1763568000, // 2025-11-19 16:00
      heliconTime: UNSCHEDULED_ACTIVATION_TIME,
    },
    upgradeParams: {
      apricotPhase4MinPChainHeight: 793005,
      cortinaXChainStopVertexID: 'jrGWDh5Po9FMj54depyunNixpia5PN4aAYxfmNzU8n752Rjga',
      graniteEpochDurationNs: 300_000_000_000,
    },
  },
} as const satisfies Record<NetworkPresetName, NetworkPreset>

/** The latest upgrade of `upgrades` scheduled at or before `time` (unix seconds); undefined before the first. */
export function lastUpgradeTime(upgrades: NetworkUpgrades, time: number): number | undefined {
  let last: number | undefined
  for (const t of Object.values(upgrades)) if (t <= time && (last === undefined || t > last)) last = t
  return last
}

/**
 * When an L1 on a network of `preset` starting at `start` has its genesis, and its genesis
 * precompiles activate: at the latest upgrade in force at the start, as an L1 made on that network
 * then would (so its first blocks, and calls on its genesis head, run the rules of the time), and
 * never before Durango: warp and precompile managers cannot activate before it (subnet-EVM's
 * `Verify`). On local, every upgrade's `InitiallyActiveTime`, subnet-EVM's test genesis time.
 */
export function l1GenesisTime(preset: NetworkPreset, start: number): number {
  return Math.max(preset.upgrades.durangoTime, lastUpgradeTime(preset.upgrades, start) ?? 0)
}
