import { idToString } from '../../../core/ids.js'
import { hexToBytes } from '../../../core/hex.js'
import { decodeUtxo, utxoId } from '../../../platform/codec.js'
import { getUTXOs as build, type GetUTXOsResult } from '../../../platform/xchain/api.js'
import { objectParams, str, strArray, struct, uint32 } from '../params.js'
import { NodeRpcError, defineNodeMethod } from '../types.js'
import { encodingField } from '../platform/common.js'
import { aliasesOf, type AvmContext } from './context.js'

export type { GetUTXOsResult }

/**
 * `avm.getUTXOs` (`api.GetUTXOsArgs`): the X-chain UTXOs of the addresses, or with a
 * `sourceChain` the atomic UTXOs it exported to X; paging as `platform.getUTXOs`. With
 * `encoding: "json"` a page with UTXOs fails as the node does (`couldn't encode UTXO <id> as
 * string: unsupported encoding in method`); an empty one answers with encoding `json`.
 */
export const getUTXOs = defineNodeMethod(
  objectParams({ addresses: strArray, sourceChain: str, limit: uint32, startIndex: struct({ address: str, utxo: str }), encoding: encodingField }),
  (args, ctx: AvmContext): GetUTXOsResult => {
    const result = build(ctx.xchain, args, aliasesOf(ctx))
    if (args.encoding === 'json' && result.utxos.length > 0) {
      // the builder wrote hex (bytes + 4-byte checksum): name the first UTXO as Go does.
      const bytes = hexToBytes(result.utxos[0] as `0x${string}`)
      const utxo = decodeUtxo('X', bytes.subarray(0, bytes.length - 4))
      throw new NodeRpcError(`couldn't encode UTXO ${idToString(utxoId(utxo.txId, utxo.outputIndex))} as string: unsupported encoding in method`)
    }
    return result
  },
)
