import { describe, expect, it } from 'vitest'
import { createTestClient, createWalletClient, custom, parseTransaction, publicActions, serializeTransaction, type Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { createNetwork } from '../../src/network/network.js'
import { createEIP1193Provider } from '../../src/rpc/provider.js'
import { testGenesis } from '../l1/helpers.js'

// Durango (Shanghai's EIP-3860: 2 gas per 32-byte word of init code) after the chain's start.
const DURANGO = 1_900_000_000
// 64 bytes of init code (63 JUMPDESTs and STOP, valid before Shanghai): two words.
const INIT_CODE = `0x${'5b'.repeat(63)}00` as Hex
const INIT_CODE_WORD_GAS = 2n * 2n

describe('transactions sharing their rules (one Common per hardfork)', () => {
  it('a creation after a fork pays its rules; one sent after a revert to before the fork pays the old ones, with a transaction mined across the fork in between', async () => {
    const network = await createNetwork({ l1s: [{ name: 'dex', genesis: testGenesis({ durangoTimestamp: DURANGO, etnaTimestamp: DURANGO, graniteTimestamp: DURANGO }) }] })
    try {
      const provider = createEIP1193Provider({ network, chain: network.chain('dex')! })
      const account = network.devAccounts[0]!.address as Hex
      const client = createWalletClient({ account, transport: custom(provider) }).extend(publicActions)
      const test = createTestClient({ mode: 'anvil', transport: custom(provider) })
      const deploy = async () => (await client.waitForTransactionReceipt({ hash: await client.sendTransaction({ data: INIT_CODE, gas: 200_000n, chain: null }) })).gasUsed
      const start = await test.snapshot()
      const before = await deploy()

      await test.revert({ id: start })
      const pending = await test.snapshot()
      await test.setAutomine(false)
      const hash = await client.sendTransaction({ data: INIT_CODE, gas: 200_000n, chain: null })
      await test.setNextBlockTimestamp({ timestamp: BigInt(DURANGO + 10) })
      await test.mine({ blocks: 1 })
      const across = await client.getTransactionReceipt({ hash })
      expect(across.status).toBe('success')
      expect(across.gasUsed).toBe(before + INIT_CODE_WORD_GAS)
      await test.setAutomine(true)
      expect(await deploy()).toBe(before + INIT_CODE_WORD_GAS)

      await test.revert({ id: pending })
      expect(await deploy()).toBe(before)
      // The first transaction, mined before the fork, still reads as it did.
      const block = await client.getBlock({ blockNumber: 1n, includeTransactions: true })
      expect(block.transactions).toHaveLength(1)
    } finally {
      await network.close()
    }
  })

  it('signed and impersonated creations sent before the fork and mined after it pay the rules of the block they are mined in (as geth, which reads the block\'s rules)', async () => {
    const network = await createNetwork({ l1s: [{ name: 'dex', genesis: testGenesis({ durangoTimestamp: DURANGO, etnaTimestamp: DURANGO, graniteTimestamp: DURANGO }) }] })
    try {
      const provider = createEIP1193Provider({ network, chain: network.chain('dex')! })
      const signer = network.devAccounts[0]!.address as Hex
      const stranger = '0x00000000000000000000000000000000000000aa' as Hex
      const client = createWalletClient({ transport: custom(provider) }).extend(publicActions)
      const test = createTestClient({ mode: 'anvil', transport: custom(provider) })
      await test.setBalance({ address: stranger, value: 10n ** 18n })
      await test.impersonateAccount({ address: stranger })
      const deploy = (account: Hex) => client.sendTransaction({ account, data: INIT_CODE, gas: 200_000n, chain: null })
      const before = (await client.waitForTransactionReceipt({ hash: await deploy(signer) })).gasUsed
      await test.setAutomine(false)
      const hashes = [await deploy(signer), await deploy(stranger)]
      await test.setNextBlockTimestamp({ timestamp: BigInt(DURANGO + 10) })
      await test.mine({ blocks: 1 })
      for (const hash of hashes) {
        const receipt = await client.getTransactionReceipt({ hash })
        expect(receipt.status).toBe('success')
        expect(receipt.gasUsed).toBe(before + INIT_CODE_WORD_GAS)
        // Same transaction, same sender, read back from the block it was mined in.
        const tx = await client.getTransaction({ hash })
        expect(tx.hash).toBe(hash)
      }
      expect((await client.getTransaction({ hash: hashes[1]! })).from).toBe(stranger)
      // A replay of the block (the call tracer) runs them on the same rules.
      const trace = (await provider.request({ method: 'debug_traceTransaction', params: [hashes[1]!, { tracer: 'callTracer' }] })) as { gasUsed: Hex }
      expect(BigInt(trace.gasUsed)).toBe(before + INIT_CODE_WORD_GAS)
    } finally {
      await network.close()
    }
  })

  it('signed and impersonated transfers to one recipient read back with their own recipient and no input', async () => {
    const network = await createNetwork()
    try {
      const provider = createEIP1193Provider({ network, chain: network.cChain })
      const [signer, recipient] = network.devAccounts.map((a) => a.address as Hex)
      const stranger = '0x00000000000000000000000000000000000000aa' as Hex
      const client = createWalletClient({ transport: custom(provider) }).extend(publicActions)
      const test = createTestClient({ mode: 'anvil', transport: custom(provider) })
      await test.setBalance({ address: stranger, value: 10n ** 18n })
      await test.impersonateAccount({ address: stranger })
      const hashes: Hex[] = []
      for (const from of [signer!, signer!, stranger, stranger])
        hashes.push(await client.sendTransaction({ account: from, to: recipient!, value: 1n, chain: null }))
      hashes.push(await client.sendTransaction({ account: signer!, to: stranger, value: 2n, chain: null }))
      const read = await Promise.all(hashes.map((hash) => client.getTransaction({ hash })))
      expect(read.map((t) => [t.from, t.to, t.input, t.value])).toEqual([
        [signer!.toLowerCase(), recipient!.toLowerCase(), '0x', 1n],
        [signer!.toLowerCase(), recipient!.toLowerCase(), '0x', 1n],
        [stranger, recipient!.toLowerCase(), '0x', 1n],
        [stranger, recipient!.toLowerCase(), '0x', 1n],
        [signer!.toLowerCase(), stranger, '0x', 2n],
      ])
      for (const hash of hashes) expect((await client.getTransactionReceipt({ hash })).status).toBe('success')
    } finally {
      await network.close()
    }
  })

  it('raw transactions of several senders, one sender shared by its transactions, each read back and mined with its own sender', async () => {
    const network = await createNetwork()
    try {
      const provider = createEIP1193Provider({ network, chain: network.cChain })
      const client = createWalletClient({ transport: custom(provider) }).extend(publicActions)
      const accounts = [0, 1, 2].map((i) => mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: i }))
      const hashes: Hex[] = []
      const expected: Hex[] = []
      for (let i = 0; i < 6; i++) {
        const account = accounts[i % 3]!
        const nonce = await client.getTransactionCount({ address: account.address })
        const raw = await account.signTransaction({ chainId: 43112, type: 'eip1559', nonce, to: accounts[(i + 1) % 3]!.address, value: 1n, gas: 21_000n, maxFeePerGas: 10n ** 12n, maxPriorityFeePerGas: 1n })
        hashes.push(await client.sendRawTransaction({ serializedTransaction: raw }))
        expected.push(account.address.toLowerCase() as Hex)
      }
      const read = await Promise.all(hashes.map((hash) => client.getTransaction({ hash })))
      expect(read.map((t) => t.from)).toEqual(expected)
      const receipts = await Promise.all(hashes.map((hash) => client.getTransactionReceipt({ hash })))
      expect(receipts.map((r) => [r.from, r.status])).toEqual(expected.map((from) => [from, 'success']))
      // A signature that recovers no key is refused with the pool's message.
      const good = await accounts[0]!.signTransaction({ chainId: 43112, type: 'eip1559', nonce: 100, to: accounts[1]!.address, value: 1n, gas: 21_000n, maxFeePerGas: 10n ** 12n, maxPriorityFeePerGas: 1n })
      const bad = parseTransaction(good)
      await expect(client.sendRawTransaction({ serializedTransaction: serializeTransaction(bad, { r: `0x${'ff'.repeat(32)}`, s: bad.s!, yParity: bad.yParity! }) })).rejects.toThrow(/invalid sender/)
    } finally {
      await network.close()
    }
  })

  it('transactions of every type, with and without access lists, read back with their own access list, and transfers with no logs', async () => {
    const network = await createNetwork()
    try {
      const provider = createEIP1193Provider({ network, chain: network.cChain })
      const client = createWalletClient({ transport: custom(provider) }).extend(publicActions)
      const account = mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: 3 })
      const to = '0x00000000000000000000000000000000000000bb' as Hex
      const accessList = [{ address: to, storageKeys: [`0x${'00'.repeat(31)}01` as Hex] }]
      const common = { chainId: 43112, to, value: 1n, gas: 30_000n }
      const fees = { maxFeePerGas: 10n ** 12n, maxPriorityFeePerGas: 1n }
      const shapes = [
        { type: 'eip1559', ...fees },
        { type: 'eip1559', ...fees, accessList },
        { type: 'eip2930', gasPrice: 10n ** 12n, accessList },
        { type: 'eip2930', gasPrice: 10n ** 12n },
        { type: 'legacy', gasPrice: 10n ** 12n },
        { type: 'eip1559', ...fees },
      ] as const
      const hashes: Hex[] = []
      for (const [nonce, shape] of shapes.entries())
        hashes.push(await client.sendRawTransaction({ serializedTransaction: await account.signTransaction({ ...common, nonce, ...shape } as Parameters<typeof account.signTransaction>[0]) }))
      const read = await Promise.all(hashes.map((hash) => client.getTransaction({ hash })))
      expect(read.map((t) => [t.type, t.accessList ?? null])).toEqual([
        ['eip1559', []],
        ['eip1559', accessList],
        ['eip2930', accessList],
        ['eip2930', []],
        ['legacy', null],
        ['eip1559', []],
      ])
      const receipts = await Promise.all(hashes.map((hash) => client.getTransactionReceipt({ hash })))
      expect(receipts.map((r) => [r.status, r.logs])).toEqual(shapes.map(() => ['success', []]))
    } finally {
      await network.close()
    }
  })
})
