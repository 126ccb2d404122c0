/**
 * The stateful precompiles by their scenario names, with subnet-EVM's config keys. Apart from the
 * schema (`document.ts`) so that the network options of a parsed scenario (`options.ts`) load
 * without the YAML parser.
 */
export const PRECOMPILES = {
  deployerAllowList: 'contractDeployerAllowListConfig',
  nativeMinter: 'contractNativeMinterConfig',
  txAllowList: 'txAllowListConfig',
  feeManager: 'feeManagerConfig',
  rewardManager: 'rewardManagerConfig',
  warp: 'warpConfig',
} as const
export type PrecompileName = keyof typeof PRECOMPILES
