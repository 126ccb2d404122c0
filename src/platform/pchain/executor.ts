import { sha256 } from '../../core/sha256.js'
import { CODEC_VERSION, Writer } from '../codec.js'
import { cb58Encode } from '../../core/cb58.js'
import { bytesToHex } from '../../core/hex.js'
import { EMPTY_ID, EMPTY_NODE_ID, PRIMARY_NETWORK_ID, idFromString } from '../../core/ids.js'
import { parseAddressedCall, parseMessage } from '../../evm/warp/codec.js'
import type { Input, OutputOwners, PChainOwner, PChainSignedTx, PChainUnsignedTx, TransferableInput, TransferableOutput, Utxo } from '../txs.js'
import { amountOf, ownersOf, showId, showNodeId } from '../txs.js'
import type { PChainConfig } from './config.js'
import { E, PChainTxError, addU64, fail, wrap } from './errors.js'
import { calculatePrice, calculateReward } from './feeMath.js'
import { toGas, txComplexity } from './fees.js'
import type { L1Validator, PChainState, Staker, UtxoOrigin } from './state.js'
import { PENDING_TO_CURRENT, Priority, isPermissionedValidator } from './state.js'
import { verifyPop } from './proofOfPossession.js'
import { conversionValidationId, parseL1ValidatorWeight, parseRegisterL1Validator, registerValidationId } from './warpMessages.js'

/**
 * The signers of one credential: the addresses its signatures recovered (in signature order), or
 * the refusal of a signature that recovers no key (secp256k1fx's `invalid signature`…), which the
 * executor reports where it checks that credential, as the real verifier fails on recovery there.
 */
export type CredentialSigners = Uint8Array[] | PChainTxError

/** What signature checking needs: the tx id and the signers of each credential. */
export type TxAuth = { txId: Uint8Array; signers: CredentialSigners[] }

/** Atomic (shared) memory as the P-chain sees it. */
export interface AtomicMemory {
  /** UTXOs `sourceChain` exported to the P-chain, by `txID:index` key; throws `not found` when one is absent. */
  get(sourceChain: string, utxoKeys: string[]): Utxo[]
  /** Removes imported UTXOs (on accept). */
  consume(sourceChain: string, utxoKeys: string[]): void
  /** Puts UTXOs exported to `destinationChain`. */
  export(destinationChain: string, utxos: Utxo[]): void
}

export const utxoKey = (txId: Uint8Array | string, index: number) => `${typeof txId === 'string' ? txId : showId(txId)}:${index}`
const shortStr = (a: Uint8Array) => cb58Encode(a)
const hex = (b: Uint8Array) => bytesToHex(b)

export type ExecContext = {
  config: PChainConfig
  state: PChainState
  atomic: AtomicMemory
  /** The P-chain's own blockchain id (cb58). */
  chainId: string
  /** Height of the block being built. */
  height: number
  /** A RegisterL1ValidatorTx's proof of possession check ({@link verifyPop} unless the chain keeps its verdicts). */
  verifyPop?: (publicKey: Uint8Array, proof: Uint8Array) => void
}

export type ExecResult = { burned: bigint; gas: bigint; importedFrom?: string; atomicKeys?: string[]; exported?: { to: string; utxos: Utxo[] } }

const isDurango = (c: ExecContext) => c.state.timestamp >= c.config.upgrades.durangoTime
const isEtna = (c: ExecContext) => c.state.timestamp >= c.config.upgrades.etnaTime

/** The dynamic fee of a tx at the current fee state (0 before Etna, as PickFeeCalculator's simple calculator). */
export function txFee(c: ExecContext, tx: PChainUnsignedTx): { fee: bigint; gas: bigint } {
  if (!isEtna(c)) return { fee: 0n, gas: 0n }
  const complexity = txComplexity(tx)
  if (!complexity) throw new PChainTxError('unsupportedTx', 'unsupported transaction type')
  const gas = toGas(complexity, c.config.dynamicFee.weights)
  const price = calculatePrice(c.config.dynamicFee.minPrice, c.state.feeState.excess, c.config.dynamicFee.excessConversionConstant)
  return { fee: gas * price, gas }
}

// --- credentials ----------------------------------------------------------------------------

/** `secp256k1fx.Fx.VerifyCredentials`. */
function verifyCredentials(c: ExecContext, sigIndices: number[], signers: CredentialSigners | undefined, owners: { locktime?: bigint; threshold: number; addrs: Uint8Array[] }) {
  const n = sigIndices.length
  if ((owners.locktime ?? 0n) > BigInt(c.state.timestamp)) throw fail('timelocked')
  if (owners.threshold < n) throw fail('tooManySigners')
  if (owners.threshold > n) throw fail('tooFewSigners')
  if (signers instanceof PChainTxError) throw signers
  if (!signers || n !== signers.length) throw fail('inputCredentialSignersMismatch')
  for (let i = 0; i < n; i++) {
    const index = sigIndices[i]!
    if (index >= owners.addrs.length) throw fail('inputOutputIndexOutOfBounds')
    const expected = owners.addrs[index]!
    const got = signers[i]!
    if (hex(expected) !== hex(got)) throw fail('wrongSig', (s) => `${s}: expected signature from ${shortStr(expected)} but got from ${shortStr(got)}`)
  }
}

/** `verifyAuthorization`: the last credential authorizes `auth` against `owner`; returns the base creds count. */
function verifyAuthorization(c: ExecContext, auth: TxAuth, owner: { locktime?: bigint; threshold: number; addrs: Uint8Array[] }, input: Input): CredentialSigners[] {
  if (auth.signers.length === 0) throw fail('wrongNumberOfCredentials')
  try {
    verifyCredentials(c, input.sigIndices, auth.signers[auth.signers.length - 1], owner)
  } catch (err) {
    throw wrap(err, (m) => `${E.unauthorizedModification}: ${m}`)
  }
  return auth.signers.slice(0, -1)
}

function subnetOwner(c: ExecContext, subnetId: Uint8Array): OutputOwners {
  const id = showId(subnetId)
  const s = c.state.getSubnet(id)
  if (!s) {
    if (c.state.getTx(id)) throw fail('unknownSubnet', (m) => `"${id}" ${m}`)
    throw fail('notFound')
  }
  return s.owner
}

function verifyPoASubnetAuthorization(c: ExecContext, auth: TxAuth, subnetId: Uint8Array, input: Input): CredentialSigners[] {
  const creds = verifyAuthorization(c, auth, subnetOwner(c, subnetId), input)
  if (c.state.getSubnet(showId(subnetId))?.conversion) throw fail('isImmutable', (m) => `"${showId(subnetId)}" ${m}`)
  return creds
}

// --- flow check -----------------------------------------------------------------------------

function verifyInputsSorted(ins: TransferableInput[]) {
  for (let i = 1; i < ins.length; i++) {
    const a = ins[i - 1]!, b = ins[i]!
    const ka = hex(a.txId), kb = hex(b.txId)
    if (ka > kb || (ka === kb && a.outputIndex >= b.outputIndex)) throw fail('inputsNotSortedUnique')
  }
}

/** `utxo.verifier.VerifySpendUTXOs`: locked/unlocked balance per asset, with `produced` (fee + burns) added. */
function verifySpendUTXOs(c: ExecContext, utxos: Utxo[], ins: TransferableInput[], outs: TransferableOutput[], creds: CredentialSigners[], producedAvax: bigint) {
  if (ins.length !== creds.length) throw fail('wrongNumberCredentials', (m) => `${m}: ${ins.length} inputs != ${creds.length} credentials`)
  const now = BigInt(c.state.timestamp)
  const unlockedConsumed = new Map<string, bigint>()
  const unlockedProduced = new Map<string, bigint>([[c.config.avaxAssetId, producedAvax]])
  const lockedConsumed = new Map<string, bigint>()
  const lockedProduced = new Map<string, bigint>()
  const addTo = (m: Map<string, bigint>, k: string, v: bigint) => m.set(k, addU64(m.get(k) ?? 0n, v))
  ins.forEach((input, i) => {
    const utxo = utxos[i]!
    const realAsset = showId(utxo.assetId), claimed = showId(input.assetId)
    if (realAsset !== claimed) throw fail('assetIDMismatch', (m) => `${m}: ${claimed} != ${realAsset}`)
    let out = utxo.output
    let locktime = 0n
    if (out.type === 'StakeableLockOut') { locktime = out.locktime; out = out.output }
    let inp = input.input
    if (inp.type !== 'StakeableLockIn' && now < locktime) throw fail('lockedFundsNotMarkedAsLocked')
    if (inp.type === 'StakeableLockIn') {
      if (inp.locktime !== locktime) throw fail('locktimeMismatch', (m) => `${m}: ${inp.type === 'StakeableLockIn' ? inp.locktime : 0n} != ${locktime}`)
      inp = inp.input
    }
    try {
      if (out.type !== 'TransferOutput') throw new PChainTxError('wrongUTXOType', 'wrong utxo type')
      if (out.amount !== inp.amount) throw fail('mismatchedAmounts', (m) => `${m}: ${out.type === 'TransferOutput' ? out.amount : 0n} != ${inp.amount}`)
      verifyCredentials(c, inp.sigIndices, creds[i], out.owners)
    } catch (err) {
      throw wrap(err, (m) => `failed to verify transfer: ${m}`)
    }
    if (now >= locktime) addTo(unlockedConsumed, realAsset, inp.amount)
    else addTo(lockedConsumed, `${realAsset}|${locktime}|${ownerKey(ownersOf(utxo.output))}`, inp.amount)
  })
  for (const o of outs) {
    const asset = showId(o.assetId)
    if (o.output.type === 'StakeableLockOut' && o.output.locktime !== 0n) addTo(lockedProduced, `${asset}|${o.output.locktime}|${ownerKey(o.output.output.owners)}`, o.output.output.amount)
    else addTo(unlockedProduced, asset, amountOf(o.output))
  }
  for (const [k, produced] of lockedProduced) {
    const consumed = lockedConsumed.get(k) ?? 0n
    if (produced > consumed) {
      const [asset, locktime, owner] = k.split('|') as [string, string, string]
      const increase = produced - consumed
      const unlocked = unlockedConsumed.get(asset) ?? 0n
      if (increase > unlocked) throw fail('insufficientLockedFunds', (m) => `${m}: ${owner} needs ${increase - unlocked} more ${asset} for locktime ${locktime}`)
      unlockedConsumed.set(asset, unlocked - increase)
    }
  }
  for (const [asset, produced] of unlockedProduced) {
    const consumed = unlockedConsumed.get(asset) ?? 0n
    if (produced > consumed) throw fail('insufficientUnlockedFunds', (m) => `${m}: needs ${produced - consumed} more ${asset}`)
  }
}

function ownerKey(o: OutputOwners): string {
  return showId(sha256(new TextEncoder().encode(`${o.locktime}|${o.threshold}|${o.addrs.map(hex).join(',')}`)))
}

function verifySpend(c: ExecContext, ins: TransferableInput[], outs: TransferableOutput[], creds: CredentialSigners[], producedAvax: bigint) {
  const utxos = ins.map((input) => {
    const rec = c.state.getUtxo(utxoKey(input.txId, input.outputIndex))
    if (!rec) throw fail('notFound', (m) => `failed to read consumed UTXO ${utxoKey(input.txId, input.outputIndex)} due to: ${m}`)
    return rec.utxo
  })
  verifySpendUTXOs(c, utxos, ins, outs, creds, producedAvax)
}

// --- produce / consume ----------------------------------------------------------------------

function addressesOf(owners: { addrs: Uint8Array[] }) {
  return owners.addrs.map(hex)
}

export function produceUtxo(c: ExecContext, utxo: Utxo, origin: UtxoOrigin, reward = false) {
  c.state.addUtxo(utxoKey(utxo.txId, utxo.outputIndex), { utxo, created: origin, addresses: addressesOf(ownersOf(utxo.output)), ...(reward ? { reward: true } : {}) })
}

function consumeAndProduce(c: ExecContext, txId: Uint8Array, ins: TransferableInput[], outs: TransferableOutput[]) {
  const origin: UtxoOrigin = { chain: c.chainId, txId: showId(txId), height: c.height }
  for (const i of ins) c.state.consumeUtxo(utxoKey(i.txId, i.outputIndex), origin)
  outs.forEach((o, i) => produceUtxo(c, { txId, outputIndex: i, assetId: o.assetId, output: o.output }, origin))
}

function validateMemo(memo: Uint8Array, durango: boolean) {
  if (memo.length > 256) throw new PChainTxError('memoTooLarge', `memo length ${memo.length} exceeds maximum ${256}`)
  if (durango && memo.length !== 0) throw new PChainTxError('memoTooLarge', `memo length ${memo.length} exceeds maximum 0`)
}

// --- stakers --------------------------------------------------------------------------------

function getValidator(c: ExecContext, subnetId: string, nodeId: string): Staker | undefined {
  return c.state.getCurrentValidator(subnetId, nodeId) ?? c.state.getPendingValidator(subnetId, nodeId)
}

/** `overDelegated`: the max weight (validator + delegators overlapping [start, end]) must stay ≤ maximumWeight. */
function overDelegated(c: ExecContext, validator: Staker, maximumWeight: bigint, newWeight: bigint, start: number, end: number): boolean {
  const total = validator.weight + newWeight
  if (total > maximumWeight) return true
  const dels = [...c.state.delegatorsOf(validator.subnetId, validator.nodeId, 'current'), ...c.state.delegatorsOf(validator.subnetId, validator.nodeId, 'pending')]
    .filter((d) => d.endTime > start && d.startTime < end)
  // maximum concurrent weight over [start, end)
  const events: [number, bigint][] = []
  for (const d of dels) { events.push([Math.max(d.startTime, start), d.weight]); events.push([d.endTime, -d.weight]) }
  events.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1))
  let cur = total
  for (const [, w] of events) { cur += w; if (cur > maximumWeight) return true }
  return false
}

type StakerTx = Extract<PChainUnsignedTx, { type: 'AddValidatorTx' | 'AddDelegatorTx' | 'AddPermissionlessValidatorTx' | 'AddPermissionlessDelegatorTx' | 'AddSubnetValidatorTx' }>

function putStaker(c: ExecContext, txId: Uint8Array, tx: StakerTx) {
  const subnetId = 'subnetId' in tx ? showId(tx.subnetId) : PRIMARY_NETWORK_ID
  const isPrimary = subnetId === PRIMARY_NETWORK_ID
  const kind: Staker['kind'] = tx.type === 'AddDelegatorTx' || tx.type === 'AddPermissionlessDelegatorTx' ? 'delegator' : 'validator'
  const permissioned = tx.type === 'AddSubnetValidatorTx'
  const pendingPriority = permissioned ? Priority.SubnetPermissionedValidatorPending
    : kind === 'validator' ? (isPrimary ? Priority.PrimaryNetworkValidatorPending : Priority.SubnetPermissionlessValidatorPending)
    : tx.type === 'AddDelegatorTx' ? Priority.PrimaryNetworkDelegatorApricotPending : isPrimary ? Priority.PrimaryNetworkDelegatorBanffPending : Priority.SubnetPermissionlessDelegatorPending
  const staker: Staker = {
    txId: showId(txId), txIdHex: hex(txId), txType: tx.type,
    nodeId: showNodeId(tx.validator.nodeId), subnetId, kind,
    priority: pendingPriority,
    weight: tx.validator.weight,
    startTime: Number(tx.validator.start), endTime: Number(tx.validator.end), nextTime: Number(tx.validator.start),
    potentialReward: 0n,
    outsLength: tx.base.outputs.length,
  }
  if (tx.type === 'AddValidatorTx') { staker.delegationShares = tx.delegationShares; staker.rewardsOwner = tx.rewardsOwner; staker.delegationRewardsOwner = tx.rewardsOwner; staker.stakeOuts = tx.stakeOuts }
  if (tx.type === 'AddPermissionlessValidatorTx') {
    staker.delegationShares = tx.delegationShares; staker.rewardsOwner = tx.validatorRewardsOwner; staker.delegationRewardsOwner = tx.delegatorRewardsOwner; staker.stakeOuts = tx.stakeOuts
    if (tx.signer.type === 'ProofOfPossession') staker.blsPublicKey = hex(tx.signer.publicKey)
  }
  if (tx.type === 'AddDelegatorTx') { staker.rewardsOwner = tx.rewardsOwner; staker.stakeOuts = tx.stakeOuts }
  if (tx.type === 'AddPermissionlessDelegatorTx') { staker.rewardsOwner = tx.delegatorRewardsOwner; staker.stakeOuts = tx.stakeOuts }

  if (!isDurango(c)) {
    if (kind === 'validator') c.state.putPendingValidator(staker)
    else c.state.putPendingDelegator(staker)
    return
  }
  const start = c.state.timestamp
  staker.startTime = start
  staker.nextTime = staker.endTime
  staker.priority = PENDING_TO_CURRENT[pendingPriority]!
  if (!permissioned) {
    const supply = c.state.getSupply(subnetId)
    staker.potentialReward = calculateReward(c.config.staking.rewardConfig, BigInt(staker.endTime - start), staker.weight, supply)
    c.state.setSupply(subnetId, supply + staker.potentialReward)
  }
  if (kind === 'validator') c.state.putCurrentValidator(staker)
  else c.state.putCurrentDelegator(staker)
}

function primaryRules(c: ExecContext, subnetId: Uint8Array) {
  if (showId(subnetId) !== PRIMARY_NETWORK_ID) throw fail('notFound', (m) => `${E.notFound === m ? m : m}`) // transformed subnets are disabled since Etna
  return c.config.staking
}

// --- the executor ---------------------------------------------------------------------------

/**
 * Verifies and applies one standard tx to `c.state` (the caller wraps it in `state.atomically`).
 * Order of checks and messages follow standard_tx_executor.go / staker_tx_verification.go.
 */
export function executeStandardTx(c: ExecContext, signed: PChainSignedTx, auth: TxAuth): ExecResult {
  const tx = signed.unsigned
  const txId = auth.txId
  const durango = isDurango(c)
  const now = c.state.timestamp
  if (tx.type === 'AdvanceTimeTx' || tx.type === 'RewardValidatorTx') throw fail('wrongTxType')
  if (tx.type === 'TransformSubnetTx') throw new PChainTxError('transformSubnetPostEtna', 'TransformSubnetTx is not permitted post-Etna')
  // txs.BaseTx.SyntacticVerify: avax.BaseTx.Verify's metadata first, sorting last
  if (tx.base.networkId !== c.config.networkId) throw fail('wrongNetworkID', (m) => `metadata failed verification: ${m}`)
  if (showId(tx.base.blockchainId) !== c.chainId) throw fail('wrongChainID', (m) => `metadata failed verification: ${m}`)
  verifyInputsSorted(tx.base.inputs)
  const { fee, gas } = tx.type === 'AddValidatorTx' || tx.type === 'AddDelegatorTx' ? { fee: 0n, gas: 0n } : txFee(c, tx)
  const ins = tx.base.inputs
  const baseOuts = tx.base.outputs
  const creds = auth.signers
  const flow = (outs: TransferableOutput[], cr: CredentialSigners[], produced: bigint, prefix?: string) => {
    try { verifySpend(c, ins, outs, cr, addU64(produced, fee)) } catch (err) { throw prefix ? wrap(err, (m) => `${prefix}: ${m}`) : err }
  }
  const result: ExecResult = { burned: fee, gas }

  switch (tx.type) {
    case 'AddValidatorTx':
    case 'AddPermissionlessValidatorTx': {
      if (tx.type === 'AddValidatorTx') {
        if (hex(tx.validator.nodeId) === hex(new Uint8Array(20))) throw fail('emptyNodeID')
        if (durango) throw fail('addValidatorPostDurango')
      }
      validateMemo(tx.base.memo, durango)
      const subnetId = tx.type === 'AddValidatorTx' ? new Uint8Array(32) : tx.subnetId
      const start = durango && tx.type !== 'AddValidatorTx' ? now : Number(tx.validator.start)
      const duration = Number(tx.validator.end) - start
      if (!durango && !(now < start)) throw fail('timestampNotBeforeStartTime', (m) => `${m}: ${now} >= ${start}`)
      const r = primaryRules(c, subnetId)
      const stakeAsset = tx.stakeOuts[0] ? showId(tx.stakeOuts[0].assetId) : ''
      if (tx.validator.weight < r.minValidatorStake) throw fail('weightTooSmall')
      if (tx.validator.weight > r.maxValidatorStake) throw fail('weightTooLarge')
      if (tx.delegationShares < r.minDelegationFee) throw fail('insufficientDelegationFee')
      if (duration < r.minStakeDuration) throw fail('stakeTooShort')
      if (duration > r.maxStakeDuration) throw fail('stakeTooLong')
      if (stakeAsset !== c.config.avaxAssetId) throw fail('wrongStakedAssetID', (m) => `${m}: ${c.config.avaxAssetId} != ${stakeAsset}`)
      const nodeId = showNodeId(tx.validator.nodeId)
      if (getValidator(c, PRIMARY_NETWORK_ID, nodeId)) {
        if (tx.type === 'AddValidatorTx') throw fail('alreadyValidator', (m) => `${nodeId} is ${m} of the primary network`)
        throw fail('duplicateValidator', (m) => `${m}: ${nodeId} on ${PRIMARY_NETWORK_ID}`)
      }
      flow([...baseOuts, ...tx.stakeOuts], creds, 0n, E.flowCheckFailed)
      putStaker(c, txId, tx)
      consumeAndProduce(c, txId, ins, baseOuts)
      return result
    }
    case 'AddDelegatorTx':
    case 'AddPermissionlessDelegatorTx': {
      if (tx.type === 'AddDelegatorTx' && durango) throw fail('addDelegatorPostDurango')
      validateMemo(tx.base.memo, durango)
      const subnetId = tx.type === 'AddDelegatorTx' ? new Uint8Array(32) : tx.subnetId
      const start = durango && tx.type !== 'AddDelegatorTx' ? now : Number(tx.validator.start)
      const end = Number(tx.validator.end)
      const duration = end - start
      if (!durango && !(now < start)) throw fail('timestampNotBeforeStartTime', (m) => `${m}: ${now} >= ${start}`)
      const r = primaryRules(c, subnetId)
      const stakeAsset = tx.stakeOuts[0] ? showId(tx.stakeOuts[0].assetId) : ''
      if (tx.type === 'AddDelegatorTx') {
        if (duration < r.minStakeDuration) throw fail('stakeTooShort')
        if (duration > r.maxStakeDuration) throw fail('stakeTooLong')
        if (tx.validator.weight < r.minDelegatorStake) throw fail('weightTooSmall')
      } else {
        if (tx.validator.weight < r.minDelegatorStake) throw fail('weightTooSmall')
        if (duration < r.minStakeDuration) throw fail('stakeTooShort')
        if (duration > r.maxStakeDuration) throw fail('stakeTooLong')
        if (stakeAsset !== c.config.avaxAssetId) throw fail('wrongStakedAssetID', (m) => `${m}: ${c.config.avaxAssetId} != ${stakeAsset}`)
      }
      const nodeId = showNodeId(tx.validator.nodeId)
      const validator = getValidator(c, PRIMARY_NETWORK_ID, nodeId)
      if (!validator) {
        if (tx.type === 'AddDelegatorTx') throw fail('notFound', (m) => `failed to fetch the primary network validator for ${nodeId}: ${m}`)
        throw fail('notFound', (m) => `failed to fetch the validator for ${nodeId} on ${PRIMARY_NETWORK_ID}: ${m}`)
      }
      let maximumWeight = r.maxValidatorWeightFactor * validator.weight
      if (maximumWeight > r.maxValidatorStake) maximumWeight = r.maxValidatorStake
      if (!(start >= validator.startTime && end <= validator.endTime)) throw fail('periodMismatch')
      if (overDelegated(c, validator, maximumWeight, tx.validator.weight, start, end)) throw fail('overDelegated')
      flow([...baseOuts, ...tx.stakeOuts], creds, 0n, E.flowCheckFailed)
      putStaker(c, txId, tx)
      consumeAndProduce(c, txId, ins, baseOuts)
      return result
    }
    case 'AddSubnetValidatorTx': {
      validateMemo(tx.base.memo, durango)
      const start = durango ? now : Number(tx.validator.start)
      const end = Number(tx.validator.end)
      const duration = end - start
      if (duration < c.config.staking.minStakeDuration) throw fail('stakeTooShort')
      if (duration > c.config.staking.maxStakeDuration) throw fail('stakeTooLong')
      if (!durango && !(now < start)) throw fail('timestampNotBeforeStartTime', (m) => `${m}: ${now} >= ${start}`)
      const nodeId = showNodeId(tx.validator.nodeId)
      const subnetId = showId(tx.subnetId)
      if (getValidator(c, subnetId, nodeId)) throw fail('duplicateValidator', (m) => `attempted to issue ${m} for ${nodeId} on subnet ${subnetId}`)
      const primary = getValidator(c, PRIMARY_NETWORK_ID, nodeId)
      if (!primary) throw fail('notValidator', (m) => `${nodeId} ${m} of the primary network`)
      if (!(start >= primary.startTime && end <= primary.endTime)) throw fail('periodMismatch')
      const baseCreds = verifyPoASubnetAuthorization(c, auth, tx.subnetId, tx.subnetAuth)
      flow(baseOuts, baseCreds, 0n, E.flowCheckFailed)
      putStaker(c, txId, tx)
      consumeAndProduce(c, txId, ins, baseOuts)
      return result
    }
    case 'RemoveSubnetValidatorTx': {
      validateMemo(tx.base.memo, durango)
      const nodeId = showNodeId(tx.nodeId), subnetId = showId(tx.subnetId)
      const current = c.state.getCurrentValidator(subnetId, nodeId)
      const vdr = current ?? c.state.getPendingValidator(subnetId, nodeId)
      if (!vdr) throw fail('notValidator', (m) => `${nodeId} ${m} of ${subnetId}: ${E.notFound}`)
      if (!isPermissionedValidator(vdr.priority)) throw fail('removePermissionlessValidator')
      const owner = subnetOwner(c, tx.subnetId)
      const baseCreds = verifyAuthorization(c, auth, owner, tx.subnetAuth)
      flow(baseOuts, baseCreds, 0n, E.flowCheckFailed)
      if (current) c.state.deleteCurrentValidator(vdr)
      else c.state.deletePendingValidator(vdr)
      c.state.putEndedStaker({ staker: vdr, status: 'removed', height: c.height, endTxId: showId(txId) })
      consumeAndProduce(c, txId, ins, baseOuts)
      return result
    }
    case 'CreateChainTx': {
      validateMemo(tx.base.memo, durango)
      const baseCreds = verifyPoASubnetAuthorization(c, auth, tx.subnetId, tx.subnetAuth)
      flow(baseOuts, baseCreds, 0n)
      consumeAndProduce(c, txId, ins, baseOuts)
      c.state.putBlockchain({ id: showId(txId), subnetId: showId(tx.subnetId), name: tx.chainName, vmId: showId(tx.vmId), fxIds: tx.fxIds.map(showId), genesisData: hex(tx.genesisData), createdAt: now })
      return result
    }
    case 'CreateSubnetTx': {
      validateMemo(tx.base.memo, durango)
      flow(baseOuts, creds, 0n)
      consumeAndProduce(c, txId, ins, baseOuts)
      c.state.putSubnet({ id: showId(txId), owner: tx.owner, createdAt: now })
      return result
    }
    case 'TransferSubnetOwnershipTx': {
      if (!durango) throw fail('durangoNotActive')
      validateMemo(tx.base.memo, true)
      const baseCreds = verifyAuthorization(c, auth, subnetOwner(c, tx.subnetId), tx.subnetAuth)
      flow(baseOuts, baseCreds, 0n, E.flowCheckFailed)
      const s = c.state.getSubnet(showId(tx.subnetId))!
      c.state.putSubnet({ ...s, owner: tx.owner })
      consumeAndProduce(c, txId, ins, baseOuts)
      return result
    }
    case 'BaseTx': {
      if (!durango) throw fail('durangoNotActive')
      validateMemo(tx.base.memo, true)
      flow(baseOuts, creds, 0n)
      consumeAndProduce(c, txId, ins, baseOuts)
      return result
    }
    case 'ImportTx': {
      validateMemo(tx.base.memo, durango)
      const source = showId(tx.sourceChain)
      const keys = tx.importedInputs.map((i) => utxoKey(i.txId, i.outputIndex))
      let imported: Utxo[]
      try { imported = c.atomic.get(source, keys) } catch (err) { throw new PChainTxError('notFound', `failed to get shared memory: ${err instanceof Error ? err.message : String(err)}`) }
      const utxos = ins.map((input) => {
        const rec = c.state.getUtxo(utxoKey(input.txId, input.outputIndex))
        if (!rec) throw fail('notFound', (m) => `failed to get UTXO ${utxoKey(input.txId, input.outputIndex)}: ${m}`)
        return rec.utxo
      })
      verifySpendUTXOs(c, [...utxos, ...imported], [...ins, ...tx.importedInputs], baseOuts, creds, fee)
      consumeAndProduce(c, txId, ins, baseOuts)
      result.importedFrom = source
      result.atomicKeys = keys
      return result
    }
    case 'ExportTx': {
      validateMemo(tx.base.memo, durango)
      flow([...baseOuts, ...tx.exportedOutputs], creds, 0n, 'failed verifySpend')
      consumeAndProduce(c, txId, ins, baseOuts)
      result.exported = {
        to: showId(tx.destinationChain),
        utxos: tx.exportedOutputs.map((o, i) => ({ txId, outputIndex: baseOuts.length + i, assetId: o.assetId, output: o.output })),
      }
      return result
    }
    case 'ConvertSubnetToL1Tx': {
      if (!isEtna(c)) throw fail('etnaNotActive')
      validateMemo(tx.base.memo, true)
      const baseCreds = verifyPoASubnetAuthorization(c, auth, tx.subnetId, tx.subnetAuth)
      const subnetId = showId(tx.subnetId)
      let balances = 0n
      tx.validators.forEach((v, i) => {
        const l1: L1Validator = {
          validationId: showId(conversionValidationId(tx.subnetId, i)),
          subnetId, nodeId: showNodeId(v.nodeId), publicKey: hex(v.signer.publicKey),
          remainingBalanceOwner: v.remainingBalanceOwner, deactivationOwner: v.deactivationOwner,
          startTime: now, weight: v.weight, minNonce: 0n, endAccumulatedFee: 0n,
        }
        if (v.balance !== 0n) {
          if (BigInt(c.state.numActiveL1Validators()) >= c.config.validatorFee.capacity) throw fail('maxNumActiveValidators')
          l1.endAccumulatedFee = addU64(v.balance, c.state.accruedFees)
        }
        putL1Validator(c, l1)
        balances = addU64(balances, v.balance)
      })
      flow(baseOuts, baseCreds, balances)
      consumeAndProduce(c, txId, ins, baseOuts)
      const s = c.state.getSubnet(subnetId)!
      c.state.putSubnet({ ...s, conversion: { conversionId: showId(subnetToL1ConversionId(tx)), chainId: showId(tx.chainId), address: hex(tx.address) } })
      return result
    }
    case 'RegisterL1ValidatorTx': {
      if (!isEtna(c)) throw fail('etnaNotActive')
      validateMemo(tx.base.memo, true)
      flow(baseOuts, creds, tx.balance)
      const { sourceChainId, sourceAddress, payload } = readWarp(tx.message)
      const msg = parseRegisterL1Validator(payload)
      if (showId(msg.subnetId) === EMPTY_ID) throw fail('invalidSubnetID')
      if (msg.weight === 0n) throw fail('invalidWeight')
      if (msg.nodeId.length !== 20) throw fail('invalidNodeID', (m) => `${m}: expected 20 bytes but got ${msg.nodeId.length}`)
      if (showNodeId(msg.nodeId) === EMPTY_NODE_ID) throw fail('invalidNodeID', (m) => `${m}: empty nodeID is disallowed`)
      const subnetId = showId(msg.subnetId)
      verifyL1Conversion(c, subnetId, sourceChainId, sourceAddress)
      if (msg.expiry <= BigInt(now)) throw fail('warpMessageExpired', (m) => `${m} at ${msg.expiry} and it is currently ${now}`)
      const until = msg.expiry - BigInt(now)
      if (until > 86_400n) throw fail('warpMessageNotYetAllowed', (m) => `${m} because time is ${until} seconds in the future but the limit is 86400`)
      const validationId = showId(registerValidationId(payload))
      const expiryKey = `${msg.expiry}/${validationId}`
      if (c.state.hasExpiry(expiryKey)) throw fail('warpMessageAlreadyIssued', (m) => `${m} for validationID ${validationId}`)
      const checkPop = c.verifyPop ?? verifyPop
      checkPop(msg.blsPublicKey, tx.proofOfPossession)
      const l1: L1Validator = {
        validationId, subnetId, nodeId: showNodeId(msg.nodeId), publicKey: hex(msg.blsPublicKey),
        remainingBalanceOwner: msg.remainingBalanceOwner, deactivationOwner: msg.disableOwner,
        startTime: now, weight: msg.weight, minNonce: 0n, endAccumulatedFee: 0n,
      }
      if (tx.balance !== 0n) {
        if (BigInt(c.state.numActiveL1Validators()) >= c.config.validatorFee.capacity) throw fail('maxNumActiveValidators')
        l1.endAccumulatedFee = addU64(tx.balance, c.state.accruedFees)
      }
      putL1Validator(c, l1)
      consumeAndProduce(c, txId, ins, baseOuts)
      c.state.putExpiry(expiryKey)
      return result
    }
    case 'SetL1ValidatorWeightTx': {
      if (!isEtna(c)) throw fail('etnaNotActive')
      validateMemo(tx.base.memo, true)
      flow(baseOuts, creds, 0n)
      const { sourceChainId, sourceAddress, payload } = readWarp(tx.message)
      const msg = parseL1ValidatorWeight(payload)
      if (msg.weight !== 0n && msg.nonce === (1n << 64n) - 1n) throw new PChainTxError('nonceTooLarge', 'nonce cannot be MaxUint64 with non-zero weight')
      const id = showId(msg.validationId)
      const v = c.state.getL1Validator(id)
      if (!v) throw fail('couldNotLoadL1Validator', (m) => `${m}: ${E.notFound}`)
      if (msg.nonce < v.minNonce) throw fail('staleNonce', (m) => `${m} ${msg.nonce} must be at least ${v.minNonce}`)
      verifyL1Conversion(c, v.subnetId, sourceChainId, sourceAddress)
      if (msg.weight === 0n) {
        const total = c.state.l1ValidatorsOf(v.subnetId).reduce((s, x) => s + x.weight, 0n)
        if (total === v.weight) throw fail('removingLastValidator')
        if (v.endAccumulatedFee !== 0n) refundBalance(c, txId, baseOuts.length, v)
      }
      putL1Validator(c, { ...v, minNonce: msg.nonce + 1n, weight: msg.weight })
      consumeAndProduce(c, txId, ins, baseOuts)
      return result
    }
    case 'IncreaseL1ValidatorBalanceTx': {
      if (!isEtna(c)) throw fail('etnaNotActive')
      validateMemo(tx.base.memo, true)
      flow(baseOuts, creds, tx.balance)
      const v = c.state.getL1Validator(showId(tx.validationId))
      if (!v) throw fail('notFound')
      let end = v.endAccumulatedFee
      if (end === 0n) {
        if (BigInt(c.state.numActiveL1Validators()) >= c.config.validatorFee.capacity) throw fail('maxNumActiveValidators')
        end = c.state.accruedFees
      }
      putL1Validator(c, { ...v, endAccumulatedFee: addU64(end, tx.balance) })
      consumeAndProduce(c, txId, ins, baseOuts)
      return result
    }
    case 'DisableL1ValidatorTx': {
      if (!isEtna(c)) throw fail('etnaNotActive')
      validateMemo(tx.base.memo, true)
      const v = c.state.getL1Validator(showId(tx.validationId))
      if (!v) throw fail('couldNotLoadL1Validator', (m) => `${m}: ${E.notFound}`)
      const baseCreds = verifyAuthorization(c, auth, { threshold: v.deactivationOwner.threshold, addrs: v.deactivationOwner.addrs }, tx.disableAuth)
      flow(baseOuts, baseCreds, 0n)
      consumeAndProduce(c, txId, ins, baseOuts)
      if (v.endAccumulatedFee === 0n) return result
      refundBalance(c, txId, baseOuts.length, v)
      putL1Validator(c, { ...v, endAccumulatedFee: 0n })
      return result
    }
  }
}

function refundBalance(c: ExecContext, txId: Uint8Array, index: number, v: L1Validator) {
  const accrued = c.state.accruedFees
  if (v.endAccumulatedFee <= accrued) throw fail('stateCorruption', (m) => `${m}: validator should have already been disabled`)
  const owner: PChainOwner = v.remainingBalanceOwner
  produceUtxo(c, {
    txId, outputIndex: index, assetId: fromCb58Id(c.config.avaxAssetId),
    output: { type: 'TransferOutput', amount: v.endAccumulatedFee - accrued, owners: { locktime: 0n, threshold: owner.threshold, addrs: owner.addrs } },
  }, { chain: c.chainId, txId: showId(txId), height: c.height })
}

const fromCb58Id = (s: string) => idFromString(s)

/** `PutL1Validator`: a (subnet, node) pair may only appear once among an L1's validators. */
function putL1Validator(c: ExecContext, v: L1Validator) {
  const existing = c.state.getL1Validator(v.validationId)
  if (!existing) {
    for (const x of c.state.l1ValidatorsOf(v.subnetId)) if (x.nodeId === v.nodeId) throw fail('duplicateL1Validator')
    // weight overflow of the L1's total weight (math.Add in state)
    addU64(c.state.l1ValidatorsOf(v.subnetId).reduce((s, x) => s + x.weight, 0n), v.weight)
  }
  c.state.putL1Validator(v)
}

function readWarp(message: Uint8Array) {
  try {
    const m = parseMessage(message)
    const call = parseAddressedCall(m.unsigned.payload)
    return { sourceChainId: showId(m.unsigned.sourceChainId), sourceAddress: call.sourceAddress, payload: call.payload }
  } catch (err) {
    if (err instanceof PChainTxError) throw err
    throw new PChainTxError('invalidMessage', err instanceof Error ? err.message : String(err))
  }
}

function verifyL1Conversion(c: ExecContext, subnetId: string, chainId: string, address: Uint8Array) {
  const conv = c.state.getSubnet(subnetId)?.conversion
  if (!conv) throw fail('couldNotLoadSubnetToL1Conversion', (m) => `${m} for ${subnetId} with: ${E.notFound}`)
  if (conv.chainId !== chainId) throw fail('wrongWarpSourceChainID', (m) => `${m} expected ${conv.chainId} but had ${chainId}`)
  if (conv.address !== hex(address)) throw fail('wrongWarpSourceAddress', (m) => `${m} expected ${conv.address} but got ${hex(address)}`)
}

/**
 * `message.SubnetToL1ConversionID`: sha256 of the codec-encoded SubnetToL1ConversionData (subnet,
 * manager chain and address, and each validator's node id, BLS key and weight, in the tx's order),
 * the id the P-chain stores and signs for the L1's validator manager.
 */
export function subnetToL1ConversionId(tx: { subnetId: Uint8Array; chainId: Uint8Array; address: Uint8Array; validators: readonly { nodeId: Uint8Array; signer: { publicKey: Uint8Array }; weight: bigint }[] }): Uint8Array {
  const w = new Writer().u16(CODEC_VERSION).fixed(tx.subnetId, 32).fixed(tx.chainId, 32).bytes(tx.address).u32(tx.validators.length)
  for (const v of tx.validators) w.bytes(v.nodeId).fixed(v.signer.publicKey, 48).u64(v.weight)
  return sha256(w.finish())
}
