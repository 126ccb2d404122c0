/**
 * Data API operations 16 (`GET /v1/networks/{network}/validators`) and 17
 * (`GET /v1/networks/{network}/l1Validators`), read from the network's P-chain state.
 *
 * Paging: the cursor is the sort key and tx id (validation id for L1 validators) of the last item
 * served, so a page continues after that item however the set changed in between; tokens are bound
 * to the network, the filters and the sort.
 */
import type { FastifyInstance } from 'fastify'
import { formatAddress, hrpForNetworkId } from '../../../../core/address.js'
import { bytesToHex } from '../../../../core/hex.js'
import { PRIMARY_NETWORK_ID, idFromString, idToString } from '../../../../core/ids.js'
import type { Network } from '../../../../network/network.js'
import type { L1Validator, Staker } from '../../../../platform/pchain/state.js'
import type { PChainOwner, ShortId } from '../../../../platform/txs.js'
import type { V1Context, V1Routes } from '../index.js'
import { acceptedNetworkNames, namesNetwork } from '../networks.js'
import type { PageScope } from '../paging.js'
import { PAGE_SIZE_BOUNDS, QueryReader } from '../query.js'

export const VALIDATION_STATUSES = ['completed', 'active', 'pending', 'removed'] as const
export type ValidationStatusType = (typeof VALIDATION_STATUSES)[number]
export const VALIDATOR_SORT_BY = ['blockIndex', 'delegationCapacity', 'timeRemaining', 'delegationFee', 'uptimePerformance'] as const
export type ValidatorSortBy = (typeof VALIDATOR_SORT_BY)[number]
export const SORT_ORDERS = ['asc', 'desc'] as const
export type SortOrder = (typeof SORT_ORDERS)[number]

/** Bounds of the validator filters (data-api.md §11 op 16). */
export const VALIDATOR_FILTER_BOUNDS = {
  delegationCapacity: { min: 0n, max: 720_000_000_000_000_000n },
  timeRemaining: { min: 0, max: 2147483647 },
  feePercentage: { min: 2, max: 100 },
  uptimePerformance: { min: 0, max: 100 },
} as const

export type BlsCredentials = { publicKey: string; proofOfPossession: string }
export type Rewards = { validationRewardAmount: string; delegationRewardAmount: string; rewardAddresses?: string[]; rewardTxHash?: string }
type ValidatorBase = {
  txHash: string
  nodeId: string
  subnetId: string
  amountStaked: string
  delegationFee?: string
  startTimestamp: number
  endTimestamp: number
  blsCredentials?: BlsCredentials
}
export type CompletedValidatorDetails = ValidatorBase & { delegatorCount: number; amountDelegated?: string; rewards: Rewards; validationStatus: 'completed' }
export type ValidatorHealthDetails = { reachabilityPercent: number; benchedPChainRequestsPercent: number; benchedXChainRequestsPercent: number; benchedCChainRequestsPercent: number }
export type Geolocation = { city: string; country: string; countryCode: string; latitude: number; longitude: number }
export type ActiveValidatorDetails = ValidatorBase & {
  stakePercentage: number
  delegatorCount: number
  amountDelegated?: string
  uptimePerformance: number
  avalancheGoVersion?: string
  delegationCapacity?: string
  potentialRewards: Rewards
  validationStatus: 'active'
  validatorHealth: ValidatorHealthDetails
  geolocation: Geolocation | null
}
export type PendingValidatorDetails = ValidatorBase & { validationStatus: 'pending' }
export type RemovedValidatorDetails = ValidatorBase & { removeTxHash: string; removeTimestamp: number; validationStatus: 'removed' }
export type ValidatorDetails = CompletedValidatorDetails | ActiveValidatorDetails | PendingValidatorDetails | RemovedValidatorDetails
export type ListValidatorDetailsResponse = { nextPageToken?: string; validators: ValidatorDetails[] }

export type BalanceOwner = { addresses: string[]; threshold: number }
export type L1ValidatorDetailsFull = {
  validationId: string
  validationIdHex: string
  nodeId: string
  subnetId: string
  weight: number
  remainingBalance: number
  creationTimestamp: number
  blsCredentials: { publicKey: string }
  remainingBalanceOwner: BalanceOwner
  deactivationOwner: BalanceOwner
}
export type ListL1ValidatorsResponse = { nextPageToken?: string; validators: L1ValidatorDetailsFull[]; blockHeight: string }

const PPM = 1_000_000

/** One validation with what filters and sorts read. */
type Row = {
  txId: string
  status: ValidationStatusType
  staker: Staker
  blockIndex: number
  delegationCapacity?: bigint
  timeRemaining: number
  delegationFee?: number
  uptimePerformance?: number
  details: () => ValidatorDetails
}

type SortKey = number | bigint | undefined

const compareKeys = (a: SortKey, b: SortKey): number => (a === b ? 0 : a! < b! ? -1 : 1)

/** Rows with the key first (in `order`), rows without it last, then tx id ascending. */
function compareRows(a: { key: SortKey; txId: string }, b: { key: SortKey; txId: string }, order: SortOrder): number {
  if (a.key === undefined || b.key === undefined) {
    if (a.key !== b.key) return a.key === undefined ? 1 : -1
  } else {
    const c = compareKeys(a.key, b.key)
    if (c !== 0) return order === 'asc' ? c : -c
  }
  return a.txId < b.txId ? -1 : a.txId > b.txId ? 1 : 0
}

function encodeCursor(key: SortKey, id: string): string {
  return JSON.stringify([key === undefined ? null : typeof key === 'bigint' ? `n${key}` : key, id])
}

function decodeCursor(cursor: string): { key: SortKey; txId: string } {
  const [key, txId] = JSON.parse(cursor) as [string | number | null, string]
  return { key: key === null ? undefined : typeof key === 'string' ? BigInt(key.slice(1)) : key, txId }
}

function networkParam(network: Network, value: string, errors: string[]): boolean {
  const accepted = acceptedNetworkNames(network.preset.networkId)
  if (!accepted.includes(value)) errors.push(`network must be one of the following values: ${accepted.join(', ')}`)
  return namesNetwork(value, network.preset.networkId)
}

/** A validation id as cb58 (or 0x-prefixed hex, turned into cb58), as op 15 reads `l1ValidationId`. */
export function validationIdParam(value: string | undefined, errors: string[]): string | undefined {
  if (value === undefined) return undefined
  try {
    if (/^0x[0-9a-fA-F]{64}$/.test(value)) return idToString(Buffer.from(value.slice(2), 'hex'))
    idFromString(value)
    return value
  } catch {
    errors.push('l1ValidationId must be a cb58 or 0x-prefixed hex validation id')
    return undefined
  }
}

function bareAddress(networkId: number, addr: ShortId): string {
  return formatAddress('P', hrpForNetworkId(networkId), addr).replace(/^P-/, '')
}

const feePercent = (shares: number | undefined) => (shares === undefined ? undefined : shares / 10_000)

/** A non-negative integer string within bounds, for the nAVAX filters (class-validator style messages). */
function nAvaxFilter(query: QueryReader, name: string): bigint | undefined {
  const value = query.string(name)
  if (value === undefined) return undefined
  const { min, max } = VALIDATOR_FILTER_BOUNDS.delegationCapacity
  if (!/^\d+$/.test(value) || BigInt(value) < min || BigInt(value) > max) {
    query.errors.push(`${name} must be an integer string between ${min} and ${max}`)
    return undefined
  }
  return BigInt(value)
}

function within<T extends number | bigint>(value: T | undefined, min: T | undefined, max: T | undefined): boolean {
  if (min === undefined && max === undefined) return true
  if (value === undefined) return false
  return (min === undefined || value >= min) && (max === undefined || value <= max)
}

function checkRange(query: QueryReader, name: string, min: number | bigint | undefined, max: number | bigint | undefined): void {
  if (min !== undefined && max !== undefined && min > max) query.errors.push(`min${name} must not be greater than max${name}`)
}

/** Operations 16 and 17 on `network`. */
export function primaryDataRoutes(network: Network): V1Routes {
  return (app: FastifyInstance, ctx: V1Context) => {
    app.get<{ Params: { network: string } }>('/networks/:network/validators', async (request): Promise<ListValidatorDetailsResponse> => {
      const query = new QueryReader(request.query)
      const thisNetwork = networkParam(network, request.params.network, query.errors)
      const pageSize = query.pageSize(PAGE_SIZE_BOUNDS.listValidators)
      const pageToken = query.pageToken()
      const nodeIds = query.string('nodeIds')
      const sortBy = query.enum('sortBy', VALIDATOR_SORT_BY) ?? 'blockIndex'
      const sortOrder = query.enum('sortOrder', SORT_ORDERS) ?? 'desc'
      const validationStatus = query.enum('validationStatus', VALIDATION_STATUSES)
      const minDelegationCapacity = nAvaxFilter(query, 'minDelegationCapacity')
      const maxDelegationCapacity = nAvaxFilter(query, 'maxDelegationCapacity')
      const minTimeRemaining = query.number('minTimeRemaining', VALIDATOR_FILTER_BOUNDS.timeRemaining)
      const maxTimeRemaining = query.number('maxTimeRemaining', VALIDATOR_FILTER_BOUNDS.timeRemaining)
      const minFeePercentage = query.number('minFeePercentage', VALIDATOR_FILTER_BOUNDS.feePercentage)
      const maxFeePercentage = query.number('maxFeePercentage', VALIDATOR_FILTER_BOUNDS.feePercentage)
      const minUptimePerformance = query.number('minUptimePerformance', VALIDATOR_FILTER_BOUNDS.uptimePerformance)
      const maxUptimePerformance = query.number('maxUptimePerformance', VALIDATOR_FILTER_BOUNDS.uptimePerformance)
      const subnetId = query.string('subnetId')
      checkRange(query, 'DelegationCapacity', minDelegationCapacity, maxDelegationCapacity)
      checkRange(query, 'TimeRemaining', minTimeRemaining, maxTimeRemaining)
      checkRange(query, 'FeePercentage', minFeePercentage, maxFeePercentage)
      checkRange(query, 'UptimePerformance', minUptimePerformance, maxUptimePerformance)
      query.finish()

      const scope: PageScope = {
        op: 'listValidators',
        filters: {
          network: request.params.network, nodeIds, sortBy, sortOrder, validationStatus, subnetId,
          minDelegationCapacity: minDelegationCapacity?.toString(), maxDelegationCapacity: maxDelegationCapacity?.toString(),
          minTimeRemaining, maxTimeRemaining, minFeePercentage, maxFeePercentage, minUptimePerformance, maxUptimePerformance,
        },
      }
      const after = pageToken === undefined ? undefined : decodeCursor(ctx.tokens.decode(pageToken, scope))
      if (!thisNetwork) return { validators: [] }

      const needles = (nodeIds ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '')
      const rows = validatorRows(network).filter((row) =>
        (validationStatus === undefined || row.status === validationStatus) &&
        (subnetId === undefined || row.staker.subnetId === subnetId) &&
        (needles.length === 0 || needles.some((n) => row.staker.nodeId.includes(n))) &&
        within(row.delegationCapacity, minDelegationCapacity, maxDelegationCapacity) &&
        within(row.timeRemaining, minTimeRemaining, maxTimeRemaining) &&
        within(row.delegationFee, minFeePercentage, maxFeePercentage) &&
        within(row.uptimePerformance, minUptimePerformance, maxUptimePerformance))
      const keyed = rows.map((row) => ({ row, txId: row.txId, key: row[sortBy] as SortKey }))
      keyed.sort((a, b) => compareRows(a, b, sortOrder))
      const start = after === undefined ? 0 : keyed.findIndex((k) => compareRows(k, after, sortOrder) > 0)
      const page = start < 0 ? [] : keyed.slice(start, start + pageSize)
      const more = start >= 0 && start + pageSize < keyed.length
      const last = page[page.length - 1]
      return {
        ...(more && last ? { nextPageToken: ctx.tokens.encode(encodeCursor(last.key, last.txId), scope) } : {}),
        validators: page.map((k) => k.row.details()),
      }
    })

    app.get<{ Params: { network: string } }>('/networks/:network/l1Validators', async (request): Promise<ListL1ValidatorsResponse> => {
      const query = new QueryReader(request.query)
      const thisNetwork = networkParam(network, request.params.network, query.errors)
      const pageSize = query.pageSize(PAGE_SIZE_BOUNDS.listL1Validators)
      const pageToken = query.pageToken()
      const l1ValidationId = validationIdParam(query.string('l1ValidationId'), query.errors)
      const includeInactive = query.boolean('includeInactiveL1Validators') ?? false
      const nodeId = query.string('nodeId')
      if (nodeId !== undefined && !/^NodeID-[1-9A-HJ-NP-Za-km-z]+$/.test(nodeId)) query.errors.push("nodeId must be a valid node ID in format 'NodeID-HASH'")
      const subnetId = query.string('subnetId')
      query.finish()
      const scope: PageScope = { op: 'listL1Validators', filters: { network: request.params.network, l1ValidationId, includeInactive, nodeId, subnetId } }
      const after = pageToken === undefined ? undefined : decodeCursor(ctx.tokens.decode(pageToken, scope))
      const pchain = network.primary.pchain
      const blockHeight = String(pchain.height)
      if (!thisNetwork) return { validators: [], blockHeight }

      const all = [...pchain.state.d.l1Validators.values()].filter((v) =>
        (includeInactive || v.endAccumulatedFee !== 0n) &&
        (l1ValidationId === undefined || v.validationId === l1ValidationId) &&
        (nodeId === undefined || v.nodeId === nodeId) &&
        (subnetId === undefined || v.subnetId === subnetId))
      // Newest first (creation time), then validation id.
      const keyed = all.map((v) => ({ v, txId: v.validationId, key: v.startTime as SortKey }))
      keyed.sort((a, b) => compareRows(a, b, 'desc'))
      const start = after === undefined ? 0 : keyed.findIndex((k) => compareRows(k, after, 'desc') > 0)
      const page = start < 0 ? [] : keyed.slice(start, start + pageSize)
      const more = start >= 0 && start + pageSize < keyed.length
      const last = page[page.length - 1]
      const networkId = network.preset.networkId
      return {
        ...(more && last ? { nextPageToken: ctx.tokens.encode(encodeCursor(last.key, last.txId), scope) } : {}),
        validators: page.map((k) => l1ValidatorDetails(k.v, Number(pchain.l1ValidatorBalance(k.v)), networkId)),
        blockHeight,
      }
    })
  }
}

function balanceOwner(owner: PChainOwner, networkId: number): BalanceOwner {
  return { addresses: owner.addrs.map((a) => bareAddress(networkId, a)), threshold: owner.threshold }
}

function l1ValidatorDetails(v: L1Validator, remainingBalance: number, networkId: number): L1ValidatorDetailsFull {
  return {
    validationId: v.validationId,
    validationIdHex: bytesToHex(idFromString(v.validationId)),
    nodeId: v.nodeId,
    subnetId: v.subnetId,
    weight: Number(v.weight),
    remainingBalance,
    creationTimestamp: v.startTime,
    blsCredentials: { publicKey: v.publicKey },
    remainingBalanceOwner: balanceOwner(v.remainingBalanceOwner, networkId),
    deactivationOwner: balanceOwner(v.deactivationOwner, networkId),
  }
}

/** Every validation of the primary network and the permissioned / permissionless subnets (not L1s). */
function validatorRows(network: Network): Row[] {
  const pchain = network.primary.pchain
  const st = pchain.state
  const d = st.d
  const now = pchain.timestamp
  const networkId = network.preset.networkId
  const staking = pchain.config.staking
  const isPrimary = (s: Staker) => s.subnetId === PRIMARY_NETWORK_ID
  const blockIndex = (txId: string) => st.getTx(txId)?.height ?? 0
  const rewardAddresses = (s: Staker) => s.rewardsOwner?.addrs.map((a) => bareAddress(networkId, a))
  const blsCredentials = (s: Staker): BlsCredentials | undefined => {
    if (s.blsPublicKey === undefined) return undefined
    const tx = st.getTx(s.txId)?.tx as { unsigned?: { signer?: { signature?: Uint8Array } } } | undefined
    const pop = tx?.unsigned?.signer?.signature
    return { publicKey: s.blsPublicKey, proofOfPossession: pop instanceof Uint8Array ? bytesToHex(pop) : '' }
  }
  const base = (s: Staker): ValidatorBase => {
    const bls = blsCredentials(s)
    return {
      txHash: s.txId, nodeId: s.nodeId, subnetId: s.subnetId, amountStaked: s.weight.toString(),
      ...(s.delegationShares !== undefined ? { delegationFee: feePercent(s.delegationShares)!.toFixed(4) } : {}),
      startTimestamp: s.startTime, endTimestamp: s.endTime,
      ...(bls ? { blsCredentials: bls } : {}),
    }
  }
  const totalStake = new Map<string, bigint>()
  for (const v of d.currentValidators.values()) totalStake.set(v.subnetId, (totalStake.get(v.subnetId) ?? 0n) + v.weight)
  const ended = [...d.endedStakers.values()]
  const observer = network.nodes[0]

  const rows: Row[] = []
  for (const s of d.currentValidators.values()) {
    const delegators = st.delegatorsOf(s.subnetId, s.nodeId, 'current')
    const delegated = delegators.reduce((sum, x) => sum + x.weight, 0n)
    const primary = isPrimary(s)
    const cap = staking.maxValidatorStake < s.weight * staking.maxValidatorWeightFactor ? staking.maxValidatorStake : s.weight * staking.maxValidatorWeightFactor
    const capacity = primary ? (cap - s.weight - delegated > 0n ? cap - s.weight - delegated : 0n) : undefined
    const fraction = observer?.uptime(s.subnetId).uptimeFraction(s.nodeId, now, s.startTime) ?? 1
    const uptime = Math.round(fraction * 10_000) / 100
    const connected = observer === undefined || observer.nodeId === s.nodeId || observer.isConnectedTo(s.nodeId)
    const shares = s.delegationShares ?? 0
    const delegationReward = delegators.reduce((sum, x) => sum + (x.potentialReward * BigInt(shares)) / BigInt(PPM), 0n)
    const total = totalStake.get(s.subnetId) ?? 0n
    const addresses = rewardAddresses(s)
    rows.push({
      txId: s.txId, status: 'active', staker: s, blockIndex: blockIndex(s.txId),
      ...(capacity !== undefined ? { delegationCapacity: capacity } : {}),
      timeRemaining: Math.max(0, s.endTime - now),
      ...(s.delegationShares !== undefined ? { delegationFee: feePercent(s.delegationShares)! } : {}),
      uptimePerformance: uptime,
      details: (): ActiveValidatorDetails => ({
        ...base(s),
        stakePercentage: total === 0n ? 0 : Number((s.weight * 1_000_000n) / total) / 10_000,
        delegatorCount: delegators.length,
        ...(primary ? { amountDelegated: delegated.toString() } : {}),
        uptimePerformance: uptime,
        ...(capacity !== undefined ? { delegationCapacity: capacity.toString() } : {}),
        potentialRewards: {
          validationRewardAmount: s.potentialReward.toString(),
          delegationRewardAmount: delegationReward.toString(),
          ...(addresses ? { rewardAddresses: addresses } : {}),
        },
        validationStatus: 'active',
        validatorHealth: { reachabilityPercent: connected ? 100 : 0, benchedPChainRequestsPercent: 0, benchedXChainRequestsPercent: 0, benchedCChainRequestsPercent: 0 },
        geolocation: null,
      }),
    })
  }
  for (const s of d.pendingValidators.values()) {
    rows.push({
      txId: s.txId, status: 'pending', staker: s, blockIndex: blockIndex(s.txId),
      timeRemaining: Math.max(0, s.endTime - now),
      ...(s.delegationShares !== undefined ? { delegationFee: feePercent(s.delegationShares)! } : {}),
      details: (): PendingValidatorDetails => ({ ...base(s), validationStatus: 'pending' }),
    })
  }
  for (const e of ended) {
    const s = e.staker
    if (s.kind !== 'validator') continue
    const common = {
      txId: s.txId, staker: s, blockIndex: blockIndex(s.txId), timeRemaining: 0,
      ...(s.delegationShares !== undefined ? { delegationFee: feePercent(s.delegationShares)! } : {}),
    }
    if (e.status === 'removed') {
      const endTx = e.endTxId === undefined ? undefined : st.getTx(e.endTxId)
      const block = endTx === undefined ? undefined : d.blocks.find((b) => b.height === endTx.height)
      rows.push({
        ...common, status: 'removed',
        details: (): RemovedValidatorDetails => ({ ...base(s), removeTxHash: e.endTxId ?? '', removeTimestamp: block?.timestamp ?? s.endTime, validationStatus: 'removed' }),
      })
      continue
    }
    const delegators = ended.filter((x) => x.staker.kind === 'delegator' && x.staker.nodeId === s.nodeId && x.staker.subnetId === s.subnetId &&
      x.staker.startTime >= s.startTime && x.staker.endTime <= s.endTime)
    const shares = BigInt(s.delegationShares ?? 0)
    const delegationReward = delegators.reduce((sum, x) => sum + (x.rewarded ? (x.staker.potentialReward * shares) / BigInt(PPM) : 0n), 0n)
    const addresses = rewardAddresses(s)
    rows.push({
      ...common, status: 'completed',
      details: (): CompletedValidatorDetails => ({
        ...base(s),
        delegatorCount: delegators.length,
        ...(isPrimary(s) ? { amountDelegated: delegators.reduce((sum, x) => sum + x.staker.weight, 0n).toString() } : {}),
        rewards: {
          validationRewardAmount: (e.rewarded ? s.potentialReward : 0n).toString(),
          delegationRewardAmount: delegationReward.toString(),
          ...(addresses ? { rewardAddresses: addresses } : {}),
          ...(e.endTxId !== undefined ? { rewardTxHash: e.endTxId } : {}),
        },
        validationStatus: 'completed',
      }),
    })
  }
  return rows
}
