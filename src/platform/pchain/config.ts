/**
 * Per-network P-chain parameters, from avalanchego `genesis/genesis_{local,fuji,mainnet}.go`
 * (`Params`: StakingConfig + TxFeeConfig) and `vms/platformvm/config`. Durations in seconds,
 * amounts in nAVAX.
 */
export type Dimensions = readonly [bandwidth: bigint, dbRead: bigint, dbWrite: bigint, compute: bigint]

export type DynamicFeeConfig = {
  weights: Dimensions
  maxCapacity: bigint
  maxPerSecond: bigint
  targetPerSecond: bigint
  minPrice: bigint
  excessConversionConstant: bigint
}

/** ACP-77 continuous fee (`validators/fee.Config`). */
export type ValidatorFeeConfig = { capacity: bigint; target: bigint; minPrice: bigint; excessConversionConstant: bigint }

export type RewardConfig = { maxConsumptionRate: bigint; minConsumptionRate: bigint; mintingPeriod: bigint; supplyCap: bigint }

export type StakingConfig = {
  uptimeRequirement: number
  minValidatorStake: bigint
  maxValidatorStake: bigint
  minDelegatorStake: bigint
  /** Shares out of 1,000,000 (`reward.PercentDenominator`). */
  minDelegationFee: number
  minStakeDuration: number
  maxStakeDuration: number
  /** `MaxValidatorWeightFactor` of the primary network (executor package constant: 5). */
  maxValidatorWeightFactor: bigint
  rewardConfig: RewardConfig
}

export type UpgradeTimes = {
  /** Unix seconds at which Durango activates: before it stakers are pending until their start time. */
  durangoTime: number
  /** Unix seconds at which Etna (ACP-77, dynamic fees) activates. */
  etnaTime: number
}

export type PChainConfig = {
  networkId: number
  avaxAssetId: string
  staking: StakingConfig
  dynamicFee: DynamicFeeConfig
  validatorFee: ValidatorFeeConfig
  upgrades: UpgradeTimes
}

const NANO = 1n
const MICRO = 1000n * NANO
const MILLI = 1000n * MICRO
const AVAX = 1000n * MILLI
const KILO_AVAX = 1000n * AVAX
const MEGA_AVAX = 1000n * KILO_AVAX
const DAY = 24 * 3600
export const PERCENT_DENOMINATOR = 1_000_000n

export const UNITS = { NANO, MICRO, MILLI, AVAX, KILO_AVAX, MEGA_AVAX } as const

const dynamicFee: DynamicFeeConfig = {
  weights: [1n, 1000n, 1000n, 4n],
  maxCapacity: 1_000_000n,
  maxPerSecond: 100_000n,
  targetPerSecond: 50_000n,
  minPrice: 1n,
  excessConversionConstant: 2_164_043n,
}

const rewardConfig: RewardConfig = {
  maxConsumptionRate: 120_000n,
  minConsumptionRate: 100_000n,
  mintingPeriod: BigInt(365 * DAY),
  supplyCap: 720n * MEGA_AVAX,
}

export type NetworkName = 'local' | 'fuji' | 'mainnet'

export const NETWORK_IDS: Record<NetworkName, number> = { mainnet: 1, fuji: 5, local: 12345 }

const staking = (over: Partial<StakingConfig>): StakingConfig => ({
  uptimeRequirement: 0.8,
  minValidatorStake: 2n * KILO_AVAX,
  maxValidatorStake: 3n * MEGA_AVAX,
  minDelegatorStake: 25n * AVAX,
  minDelegationFee: 20_000,
  minStakeDuration: DAY,
  maxStakeDuration: 365 * DAY,
  maxValidatorWeightFactor: 5n,
  rewardConfig,
  ...over,
})

export const NETWORK_PARAMS: Record<NetworkName, { staking: StakingConfig; validatorFee: ValidatorFeeConfig; dynamicFee: DynamicFeeConfig }> = {
  local: {
    staking: staking({}),
    dynamicFee,
    validatorFee: { capacity: 20_000n, target: 10_000n, minPrice: 1n * NANO, excessConversionConstant: 865_617n },
  },
  fuji: {
    staking: staking({ minValidatorStake: AVAX, minDelegatorStake: AVAX }),
    dynamicFee,
    validatorFee: { capacity: 20_000n, target: 10_000n, minPrice: 512n * NANO, excessConversionConstant: 51_937_021n },
  },
  mainnet: {
    staking: staking({ minStakeDuration: 14 * DAY }),
    dynamicFee,
    validatorFee: { capacity: 20_000n, target: 10_000n, minPrice: 512n * NANO, excessConversionConstant: 1_246_488_515n },
  },
}

/** A config for a named network; upgrades default to all active (time 0). */
export function pchainConfig(
  network: NetworkName,
  options: { avaxAssetId: string; upgrades?: Partial<UpgradeTimes>; staking?: Partial<StakingConfig>; validatorFee?: Partial<ValidatorFeeConfig>; dynamicFee?: Partial<DynamicFeeConfig> },
): PChainConfig {
  const p = NETWORK_PARAMS[network]
  return {
    networkId: NETWORK_IDS[network],
    avaxAssetId: options.avaxAssetId,
    staking: { ...p.staking, ...options.staking },
    dynamicFee: { ...p.dynamicFee, ...options.dynamicFee },
    validatorFee: { ...p.validatorFee, ...options.validatorFee },
    upgrades: { durangoTime: 0, etnaTime: 0, ...options.upgrades },
  }
}
