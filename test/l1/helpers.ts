import { createPublicClient, createWalletClient, custom, defineChain, type Account, type Chain, type PublicClient, type Transport, type WalletClient } from 'viem'
import type { EIP1193Provider } from '../../src/rpc/provider.js'
import type { Network } from '../../src/network/network.js'
import type { L1 } from '../../src/network/l1.js'
import { mnemonicToAccount } from 'viem/accounts'
import { createNetwork, type NetworkOptions } from '../../src/network/network.js'
import { createEIP1193Provider } from '../../src/rpc/provider.js'

export const MNEMONIC = 'test test test test test test test test test test test junk'
export const accounts = Array.from({ length: 6 }, (_, i) => mnemonicToAccount(MNEMONIC, { addressIndex: i }))
export const [admin, alice, bob, carol] = accounts as [typeof accounts[0], typeof accounts[0], typeof accounts[0], typeof accounts[0]]

export const L1_CHAIN_ID = 99999
/** A genesis like subnet-EVM's test genesis: every upgrade at the network's defaults (all active on local). */
export function testGenesis(config: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return {
    config: {
      chainId: L1_CHAIN_ID,
      feeConfig: {
        gasLimit: 20_000_000,
        minBaseFee: 1_000_000_000,
        targetGas: 100_000_000,
        baseFeeChangeDenominator: 48,
        minBlockGasCost: 0,
        maxBlockGasCost: 10_000_000,
        targetBlockRate: 2,
        blockGasCostStep: 500_000,
      },
      ...config,
    },
    alloc: Object.fromEntries(accounts.map((a) => [a.address, { balance: '0x52B7D2DCC80CD2E4000000' }])),
    gasLimit: '0x1312D00',
    timestamp: '0x5FCB13D0',
    difficulty: '0x0',
    ...extra,
  }
}

export type L1Harness = {
  network: Network
  l1: L1
  provider: EIP1193Provider
  publicClient: PublicClient<Transport, Chain>
  wallet: (account: (typeof accounts)[0]) => WalletClient<Transport, Chain, Account>
}

export async function l1Network(genesis: unknown, options: Partial<NetworkOptions> & { upgrade?: unknown } = {}): Promise<L1Harness> {
  const { upgrade, ...rest } = options
  const network = await createNetwork({ ...rest, l1s: [{ name: 'dex', genesis, upgrade }] })
  const l1 = network.l1s[0]!
  const provider = createEIP1193Provider({ network, chain: l1.chain })
  const chain: Chain = defineChain({ id: Number(l1.chain.chainId), name: 'dex', nativeCurrency: { name: 'T', symbol: 'T', decimals: 18 }, rpcUrls: { default: { http: ['http://unused'] } } })
  const publicClient = createPublicClient({ chain, transport: custom(provider) }) as PublicClient<Transport, Chain>
  const wallet = (account: typeof accounts[0]) => createWalletClient({ chain, account, transport: custom(provider) })
  return { network, l1, provider, publicClient, wallet }
}
