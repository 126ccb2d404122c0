import type { BlockTag } from '../../evm/types.js'
import { hexToBytes } from '@ethereumjs/util'
import { createParser, jsonKind, UnmarshalTypeError, type BlockNumber, type BlockNumberOrHash } from '../params.js'
import { InvalidParamsError, MethodNotFoundError, RpcServerError } from '../errors.js'
import type { EthContext } from '../context.js'
import type { RpcMethod } from '../dispatcher.js'
import type { L1 } from '../../network/l1.js'

/** An EIP-1898 block reference or a plain number/tag as the chain resolves it. */
export function toBlockTag(ref: BlockNumberOrHash | BlockNumber | undefined): BlockTag {
  if (ref === undefined) return 'latest'
  if (typeof ref !== 'object') return ref
  if (ref.blockHash !== undefined) return { hash: ref.blockHash, requireCanonical: ref.requireCanonical }
  if (ref.blockNumber !== undefined) return ref.blockNumber
  throw new RpcServerError('invalid arguments; neither block nor hash specified')
}

/**
 * geth's `decodeHash` for storage keys: 0x optional, odd length padded, at most 32 bytes,
 * left-padded to 32.
 */
export const storageSlot = createParser('string', (raw) => {
  if (typeof raw !== 'string') throw new UnmarshalTypeError(jsonKind(raw), 'string', true)
  let hex = raw.startsWith('0x') || raw.startsWith('0X') ? raw.slice(2) : raw
  if (hex.length % 2 === 1) hex = `0${hex}`
  if (hex.length > 64) throw new InvalidParamsError('hex string too long, want at most 32 bytes')
  if (!/^[0-9a-fA-F]*$/.test(hex)) throw new InvalidParamsError('hex string invalid')
  return hexToBytes(`0x${hex.padStart(64, '0')}`)
})

/** A filter or subscription id (geth's `rpc.ID`): any string, compared case-insensitively. */
export const hash32Loose = createParser('rpc.ID', (raw) => {
  if (typeof raw !== 'string') throw new UnmarshalTypeError(jsonKind(raw), 'rpc.ID', true)
  return raw.toLowerCase() as `0x${string}`
})

/**
 * The L1 behind the context's chain, for methods only subnet-EVM serves: on the C-chain (coreth)
 * they do not exist, and answer as an unknown method does.
 */
export function l1Of(ctx: EthContext, method: string): L1 {
  const l1 = ctx.chain.flavour === 'subnet-evm' ? ctx.network.l1s.find((l) => l.chain === ctx.chain) : undefined
  if (!l1) throw new MethodNotFoundError(method)
  return l1
}

/**
 * A Go `*uint64` argument decoded by encoding/json: a JSON number that is a non-negative integer.
 * A hex string (as some SDKs send) fails as the node fails it.
 */
export const jsonUint64 = createParser('uint64', (raw) => {
  if (typeof raw !== 'number') throw new UnmarshalTypeError(jsonKind(raw), 'uint64', true)
  if (!Number.isInteger(raw) || raw < 0 || raw > 2 ** 64 - 1) throw new UnmarshalTypeError(`number ${raw}`, 'uint64', true)
  return BigInt(raw)
})

/**
 * A method only subnet-EVM chains serve: on the C-chain it is unknown, before its params are
 * even read (coreth has no such method to parse them).
 */
export function defineSubnetEvmMethod<P, R>(
  name: string,
  params: (raw: unknown) => P,
  handler: (params: P, ctx: EthContext, l1: L1) => R | Promise<R>,
): RpcMethod<unknown, R, EthContext> {
  return {
    params: (raw) => raw,
    handler: (raw, ctx) => {
      const l1 = l1Of(ctx, name)
      return handler(params(raw), ctx, l1)
    },
  }
}
