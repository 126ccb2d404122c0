/**
 * The hosted models of operations 14 and 15 (glacier-openapi.json: PChainUtxo, Utxo,
 * PChainTransaction, XChainLinearTransaction, CChainExportTransaction, CChainImportTransaction),
 * built from the platform indexer's records, field for field in the spec's property order:
 * amounts as decimal strings, heights of P-chain records as strings, timestamps as numbers.
 */
import { formatAddress } from '../../../../core/address.js'
import { bytesToHex } from '../../../../core/hex.js'
import { PRIMARY_NETWORK_ID, idFromString, idToString, nodeIdToString } from '../../../../core/ids.js'
import type { IndexedTx, IndexedUtxo, L1ValidatorSample, PlatformIndexer } from '../../../../indexer/index.js'
import { encodeUnsignedTx, encodeUtxo } from '../../../../platform/codec.js'
import type { PChainUnsignedTx, TransferableInput, XChainUnsignedTx } from '../../../../platform/txs.js'
import { encodeCUnsignedTx, type CAtomicUnsignedTx } from '../../../../platform/xchain/cAtomicCodec.js'
import { recoverPublicKey } from '../../../../platform/secp256k1fx.js'
import { sha256 } from '../../../../core/sha256.js'

export type AssetAmount = { assetId: string; name: string; symbol: string; denomination: number; type: 'secp256k1' | 'nft'; amount: string }
export type RewardType = 'VALIDATOR' | 'DELEGATOR' | 'VALIDATOR_FEE'
export type PChainUtxo = {
  addresses: string[]; asset: AssetAmount; consumedOnChainId: string; consumingTxHash?: string; createdOnChainId: string; utxoId: string
  utxoBytes?: string; amount: string; assetId: string; blockNumber: string; blockTimestamp: number; consumingBlockNumber?: string
  consumingBlockTimestamp?: number; platformLocktime?: number; outputIndex: number; rewardType?: RewardType
  stakeableLocktime?: number; staked?: boolean; threshold?: number; txHash: string; utxoEndTimestamp?: number; utxoStartTimestamp?: number
  utxoType: 'STAKE' | 'TRANSFER'
}
export type UtxoCredential = { signature?: string; publicKey?: string }
export type Utxo = {
  addresses: string[]; asset: AssetAmount; consumedOnChainId: string; consumingTxHash?: string; createdOnChainId: string; utxoId: string
  utxoBytes?: string; consumingTxTimestamp?: number; creationTxHash: string; credentials?: UtxoCredential[]; locktime: number; outputIndex: string
  threshold: number; timestamp: number; utxoType: string
}
export type BlsCredentials = { publicKey: string; proofOfPossession: string }
export type L1ValidatorDetailsTransaction = {
  validationId: string; validationIdHex: string; nodeId: string; subnetId: string; weight: number; remainingBalance: number; balanceChange?: number
  blsCredentials?: Record<string, string>
}
export type PChainTransaction = {
  txHash: string; txType: string; blockTimestamp: number; blockNumber: string; blockHash: string; consumedUtxos: PChainUtxo[]; emittedUtxos: PChainUtxo[]
  sourceChain?: string; destinationChain?: string; value: AssetAmount[]; amountBurned: AssetAmount[]; amountStaked: AssetAmount[]
  amountL1ValidatorBalanceBurned: AssetAmount[]; startTimestamp?: number; endTimestamp?: number; delegationFeePercent?: string; nodeId?: string
  subnetId?: string; l1ValidatorManagerDetails?: { blockchainId: string; contractAddress: string }; l1ValidatorDetails?: L1ValidatorDetailsTransaction[]
  estimatedReward?: string; rewardTxHash?: string; rewardAddresses?: string[]; memo?: string; stakingTxHash?: string
  subnetOwnershipInfo?: { locktime: number; threshold: number; addresses: string[] }; blsCredentials?: BlsCredentials
  blockchainInfo?: { chainName: string; vmId: string; genesisData?: unknown }
}
export type XChainAssetDetails = { assetId: string; name: string; symbol: string; denomination: number; type: 'secp256k1' | 'nft'; createdAtTimestamp: number; cap: 'fixed' | 'variable' }
export type XChainLinearTransaction = {
  txHash: string; chainFormat: 'linear'; timestamp: number; txType: string; memo: string; consumedUtxos: Utxo[]; emittedUtxos: Utxo[]
  amountUnlocked: AssetAmount[]; amountCreated: AssetAmount[]; sourceChain?: string; destinationChain?: string; assetCreated?: XChainAssetDetails
  blockHeight: number; blockHash: string
}
export type EVMInput = { fromAddress: string; asset: AssetAmount; credentials: UtxoCredential[] }
export type EVMOutput = { toAddress: string; asset: AssetAmount }
type CChainAtomicBase = {
  txHash: string; blockHeight: number; blockHash: string; timestamp: number; memo: string; amountUnlocked: AssetAmount[]; amountCreated: AssetAmount[]
  sourceChain: string; destinationChain: string
}
export type CChainExportTransaction = CChainAtomicBase & { txType: 'ExportTx'; evmInputs: EVMInput[]; emittedUtxos: Utxo[] }
export type CChainImportTransaction = CChainAtomicBase & { txType: 'ImportTx'; evmOutputs: EVMOutput[]; consumedUtxos: Utxo[] }

export type Asset = { assetId: string; name: string; symbol: string; denomination: number }

/** What the builders read besides the index. */
export type ModelContext = {
  index: PlatformIndexer
  hrp: string
  avaxAssetId: string
  /** An asset's name, symbol and denomination (AVAX, or an X-chain asset). */
  asset: (assetId: string) => Asset
  /** The X-chain asset a CreateAssetTx created. */
  createdAsset: (txId: string) => { name: string; symbol: string; denomination: number } | undefined
}

const assetAmount = (a: Asset, amount: bigint): AssetAmount => ({ assetId: a.assetId, name: a.name, symbol: a.symbol, denomination: a.denomination, type: 'secp256k1', amount: amount.toString() })

/** Positive sums per asset, in first-seen order. */
function sums(ctx: ModelContext, entries: Array<[string, bigint]>): AssetAmount[] {
  const m = new Map<string, bigint>()
  for (const [id, v] of entries) m.set(id, (m.get(id) ?? 0n) + v)
  return [...m].filter(([, v]) => v > 0n).map(([id, v]) => assetAmount(ctx.asset(id), v))
}

const bare = (ctx: ModelContext, hex: string) => formatAddress('X', ctx.hrp, Buffer.from(hex, 'hex')).slice(2)
const bareBytes = (ctx: ModelContext, b: Uint8Array) => formatAddress('X', ctx.hrp, b).slice(2)
const inAmount = (i: TransferableInput) => (i.input.type === 'StakeableLockIn' ? i.input.input.amount : i.input.amount)

/** `PChainUtxo` (also for UTXOs a P-chain ImportTx brought in from X or C). */
export function pChainUtxo(ctx: ModelContext, u: IndexedUtxo): PChainUtxo {
  const spent = ctx.index.consumption(u.utxoId)
  const stake = u.staked !== undefined || u.rewardType !== undefined
  return {
    addresses: u.addresses.map((a) => bare(ctx, a)),
    asset: assetAmount(ctx.asset(u.assetId), u.amount),
    consumedOnChainId: spent?.chainId ?? u.exportedTo ?? u.createdOnChainId,
    ...(spent ? { consumingTxHash: spent.txId } : {}),
    createdOnChainId: u.createdOnChainId,
    utxoId: u.utxoId,
    utxoBytes: bytesToHex(encodeUtxo(u.codec, u.utxo)),
    amount: u.amount.toString(),
    assetId: u.assetId,
    blockNumber: String(u.height),
    blockTimestamp: u.timestamp,
    ...(spent ? { consumingBlockNumber: String(spent.height), consumingBlockTimestamp: spent.timestamp } : {}),
    platformLocktime: Number(u.locktime),
    outputIndex: u.utxo.outputIndex,
    ...(u.rewardType ? { rewardType: u.rewardType } : {}),
    ...(u.stakeableLocktime !== undefined ? { stakeableLocktime: Number(u.stakeableLocktime) } : {}),
    staked: u.staked !== undefined,
    threshold: u.threshold,
    txHash: idToString(u.utxo.txId),
    ...(u.staked ? { utxoEndTimestamp: u.staked.end, utxoStartTimestamp: u.staked.start } : {}),
    utxoType: stake ? 'STAKE' : 'TRANSFER',
  }
}

/** `Utxo` (X-chain, and atomic UTXOs of the C-chain). */
export function xChainUtxo(ctx: ModelContext, u: IndexedUtxo, credentials?: UtxoCredential[]): Utxo {
  const spent = ctx.index.consumption(u.utxoId)
  return {
    addresses: u.addresses.map((a) => bare(ctx, a)),
    asset: assetAmount(ctx.asset(u.assetId), u.amount),
    consumedOnChainId: spent?.chainId ?? u.exportedTo ?? u.createdOnChainId,
    ...(spent ? { consumingTxHash: spent.txId } : {}),
    createdOnChainId: u.createdOnChainId,
    utxoId: u.utxoId,
    utxoBytes: bytesToHex(encodeUtxo('X', u.utxo)),
    ...(spent ? { consumingTxTimestamp: spent.timestamp } : {}),
    creationTxHash: idToString(u.utxo.txId),
    ...(credentials && credentials.length > 0 ? { credentials } : {}),
    locktime: Number(u.locktime),
    outputIndex: String(u.utxo.outputIndex),
    threshold: u.threshold,
    timestamp: u.timestamp,
    utxoType: u.utxo.output.type === 'MintOutput' ? 'mint' : 'transfer',
  }
}

const utxosOf = (ctx: ModelContext, ids: readonly string[]) => ids.flatMap((id) => ctx.index.utxo(id) ?? [])

function l1Details(s: L1ValidatorSample): L1ValidatorDetailsTransaction {
  return {
    validationId: s.validationId,
    validationIdHex: bytesToHex(idFromString(s.validationId)),
    nodeId: s.nodeId,
    subnetId: s.subnetId,
    weight: Number(s.weight),
    remainingBalance: Number(s.remainingBalance),
    ...(s.balanceChange !== undefined ? { balanceChange: Number(s.balanceChange) } : {}),
    blsCredentials: s.proofOfPossession ? { publicKey: s.publicKey, proofOfPossession: s.proofOfPossession } : { publicKey: s.publicKey },
  }
}


/** The genesis of a CreateChainTx: the parsed JSON when it is JSON (EVM chains), else its hex. */
function genesisData(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as unknown
  } catch {
    return bytesToHex(bytes)
  }
}

/** `PChainTransaction`. */
export function pChainTransaction(ctx: ModelContext, t: IndexedTx): PChainTransaction {
  const u = t.unsigned as PChainUnsignedTx
  const consumed = utxosOf(ctx, t.consumed)
  const emitted = utxosOf(ctx, t.emitted)
  const avax = ctx.avaxAssetId
  const inputs: TransferableInput[] = [...('base' in u ? u.base.inputs : []), ...(u.type === 'ImportTx' ? u.importedInputs : [])]
  const l1Balance = u.type === 'ConvertSubnetToL1Tx' ? u.validators.reduce((s, v) => s + v.balance, 0n)
    : u.type === 'RegisterL1ValidatorTx' || u.type === 'IncreaseL1ValidatorBalanceTx' ? u.balance : 0n
  const refunds = u.type === 'SetL1ValidatorWeightTx' || u.type === 'DisableL1ValidatorTx' ? emitted.filter((e) => e.utxo.outputIndex >= u.base.outputs.length) : []
  const burned = u.type === 'RewardValidatorTx' ? [] : sums(ctx, [
    ...inputs.map((i): [string, bigint] => [idToString(i.assetId), inAmount(i)]),
    ...emitted.filter((e) => !refunds.includes(e)).map((e): [string, bigint] => [e.assetId, -e.amount]),
    [avax, -l1Balance],
  ])
  const staking = 'stakeOuts' in u ? u : undefined
  const validator = 'validator' in u ? u.validator : undefined
  const staker = staking ? ctx.index.stakerOf(t.txId) : undefined
  const subnetId = u.type === 'AddValidatorTx' || u.type === 'AddDelegatorTx' ? PRIMARY_NETWORK_ID
    : u.type === 'CreateSubnetTx' ? t.txId
    : 'subnetId' in u ? idToString(u.subnetId) : undefined
  const nodeId = validator ? nodeIdToString(validator.nodeId) : u.type === 'RemoveSubnetValidatorTx' ? nodeIdToString(u.nodeId) : undefined
  const rewardsOwner = u.type === 'AddValidatorTx' || u.type === 'AddDelegatorTx' ? u.rewardsOwner
    : u.type === 'AddPermissionlessValidatorTx' ? u.validatorRewardsOwner : u.type === 'AddPermissionlessDelegatorTx' ? u.delegatorRewardsOwner : undefined
  const shares = 'delegationShares' in u ? u.delegationShares : undefined
  const rewardTx = staking ? ctx.index.rewardTxOf(t.txId) : undefined
  const memo = 'base' in u && u.base.memo.length > 0 ? bytesToHex(u.base.memo) : undefined
  const owner = u.type === 'CreateSubnetTx' || u.type === 'TransferSubnetOwnershipTx' ? u.owner : undefined
  return {
    txHash: t.txId,
    txType: t.type,
    blockTimestamp: t.timestamp,
    blockNumber: String(t.height),
    blockHash: t.blockHash,
    consumedUtxos: consumed.map((e) => pChainUtxo(ctx, e)),
    emittedUtxos: emitted.map((e) => pChainUtxo(ctx, e)),
    ...(u.type === 'ImportTx' ? { sourceChain: idToString(u.sourceChain) } : {}),
    ...(u.type === 'ExportTx' ? { destinationChain: idToString(u.destinationChain) } : {}),
    value: sums(ctx, emitted.map((e) => [e.assetId, e.amount])),
    amountBurned: burned,
    amountStaked: sums(ctx, (staking?.stakeOuts ?? []).map((o) => [idToString(o.assetId), o.output.type === 'StakeableLockOut' ? o.output.output.amount : o.output.type === 'TransferOutput' ? o.output.amount : 0n])),
    amountL1ValidatorBalanceBurned: l1Balance > 0n ? [assetAmount(ctx.asset(avax), l1Balance)] : [],
    ...(validator ? { startTimestamp: staker?.startTime ?? Number(validator.start), endTimestamp: staker?.endTime ?? Number(validator.end) } : {}),
    ...(shares !== undefined ? { delegationFeePercent: (shares / 10_000).toFixed(4) } : {}),
    ...(nodeId ? { nodeId } : {}),
    ...(subnetId ? { subnetId } : {}),
    ...(u.type === 'ConvertSubnetToL1Tx' ? { l1ValidatorManagerDetails: { blockchainId: idToString(u.chainId), contractAddress: bytesToHex(u.address) } } : {}),
    ...(t.l1 ? { l1ValidatorDetails: t.l1.map(l1Details) } : {}),
    ...(staking && staker && staker.potentialReward > 0n ? { estimatedReward: staker.potentialReward.toString() } : {}),
    ...(rewardTx ? { rewardTxHash: rewardTx } : {}),
    ...(rewardsOwner ? { rewardAddresses: rewardsOwner.addrs.map((a) => bareBytes(ctx, a)) } : {}),
    ...(memo ? { memo } : {}),
    ...(u.type === 'RewardValidatorTx' ? { stakingTxHash: idToString(u.txId) } : {}),
    ...(owner ? { subnetOwnershipInfo: { locktime: Number(owner.locktime), threshold: owner.threshold, addresses: owner.addrs.map((a) => bareBytes(ctx, a)) } } : {}),
    ...(u.type === 'AddPermissionlessValidatorTx' && u.signer.type === 'ProofOfPossession' ? { blsCredentials: { publicKey: bytesToHex(u.signer.publicKey), proofOfPossession: bytesToHex(u.signer.signature) } } : {}),
    ...(u.type === 'CreateChainTx' ? { blockchainInfo: { chainName: u.chainName, vmId: idToString(u.vmId), genesisData: genesisData(u.genesisData) } } : {}),
  }
}

/** `XChainLinearTransaction`. */
export function xChainTransaction(ctx: ModelContext, t: IndexedTx): XChainLinearTransaction {
  const u = t.unsigned as XChainUnsignedTx
  const consumed = utxosOf(ctx, t.consumed)
  const emitted = utxosOf(ctx, t.emitted)
  const created = u.type === 'CreateAssetTx' ? ctx.createdAsset(t.txId) : undefined
  return {
    txHash: t.txId,
    chainFormat: 'linear',
    timestamp: t.timestamp,
    txType: t.type,
    memo: bytesToHex(u.base.memo),
    consumedUtxos: consumed.map((e) => xChainUtxo(ctx, e, credentialsFor(t, e.utxoId))),
    emittedUtxos: emitted.map((e) => xChainUtxo(ctx, e)),
    amountUnlocked: sums(ctx, consumed.map((e) => [e.assetId, e.amount])),
    amountCreated: sums(ctx, emitted.map((e) => [e.assetId, e.amount])),
    ...(u.type === 'ImportTx' ? { sourceChain: idToString(u.sourceChain) } : {}),
    ...(u.type === 'ExportTx' ? { destinationChain: idToString(u.destinationChain) } : {}),
    ...(u.type === 'CreateAssetTx' && created ? {
      assetCreated: {
        assetId: t.txId, name: created.name, symbol: created.symbol, denomination: created.denomination, type: 'secp256k1' as const,
        createdAtTimestamp: t.timestamp, cap: u.initialStates.some((s) => s.outputs.some((o) => o.type === 'MintOutput')) ? 'variable' as const : 'fixed' as const,
      },
    } : {}),
    blockHeight: t.height,
    blockHash: t.blockHash,
  }
}

/**
 * The credential that signed input `utxoId` of `t` (inputs and credentials pair up in order), its
 * public keys recovered from the signatures over the unsigned tx, as `UtxoCredential`s.
 */
function credentialsFor(t: IndexedTx, utxoId: string): UtxoCredential[] | undefined {
  const i = t.consumed.indexOf(utxoId)
  const cred = i < 0 ? undefined : t.credentials[i]
  if (!cred) return undefined
  const hash = sha256(t.chain === 'C' ? encodeCUnsignedTx(t.unsigned as CAtomicUnsignedTx) : encodeUnsignedTx('X', t.unsigned as XChainUnsignedTx))
  return cred.sigs.map((sig) => ({ signature: bytesToHex(sig), publicKey: bytesToHex(recoverPublicKey(hash, sig)) }))
}

/** `CChainExportTransaction` / `CChainImportTransaction` (EVM-side amounts in nAVAX). */
export function cChainTransaction(ctx: ModelContext, t: IndexedTx): CChainExportTransaction | CChainImportTransaction {
  const u = t.unsigned as CAtomicUnsignedTx
  const hash = sha256(encodeCUnsignedTx(u))
  const cChainId = idToString(u.blockchainId)
  if (u.type === 'ExportTx') {
    const emitted = utxosOf(ctx, t.emitted)
    return {
      txHash: t.txId, blockHeight: t.height, blockHash: t.blockHash, timestamp: t.timestamp, memo: '0x',
      amountUnlocked: sums(ctx, u.ins.map((i) => [idToString(i.assetId), i.amount])),
      amountCreated: sums(ctx, emitted.map((e) => [e.assetId, e.amount])),
      sourceChain: cChainId, destinationChain: idToString(u.destinationChain), txType: 'ExportTx',
      evmInputs: u.ins.map((i, k) => ({
        fromAddress: bytesToHex(i.address),
        asset: assetAmount(ctx.asset(idToString(i.assetId)), i.amount),
        credentials: (t.credentials[k]?.sigs ?? []).map((sig) => ({ signature: bytesToHex(sig), publicKey: bytesToHex(recoverPublicKey(hash, sig)) })),
      })),
      emittedUtxos: emitted.map((e) => xChainUtxo(ctx, e)),
    }
  }
  const consumed = utxosOf(ctx, t.consumed)
  return {
    txHash: t.txId, blockHeight: t.height, blockHash: t.blockHash, timestamp: t.timestamp, memo: '0x',
    amountUnlocked: sums(ctx, u.importedInputs.map((i) => [idToString(i.assetId), inAmount(i)])),
    amountCreated: sums(ctx, u.outs.map((o) => [idToString(o.assetId), o.amount])),
    sourceChain: idToString(u.sourceChain), destinationChain: cChainId, txType: 'ImportTx',
    evmOutputs: u.outs.map((o) => ({ toAddress: bytesToHex(o.address), asset: assetAmount(ctx.asset(idToString(o.assetId)), o.amount) })),
    consumedUtxos: consumed.map((e) => xChainUtxo(ctx, e, credentialsFor(t, e.utxoId))),
  }
}
