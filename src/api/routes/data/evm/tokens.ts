/**
 * Token metadata (name, symbol, decimals) read from the contract with eth_calls at `latest`,
 * cached per chain and token. A call that reverts or returns nothing usable gives `''` (names)
 * or `0` (decimals): the models require the fields.
 */
import { hexToBytes } from '@ethereumjs/util'
import type { Hex } from '../../../../core/hex.js'
import { call } from '../../../../evm/call.js'
import type { EvmChain } from '../../../../evm/chain.js'

export type TokenInfo = { name: string; symbol: string; decimals: number }

export const NAME_SELECTOR = '0x06fdde03'
export const SYMBOL_SELECTOR = '0x95d89b41'
export const DECIMALS_SELECTOR = '0x313ce567'

const caches = new WeakMap<EvmChain, Map<string, Promise<TokenInfo>>>()

const wordAt = (bytes: Uint8Array, offset: number): bigint | undefined => {
  if (offset + 32 > bytes.length) return undefined
  let v = 0n
  for (let i = offset; i < offset + 32; i++) v = (v << 8n) | BigInt(bytes[i]!)
  return v
}

/** An ABI `string` return value, or a `bytes32` one (older tokens), else `''`. */
export function decodeString(bytes: Uint8Array): string {
  const text = (b: Uint8Array) => new TextDecoder('utf-8', { fatal: false }).decode(b)
  if (bytes.length === 32) {
    const end = bytes.indexOf(0)
    return text(bytes.subarray(0, end === -1 ? 32 : end))
  }
  const offset = wordAt(bytes, 0)
  if (offset === undefined || offset > BigInt(bytes.length)) return ''
  const length = wordAt(bytes, Number(offset))
  if (length === undefined || Number(offset) + 32 + Number(length) > bytes.length) return ''
  const start = Number(offset) + 32
  return text(bytes.subarray(start, start + Number(length)))
}

async function read(chain: EvmChain, token: string, selector: string): Promise<Uint8Array | undefined> {
  try {
    const result = await call(chain, { to: token as Hex, data: hexToBytes(selector as Hex) }, 'latest')
    return result.success ? result.returnValue : undefined
  } catch {
    return undefined
  }
}

async function load(chain: EvmChain, token: string): Promise<TokenInfo> {
  const [name, symbol, decimals] = await Promise.all([read(chain, token, NAME_SELECTOR), read(chain, token, SYMBOL_SELECTOR), read(chain, token, DECIMALS_SELECTOR)])
  const d = decimals === undefined ? undefined : wordAt(decimals, 0)
  return {
    name: name ? decodeString(name) : '',
    symbol: symbol ? decodeString(symbol) : '',
    decimals: d !== undefined && d <= 255n ? Number(d) : 0,
  }
}

/** The metadata of `token` on `chain` (lower- or mixed-case address), read once. */
export function tokenInfo(chain: EvmChain, token: string): Promise<TokenInfo> {
  let cache = caches.get(chain)
  if (!cache) caches.set(chain, (cache = new Map()))
  const key = token.toLowerCase()
  let info = cache.get(key)
  if (!info) cache.set(key, (info = load(chain, key)))
  return info
}

/** Metadata of every distinct token, by lower-case address. */
export async function tokenInfos(chain: EvmChain, tokens: Iterable<string>): Promise<Map<string, TokenInfo>> {
  const distinct = [...new Set([...tokens].map((t) => t.toLowerCase()))]
  const infos = await Promise.all(distinct.map((t) => tokenInfo(chain, t)))
  return new Map(distinct.map((t, i) => [t, infos[i]!]))
}
