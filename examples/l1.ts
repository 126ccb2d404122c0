// An L1 from a subnet-EVM genesis and upgrade.json (the README's "L1s" example), on any preset:
// its genesis is dated after every preset's Durango, since warp cannot activate before it.
// Run by test/examples.test.ts, so this file stays true.
import { createPublicClient, createWalletClient, http, parseEther } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { startDevnet, type NetworkPresetName } from '../src/index.js'

const admin = mnemonicToAccount('test test test test test test test test test test test junk') // 0xf39F…2266
const GENESIS = 1763568000 // 2025-11-19 16:00 UTC (0x691DE980): mainnet's Granite, after every preset's Durango

export async function main(preset: NetworkPresetName = 'local'): Promise<{ chainId: number; precompiles: string[]; minted: bigint; feeManagerAt: number }> {
  const devnet = await startDevnet({
    port: 0,
    preset,
    l1s: [{
      name: 'dex', // /ext/bc/dex/rpc, beside /ext/bc/<blockchain id>/rpc
      genesis: {
        config: {
          chainId: 99999,
          feeConfig: { gasLimit: 20_000_000, minBaseFee: 1_000_000_000, targetGas: 100_000_000, baseFeeChangeDenominator: 48,
                       minBlockGasCost: 0, maxBlockGasCost: 10_000_000, targetBlockRate: 2, blockGasCostStep: 500_000 },
          contractNativeMinterConfig: { blockTimestamp: GENESIS, adminAddresses: [admin.address] },
          txAllowListConfig: { blockTimestamp: GENESIS, adminAddresses: [admin.address] },
          warpConfig: { blockTimestamp: GENESIS },
        },
        alloc: { [admin.address]: { balance: '0x52B7D2DCC80CD2E4000000' } },
        gasLimit: '0x1312D00', timestamp: '0x691DE980', difficulty: '0x0',
      },
      upgrade: { precompileUpgrades: [{ feeManagerConfig: { blockTimestamp: 1767225700, adminAddresses: [admin.address] } }] },
      validators: [{ node: 0, weight: 100 }, { node: 1, weight: 100 }],
    }],
  })
  try {
    const transport = http(devnet.rpcUrl('dex'))
    const client = createPublicClient({ transport })
    const chainId = await client.getChainId()
    const chain = { id: chainId, name: 'dex', nativeCurrency: { name: 'DEX', symbol: 'DEX', decimals: 18 }, rpcUrls: { default: { http: [devnet.rpcUrl('dex')] } } }
    const wallet = createWalletClient({ chain, transport, account: admin })
    // The native minter (0x0200…0001) is on from genesis: the admin mints 1 coin to a new address.
    const receiver = '0x000000000000000000000000000000000000bEEF'
    const mintNativeCoin = [{ type: 'function', name: 'mintNativeCoin', stateMutability: 'nonpayable', inputs: [{ name: 'addr', type: 'address' }, { name: 'amount', type: 'uint256' }], outputs: [] }] as const
    await wallet.writeContract({ address: '0x0200000000000000000000000000000000000001', abi: mintNativeCoin, functionName: 'mintNativeCoin', args: [receiver, parseEther('1')] })
    const active = await client.request<{ Method: 'eth_getActivePrecompilesAt'; Parameters: []; ReturnType: Record<string, { blockTimestamp: number }> }>({ method: 'eth_getActivePrecompilesAt', params: [] })
    const later = await client.request<{ Method: 'eth_getActivePrecompilesAt'; Parameters: [number]; ReturnType: Record<string, { blockTimestamp: number }> }>({ method: 'eth_getActivePrecompilesAt', params: [1767225700] })
    return {
      chainId,
      precompiles: Object.keys(active).sort(),
      minted: await client.getBalance({ address: receiver }),
      feeManagerAt: later.feeManagerConfig!.blockTimestamp,
    }
  } finally {
    await devnet.close()
  }
}
