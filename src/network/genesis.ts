import { hexToBytes } from '@ethereumjs/util'
import { sha256 } from '../core/sha256.js'
import type { Hex } from '../core/hex.js'
import { idFromString } from '../core/ids.js'
import type { NodeIdentity } from '../core/keys.js'
import { avaxGenesisAsset, avmGenesisBytes } from '../platform/genesis/avm.js'
import { GENESIS_CONFIGS, cChainGenesisAlloc, initialSupplyOf, withStakerCount } from '../platform/genesis/config.js'
import { buildPlatformGenesis, type PlatformGenesis } from '../platform/genesis/platform.js'
import type { PChainGenesis } from '../platform/pchain/genesis.js'
import type { XGenesisAllocation } from '../platform/xchain/chain.js'
import type { NetworkPreset, NetworkPresetName } from './presets.js'

/**
 * Which genesis layout a network starts from. 3: 2, with the C-Chain's warp precompile account
 * (nonce 1, code 0x01) in its genesis state when Durango is active there, as coreth's
 * `ApplyPrecompileActivations` writes it. 2: avalanchego's (`genesis.FromConfig`): the X- and
 * C-Chain CreateChainTxs, the nodes as initial stakers with their BLS signers, the local network's
 * allocations (ewoq funded on P, X and C). 1: the layout of l1sim before it (nobody but the dev
 * accounts funded on C, the nodes staking 2,000 AVAX each). The older ones are kept so that
 * snapshot files saved then still load: their P- and X-Chain states come from the file, the
 * C-Chain's genesis must be the same.
 */
export type GenesisVersion = 1 | 2 | 3

export const GENESIS_VERSION: GenesisVersion = 3

/** Each node's stake in genesis layout 1 (2,000 AVAX). */
const LEGACY_VALIDATOR_WEIGHT = 2_000_000_000_000n

export type NetworkGenesis = {
  /** The P-Chain's genesis (its UTXOs, initial stakers and chains). */
  pchain: PChainGenesis
  /** The platformvm genesis it came from. */
  platform: PlatformGenesis
  /** Each node's stake, by node index (the primary network's validator weights at genesis). */
  weights: bigint[]
  /** The X-Chain's genesis holders (the genesis asset's initial state). */
  xAllocations: XGenesisAllocation[]
  /** C-Chain balances (wei) by lower-case address, beside the dev accounts'. */
  cAlloc: Record<Hex, bigint>
}

/**
 * The primary network's genesis for a preset: its genesis config (see `GENESIS_CONFIGS`) with the
 * simulated nodes as initial stakers from `genesisTime`. The X- and C-Chain keep the preset's
 * ids, which on local (and for fuji's and mainnet's C-Chain) are the hashes of the txs built here.
 */
export function buildNetworkGenesis(args: { presetName: NetworkPresetName; preset: NetworkPreset; genesisTime: number; nodes: readonly NodeIdentity[]; version: GenesisVersion }): NetworkGenesis {
  const { presetName, preset, nodes } = args
  const config = withStakerCount(GENESIS_CONFIGS[presetName], nodes.length)
  const xGenesis = avmGenesisBytes(avaxGenesisAsset(preset.networkId, config))
  const platform = buildPlatformGenesis({
    networkId: preset.networkId,
    avaxAssetId: idFromString(preset.avaxAssetId),
    config,
    stakers: nodes.map((n) => ({ nodeId: n.nodeIdBytes, blsPublicKey: hexToBytes(n.blsPublicKey), proofOfPossession: hexToBytes(n.proofOfPossession) })),
    timestamp: args.genesisTime,
    // 360M AVAX on local with five nodes, as its genesis; another node count changes it by their stake.
    initialSupply: initialSupplyOf(config),
    xChainGenesis: xGenesis,
  })
  const weightOf = new Map(platform.validators.map((tx) => {
    const u = tx.unsigned as Extract<typeof tx.unsigned, { type: 'AddPermissionlessValidatorTx' }>
    return [Buffer.from(u.validator.nodeId).toString('hex'), u.validator.weight]
  }))
  const legacy = args.version === 1
  return {
    pchain: {
      utxos: platform.utxos.map((u) => u.utxo),
      validators: platform.validators,
      chains: [{ tx: platform.chains[0]!, id: preset.xChainId }, { tx: platform.chains[1]!, id: preset.cChainId }],
      parentId: sha256(platform.bytes),
    },
    platform,
    weights: nodes.map((n) => (legacy ? LEGACY_VALIDATOR_WEIGHT : weightOf.get(Buffer.from(n.nodeIdBytes).toString('hex'))!)),
    xAllocations: config.allocations.filter((a) => a.initialAmount > 0n).map((a) => ({ address: a.avaxAddr, amount: a.initialAmount })),
    cAlloc: legacy ? {} : (cChainGenesisAlloc(presetName) as Record<Hex, bigint>),
  }
}
