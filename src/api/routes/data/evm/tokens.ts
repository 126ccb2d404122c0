/**
 * What the data API reads from token contracts: metadata (name, symbol, decimals) with eth_calls
 * at `latest`, cached per chain and token (a call that reverts or returns nothing usable gives
 * `''` for names and `0` for decimals: the models require the fields); NFT token URIs and their
 * metadata documents; and the configured prices (`../prices.ts`) of the network a chain is in.
 */
import { hexToBytes } from '@ethereumjs/util'
import type { Hex } from '../../../../core/hex.js'
import { call } from '../../../../evm/call.js'
import type { EvmChain } from '../../../../evm/chain.js'
import type { Network } from '../../../../network/network.js'
import { createPriceTable, type CurrencyCode, type Money, type PriceTable } from '../prices.js'
import type { Erc1155Transfer, Erc721Transfer } from '../../../../indexer/index.js'
import type { Erc1155TokenMetadata, Erc721TokenMetadata } from './models.js'

export type TokenInfo = { name: string; symbol: string; decimals: number; price?: Money }

export const NAME_SELECTOR = '0x06fdde03'
export const SYMBOL_SELECTOR = '0x95d89b41'
export const DECIMALS_SELECTOR = '0x313ce567'
/** `tokenURI(uint256)` (ERC-721 metadata). */
export const TOKEN_URI_SELECTOR = '0xc87b56dd'
/** `uri(uint256)` (ERC-1155 metadata URI). */
export const URI_SELECTOR = '0x0e89341c'
/** `ownerOf(uint256)`: reverts for a token that does not exist (ERC-721). */
export const OWNER_OF_SELECTOR = '0x6352211e'

const caches = new WeakMap<EvmChain, Map<string, Promise<Omit<TokenInfo, 'price'>>>>()

/**
 * The network each chain the /v1 routes resolved belongs to, for what the network configures
 * (method names, prices). Bound by `evmChainResolver`; a chain not bound has no prices and
 * only the built-in method names.
 */
const networks = new WeakMap<EvmChain, Network>()
const priceTables = new WeakMap<Network, { options: unknown; table: PriceTable }>()

export function bindNetwork(chain: EvmChain, network: Network): void {
  networks.set(chain, network)
}
export function networkOf(chain: EvmChain): Network | undefined {
  return networks.get(chain)
}

/** The price table of the chain's network (re-read if `network.dataApi.prices` was replaced). */
export function pricesOf(chain: EvmChain): PriceTable {
  const network = networks.get(chain)
  const options = network?.dataApi.prices
  if (!network) return createPriceTable()
  const cached = priceTables.get(network)
  if (cached && cached.options === options) return cached.table
  const table = createPriceTable(options)
  priceTables.set(network, { options, table })
  return table
}

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

/** The return data of a call to `token`, or undefined when it reverts or fails. */
export async function callToken(chain: EvmChain, token: string, data: string, tag: 'latest' | bigint = 'latest'): Promise<Uint8Array | undefined> {
  try {
    const result = await call(chain, { to: token as Hex, data: hexToBytes(data as Hex) }, tag)
    return result.success ? result.returnValue : undefined
  } catch {
    return undefined
  }
}

async function load(chain: EvmChain, token: string): Promise<Omit<TokenInfo, 'price'>> {
  const [name, symbol, decimals] = await Promise.all([callToken(chain, token, NAME_SELECTOR), callToken(chain, token, SYMBOL_SELECTOR), callToken(chain, token, DECIMALS_SELECTOR)])
  const d = decimals === undefined ? undefined : wordAt(decimals, 0)
  return {
    name: name ? decodeString(name) : '',
    symbol: symbol ? decodeString(symbol) : '',
    decimals: d !== undefined && d <= 255n ? Number(d) : 0,
  }
}

/** The metadata of `token` on `chain` (lower- or mixed-case address), read once; with its price in `currency` when configured. */
export async function tokenInfo(chain: EvmChain, token: string, currency: CurrencyCode = 'usd'): Promise<TokenInfo> {
  let cache = caches.get(chain)
  if (!cache) caches.set(chain, (cache = new Map()))
  const key = token.toLowerCase()
  let info = cache.get(key)
  if (!info) cache.set(key, (info = load(chain, key)))
  const price = pricesOf(chain).token(key, currency)
  return price ? { ...(await info), price } : info
}

/** Metadata of every distinct token, by lower-case address. */
export async function tokenInfos(chain: EvmChain, tokens: Iterable<string>, currency: CurrencyCode = 'usd'): Promise<Map<string, TokenInfo>> {
  const distinct = [...new Set([...tokens].map((t) => t.toLowerCase()))]
  const infos = await Promise.all(distinct.map((t) => tokenInfo(chain, t, currency)))
  return new Map(distinct.map((t, i) => [t, infos[i]!]))
}

/**
 * The decoded-document limit: a metadata document above 1 MiB is `METADATA_CONTENT_TOO_LARGE`
 * (larger than any sane token's JSON, and small enough that a hostile `data:` URI cannot make a
 * response huge).
 */
export const METADATA_MAX_BYTES = 1 << 20

/**
 * Schemes of URIs that resolve off-chain. The emulator never reaches the internet (a test
 * network must not depend on it), so their documents are never fetched and the honest status is
 * `UNREACHABLE_TOKEN_URI`: the URI is well-formed, its content could not be read.
 */
const REMOTE_SCHEMES = new Set(['http', 'https', 'ipfs', 'ipns', 'ar'])
/** Media types of a `data:` URI read as a JSON document (`text/plain` is RFC 2397's default). */
const JSON_MEDIA = /^(application\/json|text\/json|text\/plain|application\/[a-z0-9.+-]+\+json)$/

type Metadata = Erc721TokenMetadata & Erc1155TokenMetadata

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const json = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : typeof v === 'string' ? v : JSON.stringify(v))

/** RFC 3986 percent-decoding to bytes; a `%` not followed by two hex digits stays as it is (as browsers read `data:` URLs). */
function percentDecode(text: string): Buffer {
  const raw = Buffer.from(text, 'utf8')
  const out = Buffer.alloc(raw.length)
  let n = 0
  for (let i = 0; i < raw.length; i++) {
    const hex = raw[i] === 0x25 && i + 2 < raw.length ? raw.subarray(i + 1, i + 3).toString('latin1') : ''
    if (/^[0-9a-fA-F]{2}$/.test(hex)) {
      out[n++] = parseInt(hex, 16)
      i += 2
    } else out[n++] = raw[i]!
  }
  return out.subarray(0, n)
}

/**
 * The metadata a token URI leads to, without touching the chain: `data:` URIs (base64 or
 * percent-encoded JSON) are decoded and read (`INDEXED` with the standard fields, or the status
 * of what is wrong with them); remote URIs are `UNREACHABLE_TOKEN_URI` (see {@link REMOTE_SCHEMES});
 * any other scheme, or none, is `INVALID_TOKEN_URI_SCHEME`; an empty URI `INVALID_TOKEN_URI`.
 */
export function nftMetadata(tokenUri: string, standard: 'ERC-721' | 'ERC-1155'): Metadata {
  if (tokenUri.trim() === '') return { indexStatus: 'INVALID_TOKEN_URI' }
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(tokenUri)?.[1]?.toLowerCase()
  if (scheme !== undefined && REMOTE_SCHEMES.has(scheme)) return { indexStatus: 'UNREACHABLE_TOKEN_URI' }
  if (scheme !== 'data') return { indexStatus: 'INVALID_TOKEN_URI_SCHEME' }
  const m = /^data:([^,]*),(.*)$/is.exec(tokenUri)
  if (!m) return { indexStatus: 'INVALID_TOKEN_URI' }
  const params = m[1]!.split(';').map((p) => p.trim().toLowerCase())
  const media = params[0] === '' ? 'text/plain' : params[0]!
  if (!JSON_MEDIA.test(media)) return { indexStatus: 'INVALID_METADATA' }
  const payload = m[2]!
  let bytes: Uint8Array
  if (params.slice(1).includes('base64')) {
    const b64 = percentDecode(payload).toString()
    if (!/^[A-Za-z0-9+/\-_\s]*=*\s*$/.test(b64)) return { indexStatus: 'INVALID_TOKEN_URI' }
    bytes = Buffer.from(b64, 'base64')
  } else bytes = percentDecode(payload)
  if (bytes.length > METADATA_MAX_BYTES) return { indexStatus: 'METADATA_CONTENT_TOO_LARGE' }
  let doc: unknown
  try {
    doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    return { indexStatus: 'INVALID_METADATA_JSON' }
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return { indexStatus: 'INVALID_METADATA' }
  const d = doc as Record<string, unknown>
  const out: Record<string, unknown> = {
    indexStatus: 'INDEXED',
    name: str(d.name),
    symbol: str(d.symbol),
    imageUri: str(d.image) ?? str(d.image_url),
    description: str(d.description),
    animationUri: str(d.animation_url),
    externalUrl: str(d.external_url),
    background: str(d.background_color),
  }
  if (standard === 'ERC-721') out.attributes = json(d.attributes)
  else {
    out.decimals = typeof d.decimals === 'number' && Number.isInteger(d.decimals) ? d.decimals : undefined
    out.properties = json(d.properties)
  }
  for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key]
  return out as Metadata
}

/** An ERC-1155 `uri` with its `{id}` placeholder substituted (64 hex digits, lower case). */
export const substituteId = (uri: string, id: bigint): string => uri.replaceAll('{id}', id.toString(16).padStart(64, '0'))

export type NftRead<M> = { tokenUri: string; metadata: M }
type NftCacheEntry = { lastTransfer: string; block: bigint; blockHash: Hex; read: Promise<NftRead<Metadata>> }
const nftCaches = new WeakMap<EvmChain, Map<string, NftCacheEntry>>()

async function readNft(chain: EvmChain, token: string, id: bigint, standard: 'ERC-721' | 'ERC-1155', block: bigint, timestamp: number): Promise<NftRead<Metadata>> {
  const idWord = id.toString(16).padStart(64, '0')
  const raw = await callToken(chain, token, `${standard === 'ERC-721' ? TOKEN_URI_SELECTOR : URI_SELECTOR}${idWord}`, block)
  const uri = raw === undefined ? '' : decodeString(raw)
  const tokenUri = standard === 'ERC-1155' ? substituteId(uri, id) : uri
  let found: Metadata
  if (raw === undefined || uri === '') {
    // No URI: a token that does not exist (ownerOf reverts) is missing; otherwise its URI is bad.
    const missing = standard === 'ERC-721' && (await callToken(chain, token, `${OWNER_OF_SELECTOR}${idWord}`, block)) === undefined
    found = { indexStatus: missing ? 'MISSING_TOKEN' : 'INVALID_TOKEN_URI' }
  } else found = nftMetadata(tokenUri, standard)
  const { indexStatus, ...fields } = found
  return { tokenUri, metadata: { indexStatus, metadataLastUpdatedTimestamp: timestamp, ...fields } }
}

/**
 * The token URI and metadata of an NFT, read at the head through eth_call, as the hosted indexer
 * reads them when it indexes the token's transfers: cached per (chain, standard, token, id) and
 * read again when the token's last transfer is another (`lastTransfer`, its block hash) or the
 * block the read was made at is no longer in the chain (a revert), so a reverted mint never
 * leaves metadata behind. `metadataLastUpdatedTimestamp` is the timestamp of that block.
 */
export function nftToken(chain: EvmChain, token: string, id: bigint, standard: 'ERC-721', lastTransfer: string): Promise<NftRead<Erc721TokenMetadata>>
export function nftToken(chain: EvmChain, token: string, id: bigint, standard: 'ERC-1155', lastTransfer: string): Promise<NftRead<Erc1155TokenMetadata>>
export function nftToken(chain: EvmChain, token: string, id: bigint, standard: 'ERC-721' | 'ERC-1155', lastTransfer: string): Promise<NftRead<Metadata>> {
  let cache = nftCaches.get(chain)
  if (!cache) nftCaches.set(chain, (cache = new Map()))
  const key = `${standard}|${token.toLowerCase()}|${id.toString(16)}`
  const entry = cache.get(key)
  if (entry && entry.lastTransfer === lastTransfer && chain.store.byNumber(entry.block)?.hash === entry.blockHash) return entry.read
  const block = chain.store.height
  const stored = chain.store.byNumber(block)!
  const read = readNft(chain, token.toLowerCase(), id, standard, block, Number(stored.block.header.timestamp))
  cache.set(key, { lastTransfer, block, blockHash: stored.hash, read })
  return read
}

/** The key of an NFT in {@link nftReads}' answer. */
export const nftKey = (token: string, id: bigint): string => `${token.toLowerCase()}|${id.toString(16)}`

/**
 * The token URI and metadata of every NFT the transfers name, by {@link nftKey}, through the
 * {@link nftToken} cache. Transfer lists do not know each token's last transfer, so their reads
 * are keyed without it: a read stays until the block it was made at is reverted.
 */
export async function nftReads(chain: EvmChain, transfers: Iterable<Erc721Transfer | Erc1155Transfer>): Promise<Map<string, NftRead<Metadata>>> {
  const wanted = new Map<string, { token: string; id: bigint; standard: 'ERC-721' | 'ERC-1155' }>()
  for (const t of transfers) {
    const standard = 'tokenId' in t ? 'ERC-721' : 'ERC-1155'
    for (const id of 'tokenId' in t ? [t.tokenId] : t.ids) wanted.set(nftKey(t.token, id), { token: t.token, id, standard })
  }
  const entries = await Promise.all(
    [...wanted].map(async ([key, w]) => [key, await (w.standard === 'ERC-721' ? nftToken(chain, w.token, w.id, 'ERC-721', '') : nftToken(chain, w.token, w.id, 'ERC-1155', ''))] as const),
  )
  return new Map(entries)
}
