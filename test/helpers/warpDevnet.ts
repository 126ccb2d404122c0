import { createPublicClient, createWalletClient, decodeAbiParameters, defineChain, http, parseAbi, type Hex } from 'viem'
import { startDevnet, type Devnet, type DevnetOptions } from '../../src/index.js'
import { alice, testGenesis } from '../l1/helpers.js'

const WARP = '0x0200000000000000000000000000000000000005' as const
const DURANGO_LOCAL = 1607144400
const warpAbi = parseAbi(['function sendWarpMessage(bytes payload) returns (bytes32 messageID)'])

/**
 * A devnet with an L1 `a` (chain id 11111, warp from genesis) on which alice sent
 * `sendWarpMessage(payload)` through viem over HTTP: the `SendWarpMessage` log's data and the
 * unsigned message it carries, and the transaction's hash.
 */
export async function warpDevnet(payload: Hex, options: DevnetOptions = {}): Promise<{ devnet: Devnet; sent: { data: Hex; unsigned: Hex; txHash: Hex } }> {
  const devnet = await startDevnet({ port: 0, ...options, l1s: [{ name: 'a', genesis: testGenesis({ chainId: 11111, warpConfig: { blockTimestamp: DURANGO_LOCAL } }) }] })
  const chain = defineChain({ id: 11111, name: 'a', nativeCurrency: { name: 'T', symbol: 'T', decimals: 18 }, rpcUrls: { default: { http: [devnet.rpcUrl('a')] } } })
  const hash = await createWalletClient({ chain, account: alice, transport: http() }).writeContract({ address: WARP, abi: warpAbi, functionName: 'sendWarpMessage', args: [payload] })
  const receipt = await createPublicClient({ chain, transport: http() }).getTransactionReceipt({ hash })
  const log = receipt.logs.find((l) => l.address === WARP)!
  const [unsigned] = decodeAbiParameters([{ type: 'bytes' }], log.data)
  return { devnet, sent: { data: log.data, unsigned, txHash: hash } }
}
