import type { IcmDelivery } from '../../../network/relayer.js'

/** A delivery record as JSON: numbers in decimal strings, as the node API writes uint64s. */
export function deliveryJson(d: IcmDelivery): Record<string, unknown> {
  return { ...d, nonce: d.nonce.toString(), sourceBlockNumber: d.sourceBlockNumber.toString(), ...(d.blockNumber !== undefined ? { blockNumber: d.blockNumber.toString() } : {}) }
}
