import { EMPTY_ID, idFromString, vmIdFromName } from '../../core/ids.js'
import { CODEC_VERSION, Writer, encodeSignedTx, encodeUtxo } from '../codec.js'
import type { AvaxBaseTx, OutputOwners, PChainSignedTx, TransferOutput, TransferableOutput, Utxo } from '../txs.js'
import { compareBytes, concat } from '../xchain/bytes.js'
import type { GenesisAllocation, GenesisConfig, LockedAmount } from './config.js'

/**
 * The platformvm genesis (`vms/platformvm/genesis.Genesis`) as avalanchego's `genesis.FromConfig`
 * and `genesis.New` build it from a network's config: the P-Chain's UTXOs, its initial stakers as
 * AddPermissionlessValidatorTxs with their BLS signers, the X- and C-Chain CreateChainTxs, and the
 * bytes whose sha256 is the parent of the P-Chain's genesis block.
 */

/** What an initial staker brings: its node id and BLS key with proof of possession. */
export type GenesisStaker = { nodeId: Uint8Array; blsPublicKey: Uint8Array; proofOfPossession: Uint8Array }

/** A P-Chain UTXO of the genesis with its message (the allocation's eth address). */
export type GenesisUtxo = { utxo: Utxo; message: Uint8Array }

export type PlatformGenesis = {
  utxos: GenesisUtxo[]
  /** The initial stakers' txs, by end time (`txheap.NewByEndTime`). */
  validators: PChainSignedTx[]
  /** The X-Chain's and the C-Chain's CreateChainTx, in that order. */
  chains: PChainSignedTx[]
  timestamp: number
  initialSupply: bigint
  message: string
  /** `Genesis.Bytes()`. */
  bytes: Uint8Array
}

export type PlatformGenesisArgs = {
  networkId: number
  avaxAssetId: Uint8Array
  config: GenesisConfig
  stakers: readonly GenesisStaker[]
  /** Unix seconds: the P-Chain's genesis time and the stakers' start. */
  timestamp: number
  initialSupply: bigint
  /** The X-Chain's genesis data (`avm.Genesis` bytes). */
  xChainGenesis: Uint8Array
}

/** `constants.AVMID`, `constants.EVMID` and the X-Chain's fxs: names zero-padded to 32 bytes. */
const idOf = (name: string) => idFromString(vmIdFromName(name))
export const GENESIS_VM_IDS = { avm: idOf('avm'), evm: idOf('evm') }
const X_CHAIN_FX_IDS = [idOf('secp256k1fx'), idOf('nftfx'), idOf('propertyfx')]

/** The smallest delegation fee a staker may ask (`MinDelegationFee`, 2%). */
const MIN_DELEGATION_FEE = 20_000

/**
 * The initial stakers' delegation fees: the local genesis gives its five stakers 100%, 50%, 25%,
 * 12.5% and 6.25%; fuji goes on halving down to the 2% minimum, which the emulator follows for any
 * further node.
 */
export function genesisDelegationFee(index: number): number {
  return Math.max(Math.floor(1_000_000 / 2 ** index), MIN_DELEGATION_FEE)
}

export function buildPlatformGenesis(args: PlatformGenesisArgs): PlatformGenesis {
  const { networkId, avaxAssetId, config, stakers, timestamp } = args
  const time = BigInt(timestamp)
  const base = (): AvaxBaseTx => ({ networkId, blockchainId: idFromString(EMPTY_ID), outputs: [], inputs: [], memo: new Uint8Array(0) })
  const output = (amount: bigint, address: Uint8Array, locktime: bigint): TransferableOutput['output'] => {
    const out: TransferOutput = { type: 'TransferOutput', amount, owners: { locktime: 0n, threshold: 1, addrs: [address] } }
    // An amount still locked at genesis can only be staked until then (`stakeable.LockOut`).
    return locktime > time ? { type: 'StakeableLockOut', locktime, output: out } : out
  }
  const staked = new Set(config.initialStakedFunds.map((a) => Buffer.from(a).toString('hex')))
  const isStaked = (a: GenesisAllocation) => staked.has(Buffer.from(a.avaxAddr).toString('hex'))

  const utxos: GenesisUtxo[] = []
  for (const allocation of config.allocations) {
    if (isStaked(allocation)) continue
    for (const unlock of allocation.unlockSchedule) {
      if (unlock.amount === 0n) continue
      const utxo: Utxo = { txId: idFromString(EMPTY_ID), outputIndex: utxos.length, assetId: avaxAssetId, output: output(unlock.amount, allocation.avaxAddr, unlock.locktime) }
      utxos.push({ utxo, message: allocation.ethAddr })
    }
  }

  const split = stakers.length > 0 ? splitAllocations(config.allocations.filter(isStaked), stakers.length) : []
  const rewardOwner: OutputOwners = { locktime: 0n, threshold: 1, addrs: [config.rewardAddress] }
  const validators = stakers.map((staker, i) => {
    const stake = split[i]!.flatMap((a) => a.unlockSchedule.map((u) => ({ ...u, address: a.avaxAddr }))).sort(compareStaked)
    const stakeOuts: TransferableOutput[] = stake.map((s) => ({ assetId: avaxAssetId, output: output(s.amount, s.address, s.locktime) }))
    const weight = stake.reduce((sum, s) => sum + s.amount, 0n)
    const end = time + BigInt(config.initialStakeDuration - i * config.initialStakeDurationOffset)
    const tx: PChainSignedTx = {
      unsigned: {
        type: 'AddPermissionlessValidatorTx',
        base: base(),
        validator: { nodeId: staker.nodeId, start: time, end, weight },
        subnetId: idFromString(EMPTY_ID),
        signer: { type: 'ProofOfPossession', publicKey: staker.blsPublicKey, signature: staker.proofOfPossession },
        stakeOuts,
        validatorRewardsOwner: rewardOwner,
        delegatorRewardsOwner: rewardOwner,
        delegationShares: genesisDelegationFee(i),
      },
      credentials: [],
    }
    return { tx, end, index: i }
  })
  validators.sort((a, b) => (a.end < b.end ? -1 : a.end > b.end ? 1 : a.index - b.index))

  const chain = (name: string, vmId: Uint8Array, fxIds: Uint8Array[], genesisData: Uint8Array): PChainSignedTx => ({
    unsigned: { type: 'CreateChainTx', base: base(), subnetId: idFromString(EMPTY_ID), chainName: name, vmId, fxIds, genesisData, subnetAuth: { sigIndices: [] } },
    credentials: [],
  })
  const chains = [
    chain('X-Chain', GENESIS_VM_IDS.avm, X_CHAIN_FX_IDS, args.xChainGenesis),
    chain('C-Chain', GENESIS_VM_IDS.evm, [], new TextEncoder().encode(config.cChainGenesis)),
  ]
  const genesis = { utxos, validators: validators.map((v) => v.tx), chains, timestamp, initialSupply: args.initialSupply, message: config.message }
  return { ...genesis, bytes: encodePlatformGenesis(genesis) }
}

type StakedAmount = LockedAmount & { address: Uint8Array }

/** `genesis.Allocation.Compare` (platformvm): by locktime, amount, then address. */
function compareStaked(a: StakedAmount, b: StakedAmount): number {
  if (a.locktime !== b.locktime) return a.locktime < b.locktime ? -1 : 1
  if (a.amount !== b.amount) return a.amount < b.amount ? -1 : 1
  return compareBytes(a.address, b.address)
}

/**
 * `genesis.splitAllocations`: the staked allocations cut into `count` runs of equal weight (the
 * last takes the remainder), an unlock split across two stakers where a run ends inside it.
 */
export function splitAllocations(allocations: readonly GenesisAllocation[], count: number): GenesisAllocation[][] {
  let total = 0n
  for (const a of allocations) for (const u of a.unlockSchedule) total += u.amount
  const nodeWeight = total / BigInt(count)
  const all: GenesisAllocation[][] = []
  let current: GenesisAllocation[] = []
  let currentAmount = 0n
  for (const allocation of allocations) {
    let piece: GenesisAllocation = { ...allocation, initialAmount: 0n, unlockSchedule: [] }
    for (const original of allocation.unlockSchedule) {
      const unlock = { ...original }
      while (currentAmount + unlock.amount > nodeWeight && all.length < count - 1) {
        const amountToAdd = nodeWeight - currentAmount
        piece.unlockSchedule.push({ amount: amountToAdd, locktime: unlock.locktime })
        unlock.amount -= amountToAdd
        current.push(piece)
        all.push(current)
        current = []
        currentAmount = 0n
        piece = { ...allocation, initialAmount: 0n, unlockSchedule: [] }
      }
      if (unlock.amount === 0n) continue
      piece.unlockSchedule.push({ amount: unlock.amount, locktime: unlock.locktime })
      currentAmount += unlock.amount
    }
    if (piece.unlockSchedule.length > 0) current.push(piece)
  }
  all.push(current)
  return all
}

/**
 * `Genesis.Bytes()` with the platformvm genesis codec: the UTXOs (each `avax.UTXO` then its message
 * as bytes), the validator and chain txs (each `txs.Tx`: the unsigned tx as an interface value,
 * then its credentials), the timestamp, the initial supply and the message.
 */
export function encodePlatformGenesis(g: Omit<PlatformGenesis, 'bytes'>): Uint8Array {
  const parts: Uint8Array[] = [new Writer().u16(CODEC_VERSION).u32(g.utxos.length).finish()]
  for (const { utxo, message } of g.utxos) parts.push(encodeUtxo('P', utxo).subarray(2), new Writer().bytes(message).finish())
  for (const txs of [g.validators, g.chains]) {
    parts.push(new Writer().u32(txs.length).finish())
    for (const tx of txs) parts.push(encodeSignedTx('P', tx).subarray(2))
  }
  parts.push(new Writer().u64(BigInt(g.timestamp)).u64(g.initialSupply).str(g.message).finish())
  return concat(...parts)
}
