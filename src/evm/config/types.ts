import type { Hex } from '../../core/hex.js'
import type { FeeConfig } from '../fees.js'

/** Config keys of subnet-EVM's precompiles, as they appear in genesis and upgrade JSON. */
export type PrecompileKey =
  | 'contractDeployerAllowListConfig'
  | 'contractNativeMinterConfig'
  | 'txAllowListConfig'
  | 'feeManagerConfig'
  | 'rewardManagerConfig'
  | 'warpConfig'

/** Precompile addresses by key (0x0200…00 – …05), lower-case. */
export const PRECOMPILE_ADDRESSES: Record<PrecompileKey, Hex> = {
  contractDeployerAllowListConfig: '0x0200000000000000000000000000000000000000',
  contractNativeMinterConfig: '0x0200000000000000000000000000000000000001',
  txAllowListConfig: '0x0200000000000000000000000000000000000002',
  feeManagerConfig: '0x0200000000000000000000000000000000000003',
  rewardManagerConfig: '0x0200000000000000000000000000000000000004',
  warpConfig: '0x0200000000000000000000000000000000000005',
}

/** `precompileconfig.Upgrade`: when the entry applies, and whether it disables. */
export type UpgradeFields = {
  /** Unix seconds; `undefined` (JSON null) means never. */
  blockTimestamp: bigint | undefined
  disable: boolean
}

/** `allowlist.AllowListConfig`, embedded in every allow-list precompile's config. Lower-case addresses. */
export type AllowListFields = {
  adminAddresses: Hex[]
  managerAddresses: Hex[]
  enabledAddresses: Hex[]
}

export type RewardConfig = { allowFeeRecipients: boolean; rewardAddress: Hex | undefined }

export type PrecompileConfig =
  | ({ key: 'contractDeployerAllowListConfig' } & UpgradeFields & AllowListFields)
  | ({ key: 'txAllowListConfig' } & UpgradeFields & AllowListFields)
  | ({ key: 'contractNativeMinterConfig' } & UpgradeFields & AllowListFields & { initialMint: Map<Hex, bigint> })
  | ({ key: 'feeManagerConfig' } & UpgradeFields & AllowListFields & { initialFeeConfig: FeeConfig | undefined })
  | ({ key: 'rewardManagerConfig' } & UpgradeFields & AllowListFields & { initialRewardConfig: RewardConfig | undefined })
  | ({ key: 'warpConfig' } & UpgradeFields & { quorumNumerator: bigint; requirePrimaryNetworkSigners: boolean })

/** Avalanche network-upgrade timestamps of a subnet-EVM chain (unix seconds; undefined = unscheduled). */
export type NetworkUpgrades = {
  subnetEVMTimestamp: bigint
  durangoTimestamp: bigint
  etnaTimestamp: bigint
  fortunaTimestamp: bigint | undefined
  graniteTimestamp: bigint | undefined
}
