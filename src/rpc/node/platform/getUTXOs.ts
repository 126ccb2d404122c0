import { idToString } from '../../../core/ids.js'
import { decodeUtxo, encodeUtxo, utxoId } from '../../../platform/codec.js'
import { goQuote } from '../goJson.js'
import { objectParams, str, strArray, struct, uint32 } from '../params.js'
import { NodeRpcError, defineNodeMethod } from '../types.js'
import { encodeBytes, encodingField, formatLocal, lookupChain, parseServiceAddress, parseServiceAddresses, parseStartIndex, type Encoding } from './common.js'
import type { PlatformContext } from './context.js'
import { paginatedUtxos } from './state.js'

export const MAX_GET_UTXOS_ADDRS = 1024
export const MAX_PAGE_SIZE = 1024

/** `api.GetUTXOsReply`. */
export type GetUTXOsResult = {
  numFetched: string
  utxos: string[]
  endIndex: { address: string; utxo: string }
  encoding: Encoding
}

/** `api.GetUTXOsArgs`. */
export const getUTXOsParams = objectParams({
  addresses: strArray,
  sourceChain: str,
  limit: uint32,
  startIndex: struct({ address: str, utxo: str }),
  encoding: encodingField,
})

/**
 * `platform.getUTXOs`: the UTXOs of the addresses (`avax.GetPaginatedUTXOs`: addresses in byte
 * order, newest UTXO first per address) or, with a `sourceChain` other than P, the atomic UTXOs
 * that chain exported to P; at most `limit` (0 or over 1024: 1024), from `startIndex` on, each
 * in the codec's bytes under `encoding`. `endIndex` is the last address and UTXO searched.
 */
export const getUTXOs = defineNodeMethod(getUTXOsParams, (args, ctx: PlatformContext): GetUTXOsResult => {
  if (args.addresses.length === 0) throw new NodeRpcError('no addresses provided')
  if (args.addresses.length > MAX_GET_UTXOS_ADDRS)
    throw new NodeRpcError(`number of addresses given, ${args.addresses.length}, exceeds maximum, ${MAX_GET_UTXOS_ADDRS}`)
  const pChainId = ctx.pchain.chainId
  let sourceChain = pChainId
  if (args.sourceChain !== '') {
    const id = lookupChain(ctx, args.sourceChain)
    if (id === undefined)
      throw new NodeRpcError(`problem parsing source chainID ${goQuote(args.sourceChain)}: there is no ID with alias: ${args.sourceChain}`)
    sourceChain = id
  }
  const addrs = parseServiceAddresses(ctx, args.addresses)
  const { startAddr, startUtxo } = parseStartIndex(args.startIndex, (addr) => parseServiceAddress(ctx, addr))
  const limit = args.limit <= 0 || args.limit > MAX_PAGE_SIZE ? MAX_PAGE_SIZE : args.limit

  let utxos: { bytes: Uint8Array; id: Uint8Array }[]
  let endAddr: Uint8Array
  let endUtxo: Uint8Array
  if (sourceChain === pChainId) {
    const page = paginatedUtxos(ctx.pchain, addrs, startAddr, startUtxo, limit)
    utxos = page.utxos.map(({ utxo }) => ({ bytes: encodeUtxo('P', utxo), id: utxoId(utxo.txId, utxo.outputIndex) }))
    endAddr = page.lastAddr
    endUtxo = page.lastUtxo
  } else {
    const r = ctx.sharedMemory?.indexed(sourceChain, pChainId, addrs, startAddr, startUtxo, limit)
    try {
      // avax.GetAtomicUTXOs parses each value with the P-chain codec and it is re-marshalled.
      utxos = (r?.values ?? []).map((v) => {
        const utxo = decodeUtxo('P', v)
        return { bytes: encodeUtxo('P', utxo), id: utxoId(utxo.txId, utxo.outputIndex) }
      })
    } catch (error) {
      throw new NodeRpcError(`problem retrieving UTXOs: ${(error as Error).message}`)
    }
    endAddr = r && r.lastTrait.length === 20 ? r.lastTrait : startAddr
    endUtxo = r && r.lastKey.length === 32 ? r.lastKey : startUtxo
  }
  return {
    numFetched: String(utxos.length),
    utxos: utxos.map((u) => {
      try {
        return encodeBytes(args.encoding, u.bytes)
      } catch (error) {
        throw new NodeRpcError(`couldn't encode UTXO ${idToString(u.id)} as ${args.encoding}: ${(error as Error).message}`)
      }
    }),
    endIndex: { address: formatLocal(ctx, endAddr), utxo: idToString(endUtxo) },
    encoding: args.encoding,
  }
})
