/**
 * The call frame of ethereumjsInternals/callFrames.ts changes nothing a client sees: a frame that
 * moves no value writes no account back and hands the interpreter its message, yet an inner
 * frame runs with its own zeroed memory and returns its data, and a created contract keeps the
 * nonce its creation gave it. Through viem on the in-process provider.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { concat, createPublicClient, custom, defineChain, numberToHex, pad, type Hex, type PublicClient } from 'viem'
import { createNetwork, type Network } from '../../src/index.js'
import { createEIP1193Provider } from '../../src/rpc/provider.js'

const A = '0x00000000000000000000000000000000000a0a0a' as Hex
const B = '0x00000000000000000000000000000000000b0b0b' as Hex
const ONES = `0x${'ff'.repeat(32)}` as Hex
/** Returns its memory word at 0x100, which nothing in the frame wrote. */
const READS_0x100 = '0x6101005160005260206000f3' as Hex
/**
 * MSTORE(0x100, 2^256-1); CALL B with no input and its 32-byte answer at 0x200; MSTORE(0x120,
 * MLOAD(0x200)); RETURN(0x100, 0x40): its own word, then what B read at 0x100 of its memory.
 */
const CALLS_B = concat(['0x7f', ONES, '0x61010052', '0x6020610200600060006000', '0x73', B, '0x5af150', '0x61020051610120526040610100f3'])

describe('call frames', () => {
  let network: Network
  let client: PublicClient
  let provider: ReturnType<typeof createEIP1193Provider>
  const rpc = (method: string, params: unknown[] = []) => provider.request({ method, params })
  beforeAll(async () => {
    network = await createNetwork()
    provider = createEIP1193Provider({ network })
    client = createPublicClient({ chain: defineChain({ id: 43112, name: 'c', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: ['http://unused'] } } }), transport: custom(provider) })
  })
  afterAll(() => network.close())

  it('an inner frame has its own memory, zeroed, and the outer keeps its own', async () => {
    for (let i = 0; i < 3; i++) {
      const { data } = await client.call({ to: A, stateOverride: [{ address: A, code: CALLS_B }, { address: B, code: READS_0x100 }] })
      expect(data).toBe(concat([ONES, pad('0x00')]))
    }
  })

  it('a contract created by a transaction with no value keeps nonce 1; a zero-value call leaves both accounts as they were', async () => {
    const [from] = (await rpc('eth_accounts')) as Hex[]
    // Init code returning READS_0x100 as the runtime code (12 bytes at offset 12).
    const deploy = concat(['0x600c600c600039600c6000f3', READS_0x100])
    const hash = (await rpc('eth_sendTransaction', [{ from, data: deploy, gas: numberToHex(200_000) }])) as Hex
    const receipt = (await rpc('eth_getTransactionReceipt', [hash])) as { contractAddress: Hex; status: Hex }
    expect(receipt.status).toBe('0x1')
    const contract = receipt.contractAddress
    expect(await rpc('eth_getTransactionCount', [contract, 'latest'])).toBe('0x1')
    expect(await rpc('eth_getCode', [contract, 'latest'])).toBe(READS_0x100)

    const before = { nonce: await rpc('eth_getTransactionCount', [from, 'latest']), balance: await rpc('eth_getBalance', [contract, 'latest']) }
    const call = (await rpc('eth_sendTransaction', [{ from, to: contract, gas: numberToHex(100_000) }])) as Hex
    expect(((await rpc('eth_getTransactionReceipt', [call])) as { status: Hex }).status).toBe('0x1')
    expect(await rpc('eth_getTransactionCount', [contract, 'latest'])).toBe('0x1')
    expect(await rpc('eth_getBalance', [contract, 'latest'])).toBe(before.balance)
    expect(BigInt((await rpc('eth_getTransactionCount', [from, 'latest'])) as Hex)).toBe(BigInt(before.nonce as Hex) + 1n)
    expect(await rpc('eth_getCode', [contract, 'latest'])).toBe(READS_0x100)
  })
})
