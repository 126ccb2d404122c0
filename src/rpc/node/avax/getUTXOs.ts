import { idToString } from '../../../core/ids.js'
import { bytesToHex } from '../../../core/hex.js'
import { goQuote } from '../goJson.js'
import { encodeBytes, parseStartIndex, type Encoding } from '../platform/common.js'
import { getUTXOsParams, MAX_GET_UTXOS_ADDRS, MAX_PAGE_SIZE } from '../platform/getUTXOs.js'
import { defineNodeMethod, NodeRpcError } from '../types.js'
import { formatLocal, parseServiceAddress, type AvaxContext } from './context.js'

/** `api.GetUTXOsReply`, `endIndex.address` as `C-…`. */
export type GetUTXOsResult = { numFetched: string; utxos: string[]; endIndex: { address: string; utxo: string }; encoding: Encoding }

/**
 * `avax.getUTXOs` (coreth `AvaxAPI.GetUTXOs`): the atomic UTXOs `sourceChain` (required: `no
 * source chain provided`) exported to the C-chain for the addresses (`C-…` or cb58), at most
 * `limit` (0 or over 1024: 1024) from `startIndex` on, each in the atomic codec's bytes under
 * `encoding` (`json` fails `problem encoding utxo: unsupported encoding in method` once there is
 * one). What `evm.newImportTx` spends.
 */
export const getUTXOs = defineNodeMethod(getUTXOsParams, (args, ctx: AvaxContext): GetUTXOsResult => {
  if (args.addresses.length === 0) throw new NodeRpcError('no addresses provided')
  if (args.addresses.length > MAX_GET_UTXOS_ADDRS)
    throw new NodeRpcError(`number of addresses given, ${args.addresses.length}, exceeds maximum, ${MAX_GET_UTXOS_ADDRS}`)
  if (args.sourceChain === '') throw new NodeRpcError('no source chain provided')
  const sourceChain = ctx.lookupChain(args.sourceChain)
  if (sourceChain === undefined)
    throw new NodeRpcError(`problem parsing source chainID ${goQuote(args.sourceChain)}: there is no ID with alias: ${args.sourceChain}`)
  const addrs = new Map<string, Uint8Array>()
  for (const a of args.addresses) {
    const bytes = parseServiceAddress(ctx, a)
    addrs.set(bytesToHex(bytes), bytes)
  }
  const { startAddr, startUtxo } = parseStartIndex(args.startIndex, (addr) => parseServiceAddress(ctx, addr))
  const limit = args.limit <= 0 || args.limit > MAX_PAGE_SIZE ? MAX_PAGE_SIZE : args.limit
  const page = ctx.cAtomic.sharedMemory.indexed(sourceChain, ctx.cAtomic.chainId, [...addrs.values()], startAddr, startUtxo, limit)
  const utxos = page.values.map((bytes) => {
    try {
      return encodeBytes(args.encoding, bytes)
    } catch (error) {
      throw new NodeRpcError(`problem encoding utxo: ${(error as Error).message}`)
    }
  })
  return {
    numFetched: String(utxos.length),
    utxos,
    endIndex: {
      address: formatLocal(ctx, page.lastTrait.length === 20 ? page.lastTrait : new Uint8Array(20)),
      utxo: idToString(page.lastKey.length === 32 ? page.lastKey : new Uint8Array(32)),
    },
    encoding: args.encoding,
  }
})
