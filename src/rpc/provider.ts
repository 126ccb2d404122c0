import type { EvmChain } from '../evm/chain.js'
import type { Network } from '../network/network.js'
import type { EthContext } from './context.js'
import type { RpcMethod } from './dispatcher.js'
import { MethodNotFoundError, NotificationsUnsupportedError, toRpcError } from './errors.js'
import { createEthMethods } from './methods/index.js'

/** EIP-1193 `request`, as viem's `custom()` transport and ethers' `BrowserProvider` take it. */
export type EIP1193Provider = {
  request(args: { method: string; params?: unknown }): Promise<unknown>
}

/** The error an EIP-1193 provider throws: the JSON-RPC error object's fields on an Error. */
export class ProviderRPCError extends Error {
  override name = 'ProviderRPCError'
  readonly code: number
  readonly data: unknown
  constructor(code: number, message: string, data?: unknown) {
    super(message)
    this.code = code
    this.data = data
  }
}

/**
 * An in-process EIP-1193 provider for one chain: the same methods, parameter checks and errors as
 * the HTTP endpoint, without sockets or JSON text. For test suites that run the network in their
 * own process (as Hardhat's in-process network is used). Subscriptions need a WebSocket.
 */
export function createEIP1193Provider(options: { network: Network; chain?: EvmChain }): EIP1193Provider {
  const methods: Record<string, RpcMethod<any, unknown, EthContext>> = createEthMethods()
  const ctx: EthContext = { network: options.network, chain: options.chain ?? options.network.cChain }
  return {
    async request({ method, params }) {
      try {
        if (method === 'eth_subscribe') throw new NotificationsUnsupportedError()
        const entry = Object.hasOwn(methods, method) ? methods[method] : undefined
        if (!entry) throw new MethodNotFoundError(method)
        return await entry.handler(entry.params(params), ctx)
      } catch (error) {
        const { code, message, data } = toRpcError(error)
        throw new ProviderRPCError(code, message, data)
      }
    },
  }
}
