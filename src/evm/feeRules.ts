/**
 * How a chain prices gas and sizes blocks. Two implementations: subnet-EVM's 10-second window
 * (`windowFeeRules`, L1 chains and the pre-Fortuna C-chain) and ACP-176 (`createAcp176FeeRules`,
 * the C-chain since Fortuna). The miner and the RPC read only this interface.
 */
export type ParentHeaderInfo = {
  number: bigint
  timestamp: bigint
  gasUsed: bigint
  gasLimit: bigint
  baseFeePerGas: bigint
  extraData: Uint8Array
  /** The parent's rule-specific header fields (its `blockGasCost`, say). */
  extras?: Record<string, bigint>
}

export type NextBlockFees = {
  baseFee: bigint
  /** The header's gas limit. */
  gasLimit: bigint
  /** Gas the block's transactions may use in total (ACP-176: the capacity before the block). */
  gasAvailable: bigint
  /** The header's extra data once the block's gas use is known. */
  extraData(gasUsed: bigint): Uint8Array
  /** Rule-specific header fields of this block, shown by the RPC (`blockGasCost`, `minDelayExcess`…). */
  headerExtras: Record<string, bigint>
  /**
   * Subnet-EVM's block gas cost: the block's transactions must together pay at least this much
   * in tips, counted in gas at the base fee (`VerifyBlockFee`). 0 when there is none.
   */
  blockGasCost: bigint
}

export type FeeRules = {
  readonly name: string
  next(parent: ParentHeaderInfo, timestamp: bigint): NextBlockFees
  /** The earliest timestamp ≥ `from` at which a block could hold `gas` (capacity refill). */
  timestampForGas(parent: ParentHeaderInfo, from: bigint, gas: bigint): bigint
  /** Least seconds between a block and a parent at `parentTimestamp` (Granite's ACP-226 delay: 2 s by default). */
  minBlockDelay(parentTimestamp: bigint): bigint
}
