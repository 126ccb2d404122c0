/** The `warp_` namespace of subnet-EVM chains (coreth has none). */
import { warp_getBlockAggregateSignature } from './warp_getBlockAggregateSignature.js'
import { warp_getMessage } from './warp_getMessage.js'
import { warp_getMessageAggregateSignature } from './warp_getMessageAggregateSignature.js'

export const warpMethods = { warp_getMessage, warp_getMessageAggregateSignature, warp_getBlockAggregateSignature }
