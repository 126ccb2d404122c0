import { EMPTY_ID } from '../../../core/ids.js'
import { cb58Id, objectParams } from '../params.js'
import { NodeRpcError, defineNodeMethod } from '../types.js'
import type { AvmContext } from './context.js'

export type GetTxStatusResult = { status: 'Accepted' | 'Unknown' }

/** `avm.getTxStatus({txID})` (deprecated): `Accepted` or `Unknown` (`choices.Status`); the empty id fails `nil transaction ID`. */
export const getTxStatus = defineNodeMethod(objectParams({ txID: cb58Id }), ({ txID }, ctx: AvmContext): GetTxStatusResult => {
  if (txID === EMPTY_ID) throw new NodeRpcError('nil transaction ID')
  return { status: ctx.xchain.getTx(txID) ? 'Accepted' : 'Unknown' }
})
