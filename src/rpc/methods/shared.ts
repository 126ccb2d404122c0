import type { BlockTag } from '../../evm/types.js'
import { hexToBytes } from '@ethereumjs/util'
import { createParser, jsonKind, UnmarshalTypeError, type BlockNumber, type BlockNumberOrHash } from '../params.js'
import { InvalidParamsError, RpcServerError } from '../errors.js'

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
