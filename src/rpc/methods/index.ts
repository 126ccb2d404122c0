import type { RpcMethod } from '../dispatcher.js'
import type { EthContext } from '../context.js'
import { cheatMethods } from './anvil/index.js'
import { debugMethods } from './debug/index.js'
import { ethMethods } from './eth/index.js'
import { netMethods } from './net/index.js'
import { txpoolMethods } from './txpool/index.js'
import { warpMethods } from './warp/index.js'
import { web3Methods } from './web3/index.js'

/**
 * Every method the EVM endpoint serves, by namespace. The dialect-level methods that need a
 * socket (eth_subscribe) are added by the WebSocket route.
 */
export function createEthMethods(): Record<string, RpcMethod<any, any, EthContext>> {
  return { ...web3Methods, ...netMethods, ...ethMethods, ...txpoolMethods, ...debugMethods, ...cheatMethods, ...warpMethods }
}
