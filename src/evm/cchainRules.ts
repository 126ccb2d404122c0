import { createAcp176FeeRules } from './acp176.js'
import type { ChainHooks } from './chain.js'
import { corethGenesisExtras, type CorethGenesisUpgrades } from './corethGenesis.js'
import type { FeeRules } from './feeRules.js'
import { installStatefulHost } from './statefulHost.js'
import { WARP_ADDRESS } from './warp/predicate.js'
import { activatePrecompileAccount, WarpRules, type WarpConfigAt, type WarpEnvironment } from './warpRules.js'

/** The network upgrades the C-chain's rules read, in unix seconds. */
export type CChainUpgrades = CorethGenesisUpgrades & { durangoTime: number }

export type CChainRulesOptions = {
  upgrades: CChainUpgrades
  /** The C-chain's ids and the validator sets that sign, for warp. */
  warp: WarpEnvironment
  /** The primary network's atomic txs, put in each block after its EVM transactions. */
  beforeSeal: NonNullable<ChainHooks['beforeSeal']>
  /**
   * Whether a genesis at or after Durango holds the warp precompile's account (true by default);
   * false recreates the genesis of snapshot files saved before the C-Chain had warp.
   */
  warpAccountInGenesis?: boolean
}

/**
 * coreth schedules the warp precompile with Durango and its default config
 * (`warp.NewDefaultConfig(DurangoBlockTimestamp)`, `plugin/evm/vm.go`): quorum 67%, and messages
 * from the primary network checked against the primary network itself (its own subnet).
 */
const CORETH_WARP_CONFIG: Readonly<WarpConfigAt> = Object.freeze({ quorumNumerator: 0n, requirePrimaryNetworkSigners: false })

/**
 * coreth's rules as chain hooks: its genesis header fields, its atomic txs at the end of each
 * block, and warp from Durango (activated like subnet-EVM's precompiles: the account at 0x0200…05
 * gets nonce 1 and code 0x01 in the block that crosses Durango, or in genesis), with the
 * predicates of each transaction verified and their results in the header. Returns the fee rules
 * too (ACP-176, with the predicate results after the fee state) and the chain's warp.
 */
export function createCChainRules(options: CChainRulesOptions): { hooks: ChainHooks; feeRules: FeeRules; warp: WarpRules } {
  const { upgrades } = options
  const isDurango = (t: bigint) => t >= BigInt(upgrades.durangoTime)
  const isGranite = (t: bigint) => t >= BigInt(upgrades.graniteTime)
  const warp = new WarpRules({ env: options.warp, configAt: (t) => (isDurango(t) ? CORETH_WARP_CONFIG : undefined), isGranite })
  /** Timestamp of the block being built, between beforeBlock and the next head change. */
  let building: bigint | undefined
  let headTimestamp = 0n
  const blockTimestamp = () => building ?? headTimestamp
  const hooks: ChainHooks = {
    genesisExtras: (timestamp) => corethGenesisExtras(upgrades, timestamp),
    genesisState: async (state, timestamp) => {
      if (isDurango(timestamp) && options.warpAccountInGenesis !== false) await activatePrecompileAccount(state, WARP_ADDRESS)
    },
    prepareVM: (vm) => {
      warp.watchTransactions(vm, blockTimestamp)
      installStatefulHost(vm, {
        precompileAt: (address, timestamp) => (address === WARP_ADDRESS && isDurango(timestamp) ? warp.precompile : undefined),
        rules: (block) => ({ isDurango: isDurango(block.timestamp), isGranite: isGranite(block.timestamp), blockNumber: block.number, timestamp: block.timestamp }),
        // coreth has no deployer allow list.
        createRefusal: async () => undefined,
      })
    },
    beforeBlock: async (chain, block) => {
      building = block.timestamp
      warp.beginBlock()
      if (!isDurango(block.parentTimestamp) && isDurango(block.timestamp)) await activatePrecompileAccount(chain.stateManager, WARP_ADDRESS)
    },
    beforeSeal: options.beforeSeal,
    afterHeadChange: async (chain) => {
      building = undefined
      warp.endBlock()
      headTimestamp = chain.head.block.header.timestamp
    },
    beginCall: (_chain, accessList) => warp.beginTransaction(accessList, blockTimestamp()),
    intrinsicGasDelta: (chain, accessList) => warp.intrinsicGasDelta(accessList, chain.head.block.header.timestamp),
  }
  return { hooks, feeRules: warp.withPredicateResults(createAcp176FeeRules()), warp }
}
