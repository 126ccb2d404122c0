import { describe, expect, it } from 'vitest'
import { MerklePatriciaTrie, verifyMerkleProof } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { bytesToHex, createAccountFromRLP, hexToBytes, setLengthLeft, unpadBytes } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { createPublicClient, http, type Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { startDevnet } from '../../src/index.js'
import { orderedTrieRoot } from '../../src/evm/orderedTrie.js'

const MNEMONIC = 'test test test test test test test test test test test junk'
/** Init code of a contract whose code logs one byte (LOG0) on every call. */
const LOGGER_INIT: Hex = '0x6560016000a0006000526006601af3'
/**
 * Init code of a contract that stores call data words 1 and 3 at slots named by words 0 and 2
 * (`SSTORE(cd[0], cd[1]); SSTORE(cd[2], cd[3])`), then reverts if word 4 is not zero.
 */
const STORE_INIT: Hex = '0x601a600c600039601a6000f36020356000355560603560403555608035601557005b600080fd'

/** A cheat code over plain JSON-RPC (viem's client types only the standard methods). */
async function cheat(url: string, method: string, params: unknown[]): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const body = (await res.json()) as { error?: { message: string } }
  if (body.error) throw new Error(`${method}: ${body.error.message}`)
}

async function trieRoot(values: Uint8Array[]): Promise<Uint8Array> {
  const trie = new MerklePatriciaTrie()
  for (const [i, value] of values.entries()) await trie.put(RLP.encode(i), value)
  return trie.root()
}

describe('block roots', () => {
  it('orderedTrieRoot equals a Merkle-Patricia trie of RLP(i) keys for every count up to 300', async () => {
    const values: Uint8Array[] = []
    for (let n = 0; n <= 300; n++) {
      expect(bytesToHex(orderedTrieRoot(values, keccak_256)), `${n} values`).toBe(bytesToHex(await trieRoot(values)))
      // Short values (embedded nodes) and long ones (hashed nodes), as receipts and transactions have.
      values.push(n % 3 === 0 ? Uint8Array.of(n & 0xff) : new Uint8Array(20 + (n % 50)).fill(n & 0xff))
    }
  })

  it('a block of many transactions, some with logs, has the transactions and receipts roots of its transactions and receipts', async () => {
    const devnet = await startDevnet({ port: 0, accounts: 20 })
    try {
      const client = createPublicClient({ transport: http(devnet.rpcUrl()) })
      const deployer = mnemonicToAccount(MNEMONIC, { addressIndex: 19 })
      const deployHash = await client.request({ method: 'eth_sendRawTransaction', params: [await deployer.signTransaction({ chainId: 43112, type: 'eip1559', nonce: 0, data: LOGGER_INIT, gas: 100_000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n })] })
      const logger = (await client.getTransactionReceipt({ hash: deployHash })).contractAddress!
      // One block of legacy, access-list and fee-market transactions, to the logger and to an account.
      const raws = await Promise.all(
        Array.from({ length: 16 }, (_, i) => {
          const account = mnemonicToAccount(MNEMONIC, { addressIndex: i })
          const to = i % 2 === 0 ? logger : deployer.address
          if (i % 3 === 0) return account.signTransaction({ chainId: 43112, type: 'legacy', nonce: 0, to, value: 1n, gas: 50_000n, gasPrice: 10n ** 11n })
          if (i % 3 === 1) return account.signTransaction({ chainId: 43112, type: 'eip2930', nonce: 0, to, value: 1n, gas: 50_000n, gasPrice: 10n ** 11n, accessList: [] })
          return account.signTransaction({ chainId: 43112, type: 'eip1559', nonce: 0, to, value: 1n, gas: 50_000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n })
        }),
      )
      await cheat(devnet.rpcUrl(), 'evm_setAutomine', [false])
      const hashes: Hex[] = []
      for (const raw of raws) hashes.push(await client.request({ method: 'eth_sendRawTransaction', params: [raw] }))
      await cheat(devnet.rpcUrl(), 'evm_mine', [])
      const receipts = await Promise.all(hashes.map((hash) => client.getTransactionReceipt({ hash })))
      // Each sender is the key that signed (recovered once, its address hashed by the chain's keccak).
      expect(receipts.map((r) => r.from)).toEqual(Array.from({ length: 16 }, (_, i) => mnemonicToAccount(MNEMONIC, { addressIndex: i }).address.toLowerCase()))
      const rawByHash = new Map(hashes.map((hash, i) => [hash, raws[i]!]))
      const blocks = [...new Set(receipts.map((r) => r.blockNumber))]
      expect(blocks.length).toBe(1)
      for (const number of blocks) {
        const block = await client.getBlock({ blockNumber: number })
        const inBlock = receipts.filter((r) => r.blockNumber === number).sort((a, b) => a.transactionIndex - b.transactionIndex)
        expect(inBlock.map((r) => r.transactionHash)).toEqual(block.transactions)
        const encodedReceipts = inBlock.map((r) => {
          const body = RLP.encode([
            r.status === 'success' ? Uint8Array.of(1) : new Uint8Array(0),
            r.cumulativeGasUsed === 0n ? new Uint8Array(0) : hexToBytes(`0x${r.cumulativeGasUsed.toString(16).padStart(2 * Math.ceil(r.cumulativeGasUsed.toString(16).length / 2), '0')}`),
            hexToBytes(r.logsBloom),
            r.logs.map((log) => [hexToBytes(log.address), log.topics.map((t) => hexToBytes(t)), hexToBytes(log.data)]),
          ])
          const type = { legacy: 0, eip2930: 1, eip1559: 2 }[r.type as 'legacy']
          return type === 0 ? body : Uint8Array.of(type, ...body)
        })
        expect(inBlock.some((r) => r.logs.length > 0)).toBe(true)
        expect(block.transactionsRoot).toBe(bytesToHex(await trieRoot(inBlock.map((r) => hexToBytes(rawByHash.get(r.transactionHash)!)))))
        expect(block.receiptsRoot).toBe(bytesToHex(await trieRoot(encodedReceipts)))
      }
    } finally {
      await devnet.close()
    }
  })

  it('a block whose transactions write, overwrite and clear slots (one reverting its writes) has the storage and state roots of the slots it left', async () => {
    const devnet = await startDevnet({ port: 0, accounts: 20 })
    try {
      const client = createPublicClient({ transport: http(devnet.rpcUrl()) })
      const fees = { maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n }
      const deployer = mnemonicToAccount(MNEMONIC, { addressIndex: 19 })
      const deployHash = await client.request({ method: 'eth_sendRawTransaction', params: [await deployer.signTransaction({ chainId: 43112, type: 'eip1559', nonce: 0, data: STORE_INIT, gas: 200_000n, ...fees })] })
      const store = (await client.getTransactionReceipt({ hash: deployHash })).contractAddress!
      const word = (n: bigint) => n.toString(16).padStart(64, '0')
      const call = (a: [bigint, bigint], b: [bigint, bigint], revert = false): Hex => `0x${word(a[0])}${word(a[1])}${word(b[0])}${word(b[1])}${word(revert ? 1n : 0n)}`
      const expected = new Map<bigint, bigint>()
      const send = async (i: number, nonce: number, a: [bigint, bigint], b: [bigint, bigint], revert = false) => {
        if (!revert) for (const [slot, value] of [a, b]) expected.set(slot, value)
        const raw = await mnemonicToAccount(MNEMONIC, { addressIndex: i }).signTransaction({ chainId: 43112, type: 'eip1559', nonce, to: store, data: call(a, b, revert), gas: 200_000n, ...fees })
        return client.request({ method: 'eth_sendRawTransaction', params: [raw] })
      }
      // A block before: slots the next block overwrites and clears.
      await send(0, 0, [1n, 11n], [2n, 22n])
      await send(1, 0, [3n, 33n], [2n ** 200n, 44n])
      await cheat(devnet.rpcUrl(), 'evm_setAutomine', [false])
      const hashes = [
        await send(2, 0, [1n, 0n], [5n, 55n]),
        await send(3, 0, [5n, 66n], [3n, 77n]),
        await send(4, 0, [6n, 88n], [1n, 99n], true),
        await send(5, 0, [2n ** 200n, 0n], [7n, 2n ** 255n]),
        await send(6, 0, [7n, 1n], [8n, 0n]),
      ]
      await cheat(devnet.rpcUrl(), 'evm_mine', [])
      const receipts = await Promise.all(hashes.map((hash) => client.getTransactionReceipt({ hash })))
      expect(new Set(receipts.map((r) => r.blockNumber)).size).toBe(1)
      expect(receipts.map((r) => r.status)).toEqual(['success', 'success', 'reverted', 'success', 'success'])
      const block = await client.getBlock({ blockNumber: receipts[0]!.blockNumber })
      // Each slot as the writes leave it, read back, and the storage root of those slots in ethereumjs' own trie.
      const trie = new MerklePatriciaTrie({ useKeyHashing: true })
      for (const slot of [...expected.keys(), 6n, 9n]) {
        const value = expected.get(slot) ?? 0n
        expect(await client.getStorageAt({ address: store, slot: `0x${word(slot)}` })).toBe(`0x${word(value)}`)
        if (value !== 0n) await trie.put(setLengthLeft(hexToBytes(`0x${word(slot)}`), 32), RLP.encode(unpadBytes(hexToBytes(`0x${word(value)}`))))
      }
      const proof = (await client.request({ method: 'eth_getProof', params: [store, [], block.hash] })) as { storageHash: Hex; accountProof: Hex[] }
      expect(proof.storageHash).toBe(bytesToHex(trie.root()))
      // The account holding that storage root is in the block's state root.
      const account = await verifyMerkleProof(hexToBytes(store), proof.accountProof.map((node) => hexToBytes(node)), { useKeyHashing: true, root: hexToBytes(block.stateRoot) })
      expect(bytesToHex(createAccountFromRLP(account!).storageRoot)).toBe(proof.storageHash)
    } finally {
      await devnet.close()
    }
  })
})
