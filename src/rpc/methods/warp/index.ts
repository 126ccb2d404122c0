/** The `warp_` namespace of subnet-EVM chains (coreth's, behind `warp-api-enabled`, is off by default, so the C-chain has none). */
import { warp_getBlockAggregateSignature } from './warp_getBlockAggregateSignature.js'
import { warp_getMessage } from './warp_getMessage.js'
import { warp_getMessageAggregateSignature } from './warp_getMessageAggregateSignature.js'

export const warpMethods = { warp_getMessage, warp_getMessageAggregateSignature, warp_getBlockAggregateSignature }
