import { Common, Mainnet, type ChainConfig, type CustomCrypto, type ParamsDict } from '@ethereumjs/common'
import { paramsBlock } from '@ethereumjs/block'
import { paramsEVM } from '@ethereumjs/evm'
import { paramsTx } from '@ethereumjs/tx'
import { paramsVM } from '@ethereumjs/vm'

/**
 * ethereumjs calls `common.updateParams(paramsTx)` in every transaction and header constructor,
 * which deep-copies the parameter tables and rebuilds the cache: about 15% of the time of a
 * one-transaction block. The tables are the same objects every time, so applying each once per
 * lineage of copies is enough. `overrides` is re-applied after any new table, so chain rules
 * (no gas refunds) always win over library defaults.
 */
class ChainCommon extends Common {
  // Plain properties (not #private) so `Common.copy()`'s Object.assign carries them to copies.
  appliedParams = new Set<ParamsDict>()
  paramOverrides: ParamsDict | undefined = undefined

  // ethereumjs answers isActivatedEIP with an array scan, several times per opcode; a Set built
  // from the same list (rebuilt when a hardfork change replaces the list) answers the same.
  eipSource: number[] | undefined = undefined
  eipSet = new Set<number>()

  override isActivatedEIP(eip: number): boolean {
    const list = this._activatedEIPsCache
    if (list !== this.eipSource) {
      this.eipSource = list
      this.eipSet = new Set(list)
    }
    return this.eipSet.has(eip)
  }

  override copy(): this {
    const copy = super.copy() as this
    copy.appliedParams = new Set(this.appliedParams)
    return copy
  }

  /**
   * Paris switches ethereumjs to proof-of-stake header rules; the chain's own consensus setting
   * (see {@link createEvmCommon}) holds at every fork instead.
   */
  override consensusType(): string {
    return this._chainParams.consensus.type
  }

  override consensusAlgorithm(): string {
    return this._chainParams.consensus.algorithm
  }

  override updateParams(params: ParamsDict): void {
    if (this.appliedParams?.has(params)) return
    super.updateParams(params)
    if (this.paramOverrides) super.updateParams(this.paramOverrides)
    this.appliedParams?.add(params)
  }
}

export type ChainUpgrades = {
  /** Unix seconds at which Shanghai rules start (Durango on Avalanche chains). */
  shanghaiTime: number
  /** Unix seconds at which Cancun rules start (Etna on Avalanche chains). */
  cancunTime: number
}

export type CreateEvmCommonOptions = {
  chainId: number | bigint
  name: string
  upgrades: ChainUpgrades
  customCrypto?: CustomCrypto
}

const BLOCK_ZERO_FORKS = [
  'chainstart', 'homestead', 'tangerineWhistle', 'spuriousDragon', 'byzantium', 'constantinople',
  'petersburg', 'istanbul', 'muirGlacier', 'berlin', 'london', 'paris',
] as const

/**
 * Avalanche EVM chains: every pre-Shanghai fork at block 0 (Apricot phases ran them on the
 * C-chain long ago; subnet-EVM has them at 0), Shanghai at Durango and Cancun at Etna by block
 * timestamp, no Prague. Gas refunds are off, as on every Avalanche EVM chain since ApricotPhase1.
 */
export function createEvmCommon(options: CreateEvmCommonOptions): Common {
  const chain: ChainConfig = {
    ...Mainnet,
    name: options.name,
    chainId: Number(options.chainId),
    defaultHardfork: 'cancun',
    // Neither 'pos' (ethereumjs then demands difficulty 0 and ≤32 bytes of extra data, while
    // Avalanche headers carry difficulty 1 and an 80-byte fee window) nor 'pow' (ethereumjs would
    // pay a block reward; Avalanche mints nothing per block). Snowman finality has no header rules.
    consensus: { type: 'snowman', algorithm: 'snowman' },
    genesis: { gasLimit: 0, difficulty: 1, nonce: '0x0000000000000000', extraData: '0x' },
    hardforks: [
      ...BLOCK_ZERO_FORKS.map((name) => ({ name, block: 0 })),
      { name: 'shanghai', block: null, timestamp: options.upgrades.shanghaiTime },
      { name: 'cancun', block: null, timestamp: options.upgrades.cancunTime },
    ],
    bootstrapNodes: [],
  }
  const common = new ChainCommon({ chain, hardfork: 'cancun', customCrypto: options.customCrypto ?? {} })
  common.paramOverrides = {
    3529: { maxRefundQuotient: Number.MAX_SAFE_INTEGER },
    // Before London the refund quotient lives under the base (chainstart) table.
    1: { maxRefundQuotient: Number.MAX_SAFE_INTEGER },
  }
  // Every library's table up front, so each copy starts with a complete parameter cache.
  for (const params of [paramsTx, paramsBlock, paramsEVM, paramsVM]) common.updateParams(params)
  return common
}

/** Whether a timestamp-scheduled fork (shanghai, cancun) is active for a block at `timestamp`. */
export function forkActiveAt(common: Common, fork: 'shanghai' | 'cancun', timestamp: bigint): boolean {
  const at = common.hardforkTimestamp(fork)
  return at !== null && timestamp >= at
}
