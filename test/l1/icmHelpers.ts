import { expect } from 'vitest'
import {
  bytesToHex,
  createPublicClient,
  createWalletClient,
  custom,
  decodeEventLog,
  getAddress,
  defineChain,
  type Account,
  type Chain,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
  type Transport,
  type WalletClient,
} from 'viem'
import type { EvmChain } from '../../src/evm/chain.js'
import { ICM_MESSENGER_ABI } from '../../src/evm/icm/messenger.js'
import { packPredicateHex } from '../../src/evm/warp/predicate.js'
import type { Network } from '../../src/network/network.js'
import { createEIP1193Provider, type EIP1193Provider } from '../../src/rpc/provider.js'
import { ICMReceiver } from '../fixtures/contracts/index.js'
import type { accounts } from './helpers.js'

export const WARP = '0x0200000000000000000000000000000000000005' as const
export const DURANGO_LOCAL = 1607144400

type TestAccount = (typeof accounts)[0]

/** One EVM chain of a network seen through viem. */
export type Side = {
  chain: EvmChain
  /** The chain's blockchain id as 32 bytes of hex (what the messenger uses). */
  blockchainId: Hex
  provider: EIP1193Provider
  publicClient: PublicClient<Transport, Chain>
  wallet: (account: TestAccount) => WalletClient<Transport, Chain, Account>
}

/**
 * viem over the in-process provider. No retries: viem files geth's revert code (3) under an
 * unknown error and retries it three times with back-off, a second per refused call.
 */
export function side(network: Network, chain: EvmChain, blockchainIdBytes: Uint8Array): Side {
  const provider = createEIP1193Provider({ network, chain })
  const viemChain: Chain = defineChain({ id: Number(chain.chainId), name: 'chain', nativeCurrency: { name: 'T', symbol: 'T', decimals: 18 }, rpcUrls: { default: { http: ['http://unused'] } } })
  const publicClient = createPublicClient({ chain: viemChain, transport: custom(provider, { retryCount: 0 }) }) as PublicClient<Transport, Chain>
  const wallet = (account: TestAccount) => createWalletClient({ chain: viemChain, account, transport: custom(provider, { retryCount: 0 }) })
  return { chain, blockchainId: bytesToHex(blockchainIdBytes), provider, publicClient, wallet }
}

export async function mined(s: Side, hash: Hex): Promise<TransactionReceipt> {
  const receipt = await s.publicClient.getTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  return receipt
}

export async function deployReceiver(s: Side, from: TestAccount, messenger: Hex): Promise<Hex> {
  const hash = await s.wallet(from).deployContract({ abi: ICMReceiver.abi, bytecode: ICMReceiver.bytecode, args: [messenger] })
  return getAddress((await mined(s, hash)).contractAddress!)
}

/** The messenger's events in a receipt, decoded with its ABI. */
export function messengerEvents(receipt: TransactionReceipt, messenger: Hex) {
  return receipt.logs
    .filter((l) => l.address.toLowerCase() === messenger.toLowerCase())
    .map((l) => decodeEventLog({ abi: ICM_MESSENGER_ABI, data: l.data, topics: l.topics }))
}

/** The `SendWarpMessage` log's data (the unsigned message as ABI `bytes`) in a receipt. */
export function warpLogData(receipt: TransactionReceipt): Hex {
  const log = receipt.logs.find((l) => l.address === WARP)
  expect(log).toBeDefined()
  return log!.data
}

/**
 * Delivers the warp message a send left in `sent` to `to` as a relayer does: the source
 * validators' aggregate signature in the transaction's access list, `receiveCrossChainMessage(0, reward)`.
 */
export async function deliver(network: Network, sent: TransactionReceipt, to: Side, relayer: TestAccount, messenger: Hex, reward: Hex = relayer.address, gas?: bigint) {
  const signed = network.aggregateSignatures({ message: warpLogData(sent) })
  return to.wallet(relayer).writeContract({
    address: messenger,
    abi: ICM_MESSENGER_ABI,
    functionName: 'receiveCrossChainMessage',
    args: [0, reward],
    accessList: [{ address: WARP, storageKeys: packPredicateHex(signed) }],
    gas,
  })
}
