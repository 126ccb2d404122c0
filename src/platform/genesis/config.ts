import { parseAddress } from '../../core/address.js'
import { hexToBytes } from '../../core/hex.js'
import type { NetworkPresetName } from '../../core/presets.js'

/**
 * The facts of avalanchego's network genesis files (`genesis/genesis_{local,fuji,mainnet}.json`,
 * `genesis.Config`) that the emulated primary network starts from: the allocations, how the
 * initial stake is laid out, the C-Chain's genesis text and the genesis message.
 *
 * The local network's are complete, so its X- and C-Chain CreateChainTxs are the real ones, byte
 * for byte (their ids are the real chain ids). Fuji's and mainnet's allocations belong to real
 * holders (mainnet's file is 3.5 MB) and are not reproduced: there only the C-Chain's genesis text,
 * the message and the staking layout follow the real files.
 */

/** `genesis.LockedAmount`: `amount` nAVAX unlocked at `locktime` (unix seconds; 0 = at once). */
export type LockedAmount = { amount: bigint; locktime: bigint }

/** `genesis.Allocation`. */
export type GenesisAllocation = {
  ethAddr: Uint8Array
  /** The 20 bytes of the `X-…` address. */
  avaxAddr: Uint8Array
  /** AVAX on the X-Chain. */
  initialAmount: bigint
  /** AVAX on the P-Chain (or staked, for an initially staked address). */
  unlockSchedule: LockedAmount[]
}

/** `genesis.Config`, less the network id, stakers and start time (the emulator's nodes and clock decide those). */
export type GenesisConfig = {
  allocations: GenesisAllocation[]
  /** Addresses whose allocations are staked by the initial stakers, split among them. */
  initialStakedFunds: Uint8Array[]
  /** How many initial stakers the real file has: its staked funds are split among that many. */
  initialStakerCount: number
  /** Every initial staker's reward address. */
  rewardAddress: Uint8Array
  /** Seconds the first initial staker validates; each next one ends `initialStakeDurationOffset` earlier. */
  initialStakeDuration: number
  initialStakeDurationOffset: number
  cChainGenesis: string
  message: string
  /** `InitialSupply` where the allocations are not all reproduced (fuji, mainnet): the real network's. */
  initialSupply?: bigint
}

const addr = (bech32: string) => parseAddress(bech32).bytes

/** `genesis.EWOQKey`: `PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN`. */
export const EWOQ_PRIVATE_KEY = hexToBytes('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027')
/** ewoq's X/P address (`X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u`). */
export const EWOQ_ADDRESS = addr('X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u')
/** ewoq's C-Chain address. */
export const EWOQ_ETH_ADDRESS = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC'
/** The local genesis' staked address (`genesis.VMRQKey`, `PrivateKey-vmRQiZeXEXYMyJhEiqdC2z5JhuDbxL8ix9UVvjgMu2Er1NepE`). */
export const VMRQ_ADDRESS = addr('X-local1g65uqn6t77p656w64023nh8nd9updzmxyymev2')

/** The eth address every local allocation names (its bytes are the allocations' memo and UTXO messages). */
const LOCAL_ETH_ADDR = hexToBytes('0xb3d82b1367d362de99ab59a658165aff520cbd4d')
/** 2021-10-10 00:00 UTC: the local genesis' locktime, long past, so those outputs are unlocked. */
const LOCAL_LOCKTIME = 1633824000n

const STAKED_LOCAL: GenesisAllocation = { ethAddr: LOCAL_ETH_ADDR, avaxAddr: VMRQ_ADDRESS, initialAmount: 0n, unlockSchedule: [{ amount: 10_000_000_000_000_000n, locktime: LOCAL_LOCKTIME }] }

/** The local network's C-Chain genesis: ewoq holds 50,000,000 AVAX. */
const LOCAL_C_GENESIS =
  '{"config":{"chainId":43112,"homesteadBlock":0,"daoForkBlock":0,"daoForkSupport":true,"eip150Block":0,"eip150Hash":"0x2086799aeebeae135c246c65021c82b4e15a2c451340993aacfd2751886514f0","eip155Block":0,"eip158Block":0,"byzantiumBlock":0,"constantinopleBlock":0,"petersburgBlock":0,"istanbulBlock":0,"muirGlacierBlock":0,"apricotPhase1BlockTimestamp":0,"apricotPhase2BlockTimestamp":0},"nonce":"0x0","timestamp":"0x5FCB13D0","extraData":"0x00","gasLimit":"0x5f5e100","difficulty":"0x0","mixHash":"0x0000000000000000000000000000000000000000000000000000000000000000","coinbase":"0x0000000000000000000000000000000000000000","alloc":{"8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC":{"balance":"0x295BE96E64066972000000"}},"number":"0x0","gasUsed":"0x0","parentHash":"0x0000000000000000000000000000000000000000000000000000000000000000"}'

/** Fuji's and mainnet's C-Chain genesis: the same but for the chain id (the contract at 0x0100… is the old native asset caller). */
const realCGenesis = (chainId: number) =>
  `{"config":{"chainId":${chainId},"homesteadBlock":0,"daoForkBlock":0,"daoForkSupport":true,"eip150Block":0,"eip150Hash":"0x2086799aeebeae135c246c65021c82b4e15a2c451340993aacfd2751886514f0","eip155Block":0,"eip158Block":0,"byzantiumBlock":0,"constantinopleBlock":0,"petersburgBlock":0,"istanbulBlock":0,"muirGlacierBlock":0},"nonce":"0x0","timestamp":"0x0","extraData":"0x00","gasLimit":"0x5f5e100","difficulty":"0x0","mixHash":"0x0000000000000000000000000000000000000000000000000000000000000000","coinbase":"0x0000000000000000000000000000000000000000","alloc":{"0100000000000000000000000000000000000000":{"code":"0x7300000000000000000000000000000000000000003014608060405260043610603d5760003560e01c80631e010439146042578063b6510bb314606e575b600080fd5b605c60048036036020811015605657600080fd5b503560b1565b60408051918252519081900360200190f35b818015607957600080fd5b5060af60048036036080811015608e57600080fd5b506001600160a01b03813516906020810135906040810135906060013560b6565b005b30cd90565b836001600160a01b031681836108fc8690811502906040516000604051808303818888878c8acf9550505050505015801560f4573d6000803e3d6000fd5b505050505056fea26469706673582212201eebce970fe3f5cb96bf8ac6ba5f5c133fc2908ae3dcd51082cfee8f583429d064736f6c634300060a0033","balance":"0x0"}},"number":"0x0","gasUsed":"0x0","parentHash":"0x0000000000000000000000000000000000000000000000000000000000000000"}`

const STAKING = { initialStakerCount: 5, rewardAddress: EWOQ_ADDRESS, initialStakeDuration: 31_536_000, initialStakeDurationOffset: 5_400 }

/** `genesis_local.json`, as `genesis.LocalConfig` parses it. */
const LOCAL: GenesisConfig = {
  allocations: [
    STAKED_LOCAL,
    {
      ethAddr: LOCAL_ETH_ADDR,
      avaxAddr: EWOQ_ADDRESS,
      initialAmount: 300_000_000_000_000_000n,
      unlockSchedule: [{ amount: 20_000_000_000_000_000n, locktime: 0n }, { amount: 10_000_000_000_000_000n, locktime: LOCAL_LOCKTIME }],
    },
    {
      ethAddr: LOCAL_ETH_ADDR,
      avaxAddr: addr('X-local1ur873jhz9qnaqv5qthk5sn3e8nj3e0kmggalnu'),
      initialAmount: 10_000_000_000_000_000n,
      unlockSchedule: [{ amount: 10_000_000_000_000_000n, locktime: LOCAL_LOCKTIME }],
    },
  ],
  initialStakedFunds: [VMRQ_ADDRESS],
  ...STAKING,
  cChainGenesis: LOCAL_C_GENESIS,
  message: '{{ fun_quote }}',
}

/**
 * Each preset's genesis config. Fuji and mainnet fund nobody but the emulator's dev accounts (their
 * real holders are not reproduced, and ewoq holds nothing there); their initial stakers stake and
 * are rewarded as the local network's are.
 */
export const GENESIS_CONFIGS: Record<NetworkPresetName, GenesisConfig> = {
  local: LOCAL,
  fuji: { allocations: [STAKED_LOCAL], initialStakedFunds: [VMRQ_ADDRESS], ...STAKING, cChainGenesis: realCGenesis(43113), message: 'hi mom', initialSupply: 360_000_000_000_000_000n },
  mainnet: {
    allocations: [STAKED_LOCAL],
    initialStakedFunds: [VMRQ_ADDRESS],
    ...STAKING,
    cChainGenesis: realCGenesis(43114),
    message: 'From Snowflake to Avalanche. Per consensum ad astra.',
    initialSupply: 359_999_999_999_990_210n,
  },
}

/** The C-Chain balances (wei) a preset's genesis text allocates: ewoq's 50M AVAX on local, none elsewhere. */
export function cChainGenesisAlloc(preset: NetworkPresetName): Record<string, bigint> {
  const alloc = (JSON.parse(GENESIS_CONFIGS[preset].cChainGenesis) as { alloc: Record<string, { balance: string }> }).alloc
  const out: Record<string, bigint> = {}
  for (const [address, { balance }] of Object.entries(alloc)) if (BigInt(balance) > 0n) out[`0x${address.toLowerCase()}`] = BigInt(balance)
  return out
}

/**
 * The config for `count` initial stakers where the real file has {@link GenesisConfig.initialStakerCount}:
 * the staked allocations scaled so that each staker stakes what a real one does (2,000,000 AVAX on
 * the local network), whatever the number of nodes (an even split of the file's stake among fewer
 * nodes would put each above the maximum validator stake, and none could be delegated to).
 */
export function withStakerCount(config: GenesisConfig, count: number): GenesisConfig {
  if (count === config.initialStakerCount) return config
  const staked = new Set(config.initialStakedFunds.map((a) => Buffer.from(a).toString('hex')))
  const scale = (amount: bigint) => (amount * BigInt(count)) / BigInt(config.initialStakerCount)
  return {
    ...config,
    initialStakerCount: count,
    allocations: config.allocations.map((a) =>
      staked.has(Buffer.from(a.avaxAddr).toString('hex')) ? { ...a, unlockSchedule: a.unlockSchedule.map((u) => ({ ...u, amount: scale(u.amount) })) } : a,
    ),
  }
}

/** `genesis.Config.InitialSupply`: every allocation's X amount and P unlock amounts (or the real network's, see {@link GenesisConfig.initialSupply}). */
export function initialSupplyOf(config: GenesisConfig): bigint {
  if (config.initialSupply !== undefined) return config.initialSupply
  let total = 0n
  for (const a of config.allocations) {
    total += a.initialAmount
    for (const u of a.unlockSchedule) total += u.amount
  }
  return total
}
