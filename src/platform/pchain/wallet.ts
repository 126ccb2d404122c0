import { InvalidArgumentError, InvalidStateError } from '../../core/errors.js'
import { hexToBytes, type Hex } from '../../core/hex.js'
import { idFromString, nodeIdToString, parseNodeId } from '../../core/ids.js'
import { encodeAddressedCall, encodeMessage, parseAddressedCall, parseMessage, type UnsignedMessage } from '../../evm/warp/codec.js'
import { canonicalValidatorSet, signMessage } from '../../evm/warp/signature.js'
import { NETWORK_PRESETS } from '../../core/presets.js'
import type { SharedMemory } from '../atomic.js'
import { decodeUtxo, encodeTransferableOutput, encodeUnsignedTx } from '../codec.js'
import { credentialFor } from '../secp256k1fx.js'
import type {
  AvaxBaseTx,
  ConvertSubnetToL1Validator,
  Input,
  OutputOwners,
  PChainOwner,
  PChainSignedTx,
  PChainUnsignedTx,
  ShortId,
  TransferableInput,
  TransferableOutput,
  Utxo,
} from '../txs.js'
import { amountOf, showId } from '../txs.js'
import { addressBytes } from '../xchain/chain.js'
import type { Keychain } from '../xchain/wallet.js'
import type { IssueResult, PChain } from './chain.js'
import { utxoKey } from './executor.js'
import { conversionValidationId, encodeL1ValidatorWeight, encodeRegisterL1Validator, parsePChainWarpPayload, registerValidationId } from './warpMessages.js'

/**
 * Builds, signs and issues every P-chain transaction a user drives, from a {@link Keychain} of
 * secp256k1 keys (the dev accounts' keys: an address is ripemd160(sha256(compressed public key))),
 * as avalanchego's `wallet/chain/p/builder` + `signer` do:
 *
 * - coin selection over the keychain's UTXOs on the P-chain: stakeable-locked UTXOs (locktime in
 *   the future) only to stake, then unlocked UTXOs to burn (fee, balances, exports) and then to
 *   stake; one unlocked change output per asset to the change owner, locked change kept locked;
 * - the fee is the chain's Etna dynamic fee of the built tx (`PChain.fee`): the tx is built with a
 *   zero fee, priced, and rebuilt with that fee until the price no longer changes (more inputs
 *   cost more gas);
 * - inputs sorted by (tx id, index), outputs and stake outputs by their codec bytes, owner
 *   addresses sorted;
 * - one credential per input (base inputs, then imported inputs), then one for the subnet /
 *   disable authorization, each with one 65-byte signature per signer over sha256(unsigned bytes).
 *
 * Warp messages (RegisterL1ValidatorTx, SetL1ValidatorWeightTx) are AddressedCalls from the L1's
 * validator manager (the conversion's chain id and address) carrying the ACP-77 payloads of
 * `warpMessages.ts`. The P-chain verifies their BLS aggregate signature (67% of the L1's weight,
 * `warpVerifier.ts`; proofs of possession are not verified): pass `warpSigners` (BLS secret keys
 * of the L1's current validators, e.g. from `createNodeIdentity`), or give the wallet `warpKey`
 * (a network's wallets do: its simulated nodes) to have the L1's validators sign; with neither the
 * message carries an empty signer set and a zero signature, which the P-chain refuses.
 *
 * Every issuing method goes through the chain's mempool (`PChain.mempool.issueNow`: verified as
 * the node verifies a tx it is sent, then built into a block at once whatever the build mode) and
 * returns the P-chain's {@link IssueResult} (`txId`, `height`, `blockId`, `fee`) plus the signed tx
 * and, where the tx creates something, its id. A refusal is a `PChainIssueError` with the node's
 * text (`failed verification: failed execution: standard tx <id> failed execution: …`).
 */

/** A node's identity as the wallet needs it (`createNodeIdentity` satisfies it). */
export type NodeSigner = {
  /** `NodeID-…` or 20 bytes. */
  nodeId: string | Uint8Array
  /** Compressed G1, 48 bytes. */
  blsPublicKey: Hex | Uint8Array
  /** 96 bytes: the public key signed under the proof-of-possession DST. */
  proofOfPossession: Hex | Uint8Array
}

/** A validator's BLS secret key, to sign warp messages. */
export type WarpSigner = { blsSecretKey: Uint8Array }

/** Owners by address (`P-…` bech32 or 20 bytes); threshold 1 and no locktime unless given. */
export type OwnerSpec = { addresses: Array<ShortId | string>; threshold?: number; locktime?: bigint }

export type Recipient = { address: ShortId | string; amount: bigint; locktime?: bigint }

export type PIssued = IssueResult & { tx: PChainSignedTx }

export type PWalletOptions = {
  /** Where change (and, unless told otherwise, stake and rewards) goes. Default the keychain's first address. */
  changeAddress?: ShortId | string
  /** The network's shared memory, for {@link PWallet.importFrom}. */
  sharedMemory?: SharedMemory
  /** cb58 ids of the X- and C-chains. Default: the preset whose network id is the P-chain's. */
  xChainId?: string
  cChainId?: string
  /**
   * The BLS key of a validator's node, when this process runs it: a validator manager's warp
   * message without `warpSigners` is then signed by the L1's validators found here (what a
   * relayer gets them to do). Without it, or with none found, the message goes unsigned.
   */
  warpKey?: (nodeId: string) => WarpSigner | undefined
}

type Picked = { input: TransferableInput; keys: Uint8Array[] }

type SpendPlan = { inputs: Picked[]; imported: Picked[]; outputs: TransferableOutput[]; stakeOuts: TransferableOutput[] }

type SpendNeeds = {
  /** Unlocked AVAX to consume without producing it (the fee is added by the builder). */
  burn: bigint
  /** AVAX to move into stake outputs. */
  stake?: bigint
  /** Atomic inputs already chosen (ImportTx). */
  imported?: Picked[]
  changeOwner?: OutputOwners
  stakeOwner?: OutputOwners
}

const compareBytes = (a: Uint8Array, b: Uint8Array): number => {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!
  return a.length - b.length
}

const toBytes = (v: Hex | Uint8Array): Uint8Array => (typeof v === 'string' ? hexToBytes(v) : v)
const nodeIdBytes = (v: string | Uint8Array): Uint8Array => (typeof v === 'string' ? parseNodeId(v) : v)
const idBytes = (v: string | Uint8Array): Uint8Array => (typeof v === 'string' ? idFromString(v) : v)

/** OutputOwners with sorted addresses. */
export function outputOwners(spec: OwnerSpec): OutputOwners {
  const addrs = spec.addresses.map(addressBytes).sort(compareBytes)
  return { locktime: spec.locktime ?? 0n, threshold: spec.threshold ?? 1, addrs }
}

/** A warp `PChainOwner` (no locktime) with sorted addresses. */
export function pchainOwner(spec: OwnerSpec): PChainOwner {
  const { threshold, addrs } = outputOwners(spec)
  return { threshold, addrs }
}

export function compareOutputs(a: TransferableOutput, b: TransferableOutput): number {
  return compareBytes(encodeTransferableOutput('P', a), encodeTransferableOutput('P', b))
}

/** Signs `unsigned`: credential `i` holds one signature per key of `signers[i]`, over sha256(unsigned bytes). */
export function signPChainTx(unsigned: PChainUnsignedTx, signers: Uint8Array[][]): PChainSignedTx {
  const bytes = encodeUnsignedTx('P', unsigned)
  return { unsigned, credentials: signers.map((keys) => credentialFor(bytes, keys)) }
}

const MAX_FEE_ROUNDS = 16

export class PWallet {
  readonly chain: PChain
  readonly keychain: Keychain
  changeAddress: ShortId
  readonly sharedMemory: SharedMemory | undefined
  readonly #warpKey: PWalletOptions['warpKey']
  readonly xChainId: string
  readonly cChainId: string

  constructor(chain: PChain, keychain: Keychain, options: PWalletOptions = {}) {
    this.chain = chain
    this.keychain = keychain
    const first = options.changeAddress ?? keychain.addresses()[0]
    if (!first) throw new InvalidArgumentError('the keychain has no keys')
    this.changeAddress = addressBytes(first)
    this.sharedMemory = options.sharedMemory
    this.#warpKey = options.warpKey
    const preset = Object.values(NETWORK_PRESETS).find((p) => p.networkId === chain.config.networkId) ?? NETWORK_PRESETS.local
    this.xChainId = options.xChainId ?? preset.xChainId
    this.cChainId = options.cChainId ?? preset.cChainId
  }

  // --- plumbing ----------------------------------------------------------------------------------

  get #now(): bigint {
    return BigInt(this.chain.timestamp)
  }

  get #avax(): string {
    return this.chain.config.avaxAssetId
  }

  #owner(spec?: OwnerSpec): OutputOwners {
    return spec ? outputOwners(spec) : { locktime: 0n, threshold: 1, addrs: [this.changeAddress] }
  }

  #pOwner(spec?: OwnerSpec): PChainOwner {
    const { threshold, addrs } = this.#owner(spec)
    return { threshold, addrs }
  }

  #base(plan: SpendPlan): AvaxBaseTx {
    return {
      networkId: this.chain.config.networkId,
      blockchainId: idFromString(this.chain.chainId),
      outputs: plan.outputs,
      inputs: plan.inputs.map((p) => p.input),
      memo: new Uint8Array(),
    }
  }

  /** The keychain's spendable UTXOs on the P-chain, without duplicates. */
  #utxos(): Utxo[] {
    const seen = new Set<string>()
    const out: Utxo[] = []
    for (const addr of this.keychain.addresses()) {
      for (const u of this.chain.utxosOf(addr)) {
        const k = utxoKey(u.txId, u.outputIndex)
        if (seen.has(k)) continue
        seen.add(k)
        out.push(u)
      }
    }
    return out
  }

  /** `builder.spend`: picks inputs covering `burn` (+ `stake`), with change and stake outputs. */
  #select(n: SpendNeeds): SpendPlan {
    const now = this.#now
    const avax = this.#avax
    const avaxId = idFromString(avax)
    const changeOwner = n.changeOwner ?? this.#owner()
    const stakeOwner = n.stakeOwner ?? changeOwner
    let burn = n.burn
    let stake = n.stake ?? 0n
    const inputs: Picked[] = []
    const outputs: TransferableOutput[] = []
    const stakeOuts: TransferableOutput[] = []
    const change = new Map<string, bigint>()
    const addChange = (asset: string, v: bigint) => { if (v > 0n) change.set(asset, (change.get(asset) ?? 0n) + v) }
    let unlockedStake = 0n
    // unlocked AVAX (imported or spent) goes to the burn first, then to the stake
    const useUnlocked = (amount: bigint) => {
      const b = amount < burn ? amount : burn
      burn -= b
      const s = amount - b < stake ? amount - b : stake
      stake -= s
      unlockedStake += s
      addChange(avax, amount - b - s)
    }
    for (const p of n.imported ?? []) {
      const asset = showId(p.input.assetId)
      if (asset === avax) useUnlocked(amountOf(p.input.input))
      else addChange(asset, amountOf(p.input.input))
    }
    const utxos = this.#utxos()
    // stakeable-locked UTXOs: only for staking, their remainder stays locked with the same owners
    for (const u of utxos) {
      if (stake === 0n) break
      const out = u.output
      if (out.type !== 'StakeableLockOut' || out.locktime <= now || showId(u.assetId) !== avax) continue
      const m = this.keychain.match(out.output.owners, now)
      if (!m) continue
      const amount = out.output.amount
      inputs.push({
        input: { txId: u.txId, outputIndex: u.outputIndex, assetId: u.assetId, input: { type: 'StakeableLockIn', locktime: out.locktime, input: { type: 'TransferInput', amount, sigIndices: m.sigIndices } } },
        keys: m.keys,
      })
      const staked = amount < stake ? amount : stake
      stake -= staked
      stakeOuts.push({ assetId: avaxId, output: { type: 'StakeableLockOut', locktime: out.locktime, output: { type: 'TransferOutput', amount: staked, owners: out.output.owners } } })
      if (amount > staked) outputs.push({ assetId: avaxId, output: { type: 'StakeableLockOut', locktime: out.locktime, output: { type: 'TransferOutput', amount: amount - staked, owners: out.output.owners } } })
    }
    for (const u of utxos) {
      if (burn === 0n && stake === 0n) break
      if (showId(u.assetId) !== avax) continue
      const out = u.output
      let transfer
      if (out.type === 'TransferOutput') transfer = out
      else if (out.type === 'StakeableLockOut' && out.locktime <= now) transfer = out.output
      else continue
      const m = this.keychain.match(transfer.owners, now)
      if (!m) continue
      inputs.push({ input: { txId: u.txId, outputIndex: u.outputIndex, assetId: u.assetId, input: { type: 'TransferInput', amount: transfer.amount, sigIndices: m.sigIndices } }, keys: m.keys })
      useUnlocked(transfer.amount)
    }
    if (stake > 0n) throw new InvalidStateError(`insufficient funds: provided UTXOs need ${stake} more units of asset "${avax}" to stake`)
    if (burn > 0n) throw new InvalidStateError(`insufficient funds: provided UTXOs need ${burn} more units of asset "${avax}"`)
    if (unlockedStake > 0n) stakeOuts.push({ assetId: avaxId, output: { type: 'TransferOutput', amount: unlockedStake, owners: stakeOwner } })
    for (const [asset, amount] of change) outputs.push({ assetId: idFromString(asset), output: { type: 'TransferOutput', amount, owners: changeOwner } })
    const byInput = (a: Picked, b: Picked) => compareBytes(a.input.txId, b.input.txId) || a.input.outputIndex - b.input.outputIndex
    return {
      inputs: inputs.sort(byInput),
      imported: [...(n.imported ?? [])].sort(byInput),
      outputs: outputs.sort(compareOutputs),
      stakeOuts: stakeOuts.sort(compareOutputs),
    }
  }

  /**
   * Builds with a zero fee, prices the tx with the chain's dynamic fee, and rebuilds with that fee
   * until it no longer changes; signs base inputs, imported inputs, then `authSigners`.
   */
  #build(needs: SpendNeeds, make: (plan: SpendPlan, base: AvaxBaseTx) => PChainUnsignedTx, authSigners: Uint8Array[][] = []): PChainSignedTx {
    let fee = 0n
    for (let round = 0; round < MAX_FEE_ROUNDS; round++) {
      const plan = this.#select({ ...needs, burn: needs.burn + fee })
      const unsigned = make(plan, this.#base(plan))
      const price = this.chain.fee(unsigned)
      if (price <= fee) return signPChainTx(unsigned, [...plan.inputs.map((p) => p.keys), ...plan.imported.map((p) => p.keys), ...authSigners])
      fee = price
    }
    throw new InvalidStateError('the transaction fee did not converge')
  }

  /** Through the chain's mempool, as every user's tx goes, built into a block at once. */
  #issue(tx: PChainSignedTx): PIssued {
    return { ...this.chain.mempool.issueNow(tx), tx }
  }

  /** The signature indices and keys that satisfy `owner` (subnet owner, deactivation owner). */
  #auth(owner: { threshold: number; addrs: ShortId[]; locktime?: bigint }, what: string): { input: Input; keys: Uint8Array[] } {
    const m = this.keychain.match({ locktime: owner.locktime ?? 0n, threshold: owner.threshold, addrs: owner.addrs }, this.#now)
    if (!m) throw new InvalidStateError(`the keychain cannot sign for the ${what}`)
    return { input: { sigIndices: m.sigIndices }, keys: m.keys }
  }

  #subnetAuth(subnetId: string) {
    const subnet = this.chain.state.getSubnet(subnetId)
    if (!subnet) throw new InvalidStateError(`subnet ${subnetId} not found`)
    return this.#auth(subnet.owner, `owner of subnet ${subnetId}`)
  }

  #l1Validator(validationId: string) {
    const v = this.chain.state.getL1Validator(validationId)
    if (!v) throw new InvalidStateError(`L1 validator ${validationId} not found`)
    return v
  }

  /** A signed warp message from the L1's validator manager carrying `payload`. */
  #warp(subnetId: string, payload: Uint8Array, signers: readonly WarpSigner[] | undefined): Uint8Array {
    const conversion = this.chain.state.getSubnet(subnetId)?.conversion
    if (!conversion) throw new InvalidStateError(`subnet ${subnetId} is not converted to an L1`)
    const unsigned: UnsignedMessage = {
      networkId: this.chain.config.networkId,
      sourceChainId: idFromString(conversion.chainId),
      payload: encodeAddressedCall(hexToBytes(conversion.address as Hex), payload),
    }
    const validators = this.chain.validatorSets().get(subnetId) ?? []
    const chosen = signers ?? validators.flatMap((v) => this.#warpKey?.(v.nodeId) ?? [])
    if (chosen.length === 0) return encodeMessage(unsigned, { signers: new Uint8Array(), signature: new Uint8Array(96) })
    return encodeMessage(unsigned, signMessage(unsigned, chosen, canonicalValidatorSet(validators)))
  }

  // --- operations ------------------------------------------------------------------------------

  /** BaseTx paying AVAX to `recipients` (optionally time-locked). */
  buildSend(recipients: Recipient[]): PChainSignedTx {
    const avaxId = idFromString(this.#avax)
    const outs: TransferableOutput[] = recipients.map((r) => ({ assetId: avaxId, output: { type: 'TransferOutput', amount: r.amount, owners: outputOwners({ addresses: [r.address], locktime: r.locktime ?? 0n }) } }))
    const burn = recipients.reduce((s, r) => s + r.amount, 0n)
    return this.#build({ burn }, (plan, base) => ({ type: 'BaseTx', base: { ...base, outputs: [...outs, ...plan.outputs].sort(compareOutputs) } }))
  }

  send(recipients: Recipient[]): PIssued {
    return this.#issue(this.buildSend(recipients))
  }

  /**
   * AddPermissionlessValidatorTx on the primary network with the node's BLS key and proof of
   * possession. Post-Durango the validation starts at the chain time (`start` is ignored by the
   * chain; it defaults to the chain time). `delegationFee` in parts per million (default the minimum).
   */
  buildAddValidator(args: {
    node: NodeSigner
    stake: bigint
    end: number
    start?: number
    delegationFee?: number
    rewardsOwner?: OwnerSpec
    delegationRewardsOwner?: OwnerSpec
    stakeOwner?: OwnerSpec
  }): PChainSignedTx {
    const rewards = this.#owner(args.rewardsOwner)
    const delegationRewards = args.delegationRewardsOwner ? this.#owner(args.delegationRewardsOwner) : rewards
    return this.#build({ burn: 0n, stake: args.stake, ...(args.stakeOwner ? { stakeOwner: this.#owner(args.stakeOwner) } : {}) }, (plan, base) => ({
      type: 'AddPermissionlessValidatorTx',
      base,
      validator: { nodeId: nodeIdBytes(args.node.nodeId), start: BigInt(args.start ?? this.chain.timestamp), end: BigInt(args.end), weight: args.stake },
      subnetId: new Uint8Array(32),
      signer: { type: 'ProofOfPossession', publicKey: toBytes(args.node.blsPublicKey), signature: toBytes(args.node.proofOfPossession) },
      stakeOuts: plan.stakeOuts,
      validatorRewardsOwner: rewards,
      delegatorRewardsOwner: delegationRewards,
      delegationShares: args.delegationFee ?? this.chain.config.staking.minDelegationFee,
    }))
  }

  addValidator(args: Parameters<PWallet['buildAddValidator']>[0]): PIssued {
    return this.#issue(this.buildAddValidator(args))
  }

  /** AddPermissionlessDelegatorTx to a primary network validator. */
  buildAddDelegator(args: { nodeId: string | Uint8Array; stake: bigint; end: number; start?: number; rewardsOwner?: OwnerSpec; stakeOwner?: OwnerSpec }): PChainSignedTx {
    return this.#build({ burn: 0n, stake: args.stake, ...(args.stakeOwner ? { stakeOwner: this.#owner(args.stakeOwner) } : {}) }, (plan, base) => ({
      type: 'AddPermissionlessDelegatorTx',
      base,
      validator: { nodeId: nodeIdBytes(args.nodeId), start: BigInt(args.start ?? this.chain.timestamp), end: BigInt(args.end), weight: args.stake },
      subnetId: new Uint8Array(32),
      stakeOuts: plan.stakeOuts,
      delegatorRewardsOwner: this.#owner(args.rewardsOwner),
    }))
  }

  addDelegator(args: Parameters<PWallet['buildAddDelegator']>[0]): PIssued {
    return this.#issue(this.buildAddDelegator(args))
  }

  /** CreateSubnetTx; the subnet id is the tx id. Owner default: the change address. */
  buildCreateSubnet(args: { owner?: OwnerSpec } = {}): PChainSignedTx {
    const owner = this.#owner(args.owner)
    return this.#build({ burn: 0n }, (_plan, base) => ({ type: 'CreateSubnetTx', base, owner }))
  }

  createSubnet(args: { owner?: OwnerSpec } = {}): PIssued & { subnetId: string } {
    const r = this.#issue(this.buildCreateSubnet(args))
    return { ...r, subnetId: r.txId }
  }

  /** CreateChainTx, signed by the subnet owner; the blockchain id is the tx id. */
  buildCreateChain(args: { subnetId: string; name: string; vmId: string | Uint8Array; fxIds?: Array<string | Uint8Array>; genesis: Uint8Array | string }): PChainSignedTx {
    const auth = this.#subnetAuth(args.subnetId)
    const genesisData = typeof args.genesis === 'string' ? new TextEncoder().encode(args.genesis) : args.genesis
    return this.#build({ burn: 0n }, (_plan, base) => ({
      type: 'CreateChainTx', base, subnetId: idFromString(args.subnetId), chainName: args.name, vmId: idBytes(args.vmId),
      fxIds: (args.fxIds ?? []).map(idBytes), genesisData, subnetAuth: auth.input,
    }), [auth.keys])
  }

  createChain(args: Parameters<PWallet['buildCreateChain']>[0]): PIssued & { blockchainId: string } {
    const r = this.#issue(this.buildCreateChain(args))
    return { ...r, blockchainId: r.txId }
  }

  /** AddSubnetValidatorTx (permissioned subnet), signed by the subnet owner. */
  buildAddSubnetValidator(args: { subnetId: string; nodeId: string | Uint8Array; weight: bigint; end: number; start?: number }): PChainSignedTx {
    const auth = this.#subnetAuth(args.subnetId)
    return this.#build({ burn: 0n }, (_plan, base) => ({
      type: 'AddSubnetValidatorTx', base,
      validator: { nodeId: nodeIdBytes(args.nodeId), start: BigInt(args.start ?? this.chain.timestamp), end: BigInt(args.end), weight: args.weight },
      subnetId: idFromString(args.subnetId), subnetAuth: auth.input,
    }), [auth.keys])
  }

  addSubnetValidator(args: Parameters<PWallet['buildAddSubnetValidator']>[0]): PIssued {
    return this.#issue(this.buildAddSubnetValidator(args))
  }

  /** RemoveSubnetValidatorTx, signed by the subnet owner. */
  buildRemoveSubnetValidator(args: { subnetId: string; nodeId: string | Uint8Array }): PChainSignedTx {
    const auth = this.#subnetAuth(args.subnetId)
    return this.#build({ burn: 0n }, (_plan, base) => ({
      type: 'RemoveSubnetValidatorTx', base, nodeId: nodeIdBytes(args.nodeId), subnetId: idFromString(args.subnetId), subnetAuth: auth.input,
    }), [auth.keys])
  }

  removeSubnetValidator(args: Parameters<PWallet['buildRemoveSubnetValidator']>[0]): PIssued {
    return this.#issue(this.buildRemoveSubnetValidator(args))
  }

  /** TransferSubnetOwnershipTx, signed by the current owner. */
  buildTransferSubnetOwnership(args: { subnetId: string; owner: OwnerSpec }): PChainSignedTx {
    const auth = this.#subnetAuth(args.subnetId)
    const owner = this.#owner(args.owner)
    return this.#build({ burn: 0n }, (_plan, base) => ({
      type: 'TransferSubnetOwnershipTx', base, subnetId: idFromString(args.subnetId), subnetAuth: auth.input, owner,
    }), [auth.keys])
  }

  transferSubnetOwnership(args: Parameters<PWallet['buildTransferSubnetOwnership']>[0]): PIssued {
    return this.#issue(this.buildTransferSubnetOwnership(args))
  }

  /**
   * ConvertSubnetToL1Tx: the validator manager lives at `address` on `chainId`; the initial
   * validators (sorted by node id, as the real tx requires) with weights, balances (burned from the
   * keychain's funds), BLS keys with proofs of possession, and owners (default the change address).
   * Returns each validator's validation id (`subnetID.Append(index)`).
   */
  buildConvertSubnetToL1(args: {
    subnetId: string
    chainId: string | Uint8Array
    address: Hex | Uint8Array
    validators: Array<{ node: NodeSigner; weight: bigint; balance: bigint; remainingBalanceOwner?: OwnerSpec; deactivationOwner?: OwnerSpec }>
  }): { tx: PChainSignedTx; validators: Array<{ nodeId: string; validationId: string }> } {
    const auth = this.#subnetAuth(args.subnetId)
    const subnetId = idFromString(args.subnetId)
    const validators: ConvertSubnetToL1Validator[] = args.validators
      .map((v) => ({
        nodeId: nodeIdBytes(v.node.nodeId),
        weight: v.weight,
        balance: v.balance,
        signer: { publicKey: toBytes(v.node.blsPublicKey), signature: toBytes(v.node.proofOfPossession) },
        remainingBalanceOwner: this.#pOwner(v.remainingBalanceOwner),
        deactivationOwner: this.#pOwner(v.deactivationOwner),
      }))
      .sort((a, b) => compareBytes(a.nodeId, b.nodeId))
    const burn = validators.reduce((s, v) => s + v.balance, 0n)
    const tx = this.#build({ burn }, (_plan, base) => ({
      type: 'ConvertSubnetToL1Tx', base, subnetId, chainId: idBytes(args.chainId), address: toBytes(args.address), validators, subnetAuth: auth.input,
    }), [auth.keys])
    return { tx, validators: validators.map((v, i) => ({ nodeId: nodeIdToString(v.nodeId), validationId: showId(conversionValidationId(subnetId, i)) })) }
  }

  convertSubnetToL1(args: Parameters<PWallet['buildConvertSubnetToL1']>[0]): PIssued & { validators: Array<{ nodeId: string; validationId: string }> } {
    const { tx, validators } = this.buildConvertSubnetToL1(args)
    return { ...this.#issue(tx), validators }
  }

  /**
   * RegisterL1ValidatorTx: a RegisterL1Validator warp message from the L1's validator manager
   * (expiry default chain time + 1 h; at most 24 h ahead), the node's proof of possession, and
   * `balance` burned into the validator's fee balance. Returns the validation id (sha256 of the payload).
   */
  buildRegisterL1Validator(args: {
    subnetId: string
    node: NodeSigner
    weight: bigint
    balance: bigint
    expiry?: number
    remainingBalanceOwner?: OwnerSpec
    disableOwner?: OwnerSpec
    warpSigners?: readonly WarpSigner[]
  }): { tx: PChainSignedTx; validationId: string } {
    const payload = encodeRegisterL1Validator({
      subnetId: idFromString(args.subnetId),
      nodeId: nodeIdBytes(args.node.nodeId),
      blsPublicKey: toBytes(args.node.blsPublicKey),
      expiry: BigInt(args.expiry ?? this.chain.timestamp + 3600),
      remainingBalanceOwner: this.#pOwner(args.remainingBalanceOwner),
      disableOwner: this.#pOwner(args.disableOwner),
      weight: args.weight,
    })
    const message = this.#warp(args.subnetId, payload, args.warpSigners)
    const proofOfPossession = toBytes(args.node.proofOfPossession)
    const tx = this.#build({ burn: args.balance }, (_plan, base) => ({ type: 'RegisterL1ValidatorTx', base, balance: args.balance, proofOfPossession, message }))
    return { tx, validationId: showId(registerValidationId(payload)) }
  }

  registerL1Validator(args: Parameters<PWallet['buildRegisterL1Validator']>[0]): PIssued & { validationId: string } {
    const { tx, validationId } = this.buildRegisterL1Validator(args)
    return { ...this.#issue(tx), validationId }
  }

  /**
   * SetL1ValidatorWeightTx: an L1ValidatorWeight warp message (nonce default the validator's
   * current minimum nonce) from the L1's validator manager. Weight 0 removes the validator.
   */
  buildSetL1ValidatorWeight(args: { validationId: string; weight: bigint; nonce?: bigint; warpSigners?: readonly WarpSigner[] }): PChainSignedTx {
    const v = this.#l1Validator(args.validationId)
    const payload = encodeL1ValidatorWeight({ validationId: idFromString(args.validationId), nonce: args.nonce ?? v.minNonce, weight: args.weight })
    const message = this.#warp(v.subnetId, payload, args.warpSigners)
    return this.#build({ burn: 0n }, (_plan, base) => ({ type: 'SetL1ValidatorWeightTx', base, message }))
  }

  setL1ValidatorWeight(args: Parameters<PWallet['buildSetL1ValidatorWeight']>[0]): PIssued {
    return this.#issue(this.buildSetL1ValidatorWeight(args))
  }

  /**
   * The tx that carries a signed warp message from an L1's validator manager to the P-chain, as a
   * relayer issues it: RegisterL1ValidatorTx (with `balance` and the registered node's
   * `proofOfPossession`) for a RegisterL1Validator payload, SetL1ValidatorWeightTx otherwise (the
   * executor refuses any other payload with the node's error).
   */
  buildWarpMessageTx(args: { message: Uint8Array; balance?: bigint; proofOfPossession?: Uint8Array }): PChainSignedTx {
    const { message } = args
    const payload = (() => {
      try {
        return parsePChainWarpPayload(parseAddressedCall(parseMessage(message).unsigned.payload).payload)
      } catch {
        return undefined
      }
    })()
    if (payload?.type !== 'RegisterL1Validator') return this.#build({ burn: 0n }, (_plan, base) => ({ type: 'SetL1ValidatorWeightTx', base, message }))
    const balance = args.balance ?? 0n
    const proofOfPossession = args.proofOfPossession ?? new Uint8Array(96)
    return this.#build({ burn: balance }, (_plan, base) => ({ type: 'RegisterL1ValidatorTx', base, balance, proofOfPossession, message }))
  }

  carryWarpMessage(args: Parameters<PWallet['buildWarpMessageTx']>[0]): PIssued {
    return this.#issue(this.buildWarpMessageTx(args))
  }

  /** IncreaseL1ValidatorBalanceTx: burns `amount` into the validator's balance (reactivating it if inactive). */
  buildIncreaseL1ValidatorBalance(args: { validationId: string; amount: bigint }): PChainSignedTx {
    return this.#build({ burn: args.amount }, (_plan, base) => ({
      type: 'IncreaseL1ValidatorBalanceTx', base, validationId: idFromString(args.validationId), balance: args.amount,
    }))
  }

  increaseL1ValidatorBalance(args: Parameters<PWallet['buildIncreaseL1ValidatorBalance']>[0]): PIssued {
    return this.#issue(this.buildIncreaseL1ValidatorBalance(args))
  }

  /** DisableL1ValidatorTx, signed by the validator's deactivation owner; the remaining balance is refunded. */
  buildDisableL1Validator(args: { validationId: string }): PChainSignedTx {
    const v = this.#l1Validator(args.validationId)
    const auth = this.#auth(v.deactivationOwner, `deactivation owner of ${args.validationId}`)
    return this.#build({ burn: 0n }, (_plan, base) => ({
      type: 'DisableL1ValidatorTx', base, validationId: idFromString(args.validationId), disableAuth: auth.input,
    }), [auth.keys])
  }

  disableL1Validator(args: Parameters<PWallet['buildDisableL1Validator']>[0]): PIssued {
    return this.#issue(this.buildDisableL1Validator(args))
  }

  #peer(chain: 'X' | 'C' | string): string {
    return chain === 'X' ? this.xChainId : chain === 'C' ? this.cChainId : chain
  }

  /**
   * ExportTx of `amount` AVAX to `to` (an X/P-style address, 20 bytes or bech32) on the X- or
   * C-chain (or a chain id). The exported UTXO is `txID:len(outs)+i`, in shared memory P → peer.
   */
  buildExportTo(chain: 'X' | 'C' | string, args: { to: ShortId | string; amount: bigint }): PChainSignedTx {
    const exported: TransferableOutput[] = [{ assetId: idFromString(this.#avax), output: { type: 'TransferOutput', amount: args.amount, owners: outputOwners({ addresses: [args.to] }) } }]
    const destinationChain = idFromString(this.#peer(chain))
    return this.#build({ burn: args.amount }, (_plan, base) => ({ type: 'ExportTx', base, destinationChain, exportedOutputs: exported }))
  }

  exportTo(chain: 'X' | 'C' | string, args: { to: ShortId | string; amount: bigint }): PIssued {
    return this.#issue(this.buildExportTo(chain, args))
  }

  /**
   * ImportTx of every UTXO the X- or C-chain exported to the P-chain that the keychain can spend,
   * to `to` (default the change address); the fee comes out of the imported AVAX (or, when that is
   * not enough, from the keychain's P-chain UTXOs). Needs the wallet's `sharedMemory`.
   */
  buildImportFrom(chain: 'X' | 'C' | string, args: { to?: ShortId | string } = {}): PChainSignedTx {
    if (!this.sharedMemory) throw new InvalidStateError('the wallet has no shared memory to import from')
    const source = this.#peer(chain)
    const now = this.#now
    const { values } = this.sharedMemory.indexed(source, this.chain.chainId, this.keychain.addresses(), new Uint8Array(), new Uint8Array(), 1024)
    const imported: Picked[] = []
    for (const v of values) {
      const utxo = decodeUtxo('P', v)
      if (utxo.output.type !== 'TransferOutput') continue
      const m = this.keychain.match(utxo.output.owners, now)
      if (!m) continue
      imported.push({ input: { txId: utxo.txId, outputIndex: utxo.outputIndex, assetId: utxo.assetId, input: { type: 'TransferInput', amount: utxo.output.amount, sigIndices: m.sigIndices } }, keys: m.keys })
    }
    if (imported.length === 0) throw new InvalidStateError('no spendable funds were found')
    const to = this.#owner(args.to !== undefined ? { addresses: [args.to] } : undefined)
    const sourceChain = idFromString(source)
    return this.#build({ burn: 0n, imported, changeOwner: to }, (plan, base) => ({ type: 'ImportTx', base, sourceChain, importedInputs: plan.imported.map((p) => p.input) }))
  }

  importFrom(chain: 'X' | 'C' | string, args: { to?: ShortId | string } = {}): PIssued {
    return this.#issue(this.buildImportFrom(chain, args))
  }

  /** Unlocked AVAX the keychain can spend on the P-chain now. */
  balance(): bigint {
    const now = this.#now
    let total = 0n
    for (const u of this.#utxos()) {
      if (showId(u.assetId) !== this.#avax) continue
      const out = u.output.type === 'StakeableLockOut' ? (u.output.locktime <= now ? u.output.output : undefined) : u.output
      if (out?.type === 'TransferOutput' && this.keychain.match(out.owners, now)) total += out.amount
    }
    return total
  }

  /** The cb58 id of a chain alias this wallet knows (`X`, `C`), or the argument. */
  chainIdOf(chain: 'X' | 'C' | string): string {
    return this.#peer(chain)
  }
}
