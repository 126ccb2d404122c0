import type { Hex } from '../../core/hex.js'
import type { CallRequest, StateOverrides } from '../../evm/call.js'
import { RpcServerError } from '../errors.js'
import { address, array, data, hash32, object, optional, quantity, uint64Quantity, createParser, jsonKind, UnmarshalTypeError } from '../params.js'

const accessTuple = object('types.AccessTuple', { address, storageKeys: array(hash32) })

/** geth's `ethapi.TransactionArgs` as eth_call, eth_estimateGas and eth_sendTransaction read it. */
export const transactionArgs = object('ethapi.TransactionArgs', {
  from: optional(address),
  to: optional(address),
  gas: optional(uint64Quantity),
  gasPrice: optional(quantity),
  maxFeePerGas: optional(quantity),
  maxPriorityFeePerGas: optional(quantity),
  value: optional(quantity),
  nonce: optional(uint64Quantity),
  data: optional(data),
  input: optional(data),
  accessList: optional(array(accessTuple)),
  chainId: optional(quantity),
  type: optional(uint64Quantity),
})

type Args = ReturnType<typeof transactionArgs>

/** Turns parsed TransactionArgs into a chain call request, with geth's consistency checks. */
export function toCallRequest(args: Args, chainId: bigint): CallRequest {
  if (args.data && args.input && Buffer.compare(args.data, args.input) !== 0)
    throw new RpcServerError('both "data" and "input" are set and not equal. Please use "input" to pass transaction call data')
  if (args.gasPrice !== undefined && (args.maxFeePerGas !== undefined || args.maxPriorityFeePerGas !== undefined))
    throw new RpcServerError('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified')
  if (args.maxFeePerGas !== undefined && args.maxPriorityFeePerGas !== undefined && args.maxFeePerGas < args.maxPriorityFeePerGas)
    throw new RpcServerError(`maxFeePerGas (${args.maxFeePerGas}) < maxPriorityFeePerGas (${args.maxPriorityFeePerGas})`)
  if (args.chainId !== undefined && args.chainId !== chainId)
    throw new RpcServerError(`chainId does not match node's (have=${args.chainId}, want=${chainId})`)
  return {
    from: args.from?.toLowerCase() as Hex | undefined,
    to: args.to?.toLowerCase() as Hex | undefined,
    gas: args.gas,
    gasPrice: args.gasPrice,
    maxFeePerGas: args.maxFeePerGas,
    maxPriorityFeePerGas: args.maxPriorityFeePerGas,
    value: args.value,
    nonce: args.nonce,
    data: args.input ?? args.data,
    accessList: args.accessList?.map((e) => ({ address: e.address!, storageKeys: e.storageKeys ?? [] })),
    type: args.type === undefined ? undefined : Number(args.type),
  }
}

const accountOverride = object('ethapi.OverrideAccount', {
  nonce: optional(uint64Quantity),
  code: optional(data),
  balance: optional(quantity),
  state: optional(createParser('map[common.Hash]common.Hash', (raw) => slotMap(raw))),
  stateDiff: optional(createParser('map[common.Hash]common.Hash', (raw) => slotMap(raw))),
})

function slotMap(raw: unknown): Record<Hex, Hex> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new UnmarshalTypeError(jsonKind(raw), 'map[common.Hash]common.Hash')
  const out: Record<Hex, Hex> = {}
  for (const [k, v] of Object.entries(raw)) out[hash32(k)] = hash32(v)
  return out
}

/** geth's `StateOverride`: address → account fields to replace during the call. */
export const stateOverrides = createParser('ethapi.StateOverride', (raw): StateOverrides | undefined => {
  if (raw === null || raw === undefined) return undefined
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new UnmarshalTypeError(jsonKind(raw), 'ethapi.StateOverride')
  const out: StateOverrides = {}
  for (const [key, value] of Object.entries(raw)) {
    const who = address(key).toLowerCase() as Hex
    const o = accountOverride(value)
    if (o.state && o.stateDiff) throw new RpcServerError(`account ${key} has both 'state' and 'stateDiff'`)
    out[who] = { balance: o.balance, nonce: o.nonce, code: o.code, state: o.state, stateDiff: o.stateDiff }
  }
  return out
}, { optional: true })
