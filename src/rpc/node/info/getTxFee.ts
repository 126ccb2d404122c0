import { defineNodeMethod } from '../types.js'
import { noParams } from '../params.js'
import type { InfoContext } from './context.js'

export type GetTxFeeResult = {
  txFee: string
  createAssetTxFee: string
  createSubnetTxFee: string
  transformSubnetTxFee: string
  createBlockchainTxFee: string
  addPrimaryNetworkValidatorFee: string
  addPrimaryNetworkDelegatorFee: string
  addSubnetValidatorFee: string
  addSubnetDelegatorFee: string
}

const MILLI_AVAX = 1_000_000n
const AVAX = 1_000_000_000n

/**
 * `info.getTxFee` (deprecated in avalanchego, still served): the pre-Etna static fees in nAVAX,
 * by network (`mainnetGetTxFeeResponse`, `fujiGetTxFeeResponse`, `defaultGetTxFeeResponse`), with
 * `txFee` / `createAssetTxFee` from the network's genesis params. All `json.Uint64`, so quoted.
 */
export const getTxFee = defineNodeMethod(noParams, (_params, ctx: InfoContext): GetTxFeeResult => {
  const id = ctx.network.preset.networkId
  const production = id === 1 || id === 5
  const createSubnet = id === 1 ? AVAX : 100n * MILLI_AVAX
  const transformSubnet = id === 1 ? 10n * AVAX : id === 5 ? AVAX : 100n * MILLI_AVAX
  return {
    txFee: String(MILLI_AVAX),
    createAssetTxFee: String(production ? 10n * MILLI_AVAX : MILLI_AVAX),
    createSubnetTxFee: String(createSubnet),
    transformSubnetTxFee: String(transformSubnet),
    createBlockchainTxFee: String(createSubnet),
    addPrimaryNetworkValidatorFee: '0',
    addPrimaryNetworkDelegatorFee: '0',
    addSubnetValidatorFee: String(MILLI_AVAX),
    addSubnetDelegatorFee: String(MILLI_AVAX),
  }
})
