/**
 * Data API operations 14 (`POST /v1/networks/{network}/blockchains/{blockchainId}/utxos`) and 15
 * (`GET /v1/networks/{network}/blockchains/{blockchainId}/transactions`) for the P- and X-chain,
 * read from the network's chain state.
 *
 * `{blockchainId}` is the chain id or its alias (`p-chain` / `11111111111111111111111111111111LpoYY`,
 * `x-chain`); `c-chain` and the C-chain id answer empty lists. Op 14 answers 201 (the hosted NestJS
 * POST, data-api.md §4). Paging: the cursor is the sort key and id of the last item served.
 * Approximations: `utxoType` is always `TRANSFER` / `transfer` (`mint` for MintOutputs); `staked`,
 * `utxoStartTimestamp`/`utxoEndTimestamp`, `credentials`, `l1ValidatorDetails`, `blsCredentials`,
 * `blockchainInfo`, `subnetOwnershipInfo` are not emitted; txTypes / timestamps filter without an
 * address filter too; UTXOs imported by a P-chain ImportTx are not listed among its consumed UTXOs.
 */
import type { FastifyInstance } from 'fastify'
import { formatAddress, hrpForNetworkId, parseAddress } from '../../../../core/address.js'
import { bytesToHex } from '../../../../core/hex.js'
import { PRIMARY_NETWORK_ID, idToString, nodeIdToString } from '../../../../core/ids.js'
import type { Network } from '../../../../network/network.js'
import { encodeUtxo, utxoId as utxoIdOf } from '../../../../platform/codec.js'
import type { TransferableInput, TransferableOutput, Utxo as CodecUtxo } from '../../../../platform/txs.js'
import { badRequest } from '../errors.js'
import type { V1Context, V1Routes } from '../index.js'
import { acceptedNetworkNames, namesNetwork } from '../networks.js'
import type { PageScope } from '../paging.js'
import { PAGE_SIZE_BOUNDS, QueryReader } from '../query.js'

export const PRIMARY_NETWORK_TX_TYPES = [
  'AddValidatorTx', 'AddSubnetValidatorTx', 'AddDelegatorTx', 'CreateChainTx', 'CreateSubnetTx', 'ImportTx', 'ExportTx', 'AdvanceTimeTx',
  'RewardValidatorTx', 'RemoveSubnetValidatorTx', 'TransformSubnetTx', 'AddPermissionlessValidatorTx', 'AddPermissionlessDelegatorTx', 'BaseTx',
  'TransferSubnetOwnershipTx', 'ConvertSubnetToL1Tx', 'RegisterL1ValidatorTx', 'SetL1ValidatorWeightTx', 'DisableL1ValidatorTx',
  'IncreaseL1ValidatorBalanceTx', 'UNKNOWN', 'CreateAssetTx', 'OperationTx',
] as const
export type PrimaryNetworkTxType = (typeof PRIMARY_NETWORK_TX_TYPES)[number]
const P_TX_TYPES = new Set<string>(PRIMARY_NETWORK_TX_TYPES.slice(0, 21))
const X_TX_TYPES = new Set<string>(['BaseTx', 'CreateAssetTx', 'OperationTx', 'ImportTx', 'ExportTx'])
export const UTXOS_SORT_BY = ['timestamp', 'amount'] as const
const SORT_ORDERS = ['asc', 'desc'] as const
type SortOrder = (typeof SORT_ORDERS)[number]

export type AssetAmount = { assetId: string; name: string; symbol: string; denomination: number; type: 'secp256k1' | 'nft'; amount: string }
export type PrimaryNetworkChainInfo = { chainName: 'p-chain' | 'x-chain' | 'c-chain'; network: string }
export type PChainUtxo = {
  addresses: string[]; asset: AssetAmount; consumedOnChainId: string; consumingTxHash?: string; createdOnChainId: string; utxoId: string
  utxoBytes?: string; amount: string; assetId: string; blockNumber: string; blockTimestamp: number; consumingBlockNumber?: string
  consumingBlockTimestamp?: number; platformLocktime?: number; outputIndex: number; rewardType?: 'VALIDATOR' | 'DELEGATOR' | 'VALIDATOR_FEE'
  stakeableLocktime?: number; staked?: boolean; threshold?: number; txHash: string; utxoEndTimestamp?: number; utxoStartTimestamp?: number
  utxoType: 'STAKE' | 'TRANSFER'
}
export type XChainUtxo = {
  addresses: string[]; asset: AssetAmount; consumedOnChainId: string; consumingTxHash?: string; createdOnChainId: string; utxoId: string
  utxoBytes?: string; consumingTxTimestamp?: number; creationTxHash: string; locktime: number; outputIndex: string; threshold: number
  timestamp: number; utxoType: string
}
export type PChainTransaction = {
  txHash: string; txType: string; blockTimestamp: number; blockNumber: string; blockHash: string; consumedUtxos: PChainUtxo[]; emittedUtxos: PChainUtxo[]
  sourceChain?: string; destinationChain?: string; value: AssetAmount[]; amountBurned: AssetAmount[]; amountStaked: AssetAmount[]
  amountL1ValidatorBalanceBurned: AssetAmount[]; startTimestamp?: number; endTimestamp?: number; delegationFeePercent?: string; nodeId?: string
  subnetId?: string; estimatedReward?: string; rewardTxHash?: string; rewardAddresses?: string[]; memo?: string; stakingTxHash?: string
}
export type XChainLinearTransaction = {
  txHash: string; chainFormat: 'linear'; timestamp: number; txType: string; memo: string; consumedUtxos: XChainUtxo[]; emittedUtxos: XChainUtxo[]
  amountUnlocked: AssetAmount[]; amountCreated: AssetAmount[]; sourceChain?: string; destinationChain?: string; blockHeight: number; blockHash: string
}

type Which = 'p' | 'x' | 'c'
/** A UTXO of either chain with what filters, sorts and the models read. */
type Row = { id: string; amount: bigint; timestamp: number; assetId: string; addrs: string[]; spent: boolean; createdTx: string; consumedTx?: string; out: () => PChainUtxo | XChainUtxo }
type Asset = { assetId: string; name: string; symbol: string; denomination: number }
type Keyed = { key: number | bigint; id: string }

const cmp = (a: Keyed, b: Keyed, order: SortOrder): number => {
  const sign = order === 'asc' ? 1 : -1
  if (a.key !== b.key) return (a.key < b.key ? -1 : 1) * sign
  return (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) * sign
}
const encodeCursor = (k: Keyed) => JSON.stringify([typeof k.key === 'bigint' ? `n${k.key}` : k.key, k.id])
function decodeCursor(s: string): Keyed {
  const [key, id] = JSON.parse(s) as [string | number, string]
  return { key: typeof key === 'string' ? BigInt(key.slice(1)) : key, id }
}

/** Sorts, pages after the cursor, and returns the page and the next cursor. */
function pageOf<T extends Keyed>(items: T[], order: SortOrder, pageSize: number, after: Keyed | undefined): { page: T[]; next?: string } {
  items.sort((a, b) => cmp(a, b, order))
  const start = after === undefined ? 0 : items.findIndex((k) => cmp(k, after, order) > 0)
  const page = start < 0 ? [] : items.slice(start, start + pageSize)
  const last = page[page.length - 1]
  return start >= 0 && start + pageSize < items.length && last ? { page, next: encodeCursor(last) } : { page }
}

function amountOf(output: CodecUtxo['output'] | TransferableOutput['output']): bigint {
  return output.type === 'TransferOutput' ? output.amount : output.type === 'StakeableLockOut' ? output.output.amount : 0n
}
const inAmount = (i: TransferableInput) => (i.input.type === 'StakeableLockIn' ? i.input.input.amount : i.input.amount)
const stripHex = (h: string) => h.toLowerCase().replace(/^0x/, '')

/** Sums per asset, in first-seen order. */
function sums(entries: Array<[string, bigint]>, asset: (id: string) => Asset): AssetAmount[] {
  const m = new Map<string, bigint>()
  for (const [id, v] of entries) m.set(id, (m.get(id) ?? 0n) + v)
  return [...m].filter(([, v]) => v !== 0n).map(([id, v]) => assetAmount(asset(id), v))
}
const assetAmount = (a: Asset, amount: bigint): AssetAmount => ({ assetId: a.assetId, name: a.name, symbol: a.symbol, denomination: a.denomination, type: 'secp256k1', amount: amount.toString() })

/** Operations 14 and 15 on `network`. */
export function primaryTxRoutes(network: Network): V1Routes {
  const networkId = network.preset.networkId
  const hrp = hrpForNetworkId(networkId)
  const bare = (addr: Uint8Array) => formatAddress('X', hrp, addr).slice(2)
  const pchain = () => network.primary.pchain
  const xchain = () => network.primary.xchain

  const which = (blockchainId: string): Which => {
    const p = pchain().chainId
    const x = xchain().chainId
    if (blockchainId === 'p-chain' || blockchainId === p || blockchainId === PRIMARY_NETWORK_ID) return 'p'
    if (blockchainId === 'x-chain' || blockchainId === x) return 'x'
    if (blockchainId === 'c-chain' || blockchainId === network.preset.cChainId) return 'c'
    throw badRequest(`blockchainId must be one of the following values: p-chain, x-chain, c-chain, ${p}, ${x}, ${network.preset.cChainId}`)
  }
  const chainName = (w: Which) => (`${w}-chain` as const)
  const networkParam = (value: string): boolean => {
    const accepted = acceptedNetworkNames(networkId)
    if (!accepted.includes(value)) throw badRequest(`network must be one of the following values: ${accepted.join(', ')}`)
    return namesNetwork(value, networkId)
  }
  const parseAddresses = (list: string | undefined, errors: string[], field: string): Set<string> | undefined => {
    if (list === undefined) return undefined
    const out = new Set<string>()
    for (const raw of list.split(',').map((s) => s.trim()).filter((s) => s !== '')) {
      try {
        const parsed = parseAddress(raw.includes('-') ? raw : `X-${raw}`)
        if (parsed.bytes.length !== 20) throw new Error('length')
        out.add(stripHex(bytesToHex(parsed.bytes)))
      } catch {
        errors.push(`${field} contains an invalid address: ${raw}`)
      }
    }
    return out
  }

  // --- P-chain ---
  const pAsset = (): Asset => ({ assetId: pchain().config.avaxAssetId, name: 'Avalanche', symbol: 'AVAX', denomination: 9 })
  const pBlock = (height: number) => pchain().state.d.blocks.find((b) => b.height === height)
  const pRows = (includeSpent: boolean): Row[] => {
    const d = pchain().state.d
    const records = [...d.utxos.values(), ...(includeSpent ? [...d.spent.values()] : [])]
    return records.map((rec) => {
      const u = rec.utxo
      const id = idToString(utxoIdOf(u.txId, u.outputIndex))
      const consumed = 'consumed' in rec ? (rec as { consumed: { chain: string; txId: string; height: number } }).consumed : undefined
      const created = pBlock(rec.created.height)
      const amount = amountOf(u.output)
      const owners = u.output.type === 'StakeableLockOut' ? u.output.output.owners : u.output.owners
      const addrs = owners.addrs.map((a) => stripHex(bytesToHex(a)))
      return {
        id, amount, timestamp: created?.timestamp ?? 0, assetId: idToString(u.assetId), addrs, spent: consumed !== undefined,
        createdTx: rec.created.txId, ...(consumed ? { consumedTx: consumed.txId } : {}),
        out: (): PChainUtxo => {
          const cBlock = consumed ? pBlock(consumed.height) : undefined
          return {
            addresses: owners.addrs.map(bare),
            asset: assetAmount(pAsset(), amount),
            consumedOnChainId: consumed?.chain ?? rec.created.chain,
            ...(consumed ? { consumingTxHash: consumed.txId } : {}),
            createdOnChainId: rec.created.chain,
            utxoId: id,
            utxoBytes: bytesToHex(encodeUtxo('P', u)),
            amount: amount.toString(),
            assetId: idToString(u.assetId),
            blockNumber: String(rec.created.height),
            blockTimestamp: created?.timestamp ?? 0,
            ...(consumed ? { consumingBlockNumber: String(consumed.height), consumingBlockTimestamp: cBlock?.timestamp ?? 0 } : {}),
            ...(owners.locktime > 0n ? { platformLocktime: Number(owners.locktime) } : {}),
            outputIndex: u.outputIndex,
            ...(rec.reward ? { rewardType: 'VALIDATOR' as const } : {}),
            ...(u.output.type === 'StakeableLockOut' ? { stakeableLocktime: Number(u.output.locktime) } : {}),
            threshold: owners.threshold,
            txHash: rec.created.txId,
            utxoType: 'TRANSFER',
          }
        },
      }
    })
  }

  // --- X-chain ---
  const xAsset = (assetId: string): Asset => {
    const a = xchain().getAsset(assetId)
    return a ? { assetId, name: a.name, symbol: a.symbol, denomination: a.denomination } : { assetId, name: '', symbol: '', denomination: 0 }
  }
  const xRows = (includeSpent: boolean): Row[] => {
    const st = xchain().state
    const x = xchain().chainId
    const entries = [...st.allUtxos(), ...(includeSpent ? st.history().filter((e) => e.exportedTo === undefined && e.consumed !== undefined) : [])]
    return entries.map((e) => {
      const u = e.utxo
      const amount = amountOf(u.output)
      const owners = u.output.type === 'StakeableLockOut' ? u.output.output.owners : u.output.owners
      const timestamp = e.created.timestamp ?? 0
      return {
        id: e.utxoId, amount, timestamp, assetId: idToString(u.assetId), addrs: owners.addrs.map((a) => stripHex(bytesToHex(a))),
        spent: e.consumed !== undefined, createdTx: e.created.txId, ...(e.consumed ? { consumedTx: e.consumed.txId } : {}),
        out: (): XChainUtxo => ({
          addresses: owners.addrs.map(bare),
          asset: assetAmount(xAsset(idToString(u.assetId)), amount),
          consumedOnChainId: e.consumed?.chainId ?? x,
          ...(e.consumed ? { consumingTxHash: e.consumed.txId } : {}),
          createdOnChainId: e.created.chainId,
          utxoId: e.utxoId,
          utxoBytes: bytesToHex(encodeUtxo('X', u)),
          ...(e.consumed ? { consumingTxTimestamp: e.consumed.timestamp } : {}),
          creationTxHash: e.created.txId,
          locktime: Number(owners.locktime),
          outputIndex: String(u.outputIndex),
          threshold: owners.threshold,
          timestamp,
          utxoType: u.output.type === 'MintOutput' ? 'mint' : 'transfer',
        }),
      }
    })
  }

  return (app: FastifyInstance, ctx: V1Context) => {
    // 14. getUtxosByAddressesV2
    app.post<{ Params: { network: string; blockchainId: string } }>('/networks/:network/blockchains/:blockchainId/utxos', async (request, reply) => {
      const query = new QueryReader(request.query)
      const thisNetwork = networkParam(request.params.network)
      const w = which(request.params.blockchainId)
      const pageSize = query.pageSize(PAGE_SIZE_BOUNDS.getUtxosByAddressesV2)
      const pageToken = query.pageToken()
      const assetId = query.string('assetId')
      const minUtxoAmount = query.number('minUtxoAmount', { min: 0 })
      const includeSpent = query.boolean('includeSpent') ?? false
      const sortBy = query.enum('sortBy', UTXOS_SORT_BY) ?? 'timestamp'
      const sortOrder = query.enum('sortOrder', SORT_ORDERS) ?? 'desc'
      const body = request.body as { addresses?: unknown } | null | undefined
      const rawAddresses = body !== null && typeof body === 'object' ? body.addresses : undefined
      if (typeof rawAddresses !== 'string') query.errors.push('addresses must be a string')
      const addrs = parseAddresses(typeof rawAddresses === 'string' ? rawAddresses : undefined, query.errors, 'addresses')
      query.finish()
      const scope: PageScope = {
        op: 'getUtxosByAddressesV2',
        filters: { network: request.params.network, chain: w, addresses: [...(addrs ?? [])].sort(), assetId, minUtxoAmount, includeSpent, sortBy, sortOrder },
      }
      const after = pageToken === undefined ? undefined : decodeCursor(ctx.tokens.decode(pageToken, scope))
      const chainInfo: PrimaryNetworkChainInfo = { chainName: chainName(w), network: request.params.network }
      reply.code(201)
      if (!thisNetwork || w === 'c') return { utxos: [], chainInfo }
      const rows = (w === 'p' ? pRows(includeSpent) : xRows(includeSpent)).filter((r) =>
        r.addrs.some((a) => addrs!.has(a)) &&
        (assetId === undefined || r.assetId === assetId) &&
        (minUtxoAmount === undefined || r.amount >= BigInt(Math.ceil(minUtxoAmount))))
      const keyed = rows.map((r) => ({ r, id: r.id, key: sortBy === 'amount' ? r.amount : r.timestamp }))
      const { page, next } = pageOf(keyed, sortOrder, pageSize, after)
      return { ...(next ? { nextPageToken: ctx.tokens.encode(next, scope) } : {}), utxos: page.map((k) => k.r.out()), chainInfo }
    })

    // 15. listLatestPrimaryNetworkTransactions
    app.get<{ Params: { network: string; blockchainId: string } }>('/networks/:network/blockchains/:blockchainId/transactions', async (request) => {
      const query = new QueryReader(request.query)
      const thisNetwork = networkParam(request.params.network)
      const w = which(request.params.blockchainId)
      const pageSize = query.pageSize(PAGE_SIZE_BOUNDS.listLatestPrimaryNetworkTransactions)
      const pageToken = query.pageToken()
      const addrs = parseAddresses(query.string('addresses'), query.errors, 'addresses')
      const l1ValidationId = query.string('l1ValidationId')
      const txTypes = query.array('txTypes', PRIMARY_NETWORK_TX_TYPES)
      const startTimestamp = query.integer('startTimestamp', { min: 0 })
      const endTimestamp = query.integer('endTimestamp', { min: 0 })
      const sortOrder = query.enum('sortOrder', SORT_ORDERS) ?? 'desc'
      if (startTimestamp !== undefined && endTimestamp !== undefined && startTimestamp > endTimestamp)
        query.errors.push('startTimestamp must not be greater than endTimestamp')
      query.finish()
      const scope: PageScope = {
        op: 'listLatestPrimaryNetworkTransactions',
        filters: { network: request.params.network, chain: w, addresses: addrs ? [...addrs].sort() : undefined, l1ValidationId, txTypes, startTimestamp, endTimestamp, sortOrder },
      }
      const after = pageToken === undefined ? undefined : decodeCursor(ctx.tokens.decode(pageToken, scope))
      const chainInfo: PrimaryNetworkChainInfo = { chainName: chainName(w), network: request.params.network }
      if (!thisNetwork || w === 'c') return { transactions: [], chainInfo }

      type TxRow = Keyed & { type: string; rank: number; build: () => PChainTransaction | XChainLinearTransaction }
      const rows = w === 'p' ? pTxRows() : xTxRows()
      const wanted = rows.filter((t) =>
        (txTypes === undefined || txTypes.includes(t.type as PrimaryNetworkTxType)) &&
        (startTimestamp === undefined || (t.key as number) >= startTimestamp) &&
        (endTimestamp === undefined || (t.key as number) <= endTimestamp) &&
        (l1ValidationId === undefined || t.mentions(l1ValidationId)) &&
        (addrs === undefined || addrs.size === 0 || t.addrs.some((a) => addrs.has(a))))
      // Key: block timestamp, then height and position (as a fraction-free composite id).
      const keyed: TxRow[] = wanted.map((t) => ({ key: t.key, id: t.id, type: t.type, rank: t.rank, build: t.build }))
      const { page, next } = pageOf(keyed, sortOrder, pageSize, after)
      return { ...(next ? { nextPageToken: ctx.tokens.encode(next, scope) } : {}), transactions: page.map((k) => k.build()), chainInfo }
    })
  }

  type TxCandidate = Keyed & { type: string; rank: number; addrs: string[]; mentions: (s: string) => boolean; build: () => PChainTransaction | XChainLinearTransaction }

  /** Every accepted P-chain tx, keyed by block timestamp and `height.position` for a stable order. */
  function pTxRows(): TxCandidate[] {
    const d = pchain().state.d
    const utxos = pRows(true)
    const byCreated = group(utxos, (r) => r.createdTx)
    const byConsumed = group(utxos.filter((r) => r.consumedTx !== undefined), (r) => r.consumedTx!)
    const out: TxCandidate[] = []
    for (const block of d.blocks) {
      block.txs.forEach((txId, i) => {
        const stored = d.txs.get(txId)
        if (!stored) return
        const unsigned = (stored.tx as { unsigned?: Record<string, unknown> } | undefined)?.unsigned ?? {}
        const type = P_TX_TYPES.has(stored.type) ? stored.type : 'UNKNOWN'
        const emitted = byCreated.get(txId) ?? []
        const consumed = byConsumed.get(txId) ?? []
        out.push({
          key: block.timestamp, id: `${String(block.height).padStart(12, '0')}.${String(i).padStart(6, '0')}.${txId}`, rank: 0, type,
          addrs: [...emitted, ...consumed].flatMap((r) => r.addrs),
          mentions: (s) => JSON.stringify(unsigned, (_k, v: unknown) => (v instanceof Uint8Array ? idToStringSafe(v) : typeof v === 'bigint' ? v.toString() : v)).includes(s),
          build: () => pTransaction(txId, type, unsigned, block, emitted, consumed),
        })
      })
    }
    return out
  }

  function pTransaction(txId: string, type: string, u: Record<string, unknown>, block: { height: number; id: string; timestamp: number }, emitted: Row[], consumed: Row[]): PChainTransaction {
    const asset = () => pAsset()
    const base = u.base as { inputs: TransferableInput[]; outputs: TransferableOutput[]; memo: Uint8Array } | undefined
    const inputs = [...(base?.inputs ?? []), ...((u.importedInputs as TransferableInput[] | undefined) ?? [])]
    const stakeOuts = (u.stakeOuts as TransferableOutput[] | undefined) ?? []
    const outs = [...(base?.outputs ?? []), ...((u.exportedOutputs as TransferableOutput[] | undefined) ?? []), ...stakeOuts]
    const l1Balance = type === 'ConvertSubnetToL1Tx'
      ? ((u.validators as Array<{ balance: bigint }> | undefined) ?? []).reduce((s, v) => s + v.balance, 0n)
      : typeof u.balance === 'bigint' ? u.balance : 0n
    const avax = pAsset().assetId
    const burned = sums([...inputs.map((i): [string, bigint] => [idToString(i.assetId), inAmount(i)]), ...outs.map((o): [string, bigint] => [idToString(o.assetId), -amountOf(o.output)]), [avax, -l1Balance]], asset)
    const validator = u.validator as { nodeId: Uint8Array; start: bigint; end: bigint } | undefined
    const subnetId = u.subnetId instanceof Uint8Array ? idToString(u.subnetId) : validator && (type === 'AddValidatorTx' || type === 'AddDelegatorTx' || type === 'AddPermissionlessValidatorTx' || type === 'AddPermissionlessDelegatorTx') ? PRIMARY_NETWORK_ID : undefined
    const rewardsOwner = (u.rewardsOwner ?? u.validatorRewardsOwner) as { addrs: Uint8Array[] } | undefined
    const shares = (u.delegationShares as number | undefined)
    const staker = pchain().state.d.endedStakers.get(txId)
    const memo = base?.memo && base.memo.length > 0 ? bytesToHex(base.memo) : undefined
    return {
      txHash: txId,
      txType: type,
      blockTimestamp: block.timestamp,
      blockNumber: String(block.height),
      blockHash: block.id,
      consumedUtxos: consumed.map((r) => r.out() as PChainUtxo),
      emittedUtxos: emitted.map((r) => r.out() as PChainUtxo),
      ...(u.sourceChain instanceof Uint8Array ? { sourceChain: idToString(u.sourceChain) } : {}),
      ...(u.destinationChain instanceof Uint8Array ? { destinationChain: idToString(u.destinationChain) } : {}),
      value: sums(emitted.map((r) => [r.assetId, r.amount]), asset),
      amountBurned: burned,
      amountStaked: sums(stakeOuts.map((o) => [idToString(o.assetId), amountOf(o.output)]), asset),
      amountL1ValidatorBalanceBurned: l1Balance > 0n ? [assetAmount(pAsset(), l1Balance)] : [],
      ...(validator ? { startTimestamp: Number(validator.start), endTimestamp: Number(validator.end) } : {}),
      ...(shares !== undefined ? { delegationFeePercent: (shares / 10_000).toFixed(4) } : {}),
      ...(validator ? { nodeId: nodeIdString(validator.nodeId) } : {}),
      ...(subnetId ? { subnetId } : {}),
      ...(staker?.staker.potentialReward !== undefined && validator ? { estimatedReward: staker.staker.potentialReward.toString() } : {}),
      ...(staker?.endTxId ? { rewardTxHash: staker.endTxId } : {}),
      ...(rewardsOwner ? { rewardAddresses: rewardsOwner.addrs.map(bare) } : {}),
      ...(memo ? { memo } : {}),
      ...(type === 'RewardValidatorTx' && u.txId instanceof Uint8Array ? { stakingTxHash: idToString(u.txId) } : {}),
    }
  }

  function xTxRows(): TxCandidate[] {
    const x = xchain()
    const utxos = xRows(true)
    const byCreated = group(utxos, (r) => r.createdTx)
    const byConsumed = group(utxos.filter((r) => r.consumedTx !== undefined), (r) => r.consumedTx!)
    const out: TxCandidate[] = []
    for (let h = 0; h <= x.height; h++) {
      const block = x.getBlockByHeight(h)
      if (!block) continue
      block.txIds.forEach((txId, i) => {
        const stored = x.getTx(txId)
        if (!stored) return
        const u = stored.tx.unsigned as unknown as Record<string, unknown> & { type: string }
        const type = X_TX_TYPES.has(u.type) ? u.type : 'UNKNOWN'
        const emitted = byCreated.get(txId) ?? []
        const consumed = byConsumed.get(txId) ?? []
        out.push({
          key: block.timestamp, id: `${String(block.height).padStart(12, '0')}.${String(i).padStart(6, '0')}.${txId}`, rank: 0, type,
          addrs: [...emitted, ...consumed].flatMap((r) => r.addrs), mentions: () => false,
          build: (): XChainLinearTransaction => {
            const base = u.base as { memo: Uint8Array; outputs: TransferableOutput[] } | undefined
            const exported = (u.exportedOutputs as TransferableOutput[] | undefined) ?? []
            return {
              txHash: txId,
              chainFormat: 'linear',
              timestamp: block.timestamp,
              txType: type,
              memo: bytesToHex(base?.memo ?? new Uint8Array()),
              consumedUtxos: consumed.map((r) => r.out() as XChainUtxo),
              emittedUtxos: emitted.map((r) => r.out() as XChainUtxo),
              amountUnlocked: sums(consumed.map((r) => [r.assetId, r.amount]), xAsset),
              amountCreated: sums([...emitted.map((r): [string, bigint] => [r.assetId, r.amount]), ...exported.map((o): [string, bigint] => [idToString(o.assetId), amountOf(o.output)])], xAsset),
              ...(u.sourceChain instanceof Uint8Array ? { sourceChain: idToString(u.sourceChain) } : {}),
              ...(u.destinationChain instanceof Uint8Array ? { destinationChain: idToString(u.destinationChain) } : {}),
              blockHeight: block.height,
              blockHash: block.id,
            }
          },
        })
      })
    }
    return out
  }
}

function group<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>()
  for (const t of items) {
    const k = key(t)
    const list = m.get(k)
    if (list) list.push(t)
    else m.set(k, [t])
  }
  return m
}

function idToStringSafe(v: Uint8Array): string {
  try { return idToString(v) } catch { return bytesToHex(v) }
}

function nodeIdString(bytes: Uint8Array): string {
  try { return nodeIdToString(bytes) } catch { return bytesToHex(bytes) }
}
