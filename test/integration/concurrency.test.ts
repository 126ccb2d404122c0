import { describe, expect, it } from 'vitest'
import { mnemonicToAccount } from 'viem/accounts'
import { createNetwork } from '../../src/network/network.js'
import { startDevnet } from '../../src/index.js'

const MNEMONIC = 'test test test test test test test test test test test junk'

async function rpc(url: string, method: string, params: unknown[] = []) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  return (await res.json()) as { result?: any; error?: { message: string } }
}

async function runSenders(senders: number, perSender: number) {
  const devnet = await startDevnet({ port: 0, accounts: senders + 1 })
  try {
    const url = devnet.rpcUrl()
    const to = mnemonicToAccount(MNEMONIC, { addressIndex: senders }).address
    const hashes = await Promise.all(
      Array.from({ length: senders }, async (_, i) => {
        const account = mnemonicToAccount(MNEMONIC, { addressIndex: i })
        const out: string[] = []
        for (let nonce = 0; nonce < perSender; nonce++) {
          const raw = await account.signTransaction({ chainId: 43112, type: 'eip1559', nonce, to, value: 1n, gas: 21000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n })
          const sent = await rpc(url, 'eth_sendRawTransaction', [raw])
          expect(sent.error).toBeUndefined()
          out.push(sent.result)
        }
        return out
      }),
    )
    const receipts = await Promise.all(hashes.flat().map((h) => rpc(url, 'eth_getTransactionReceipt', [h])))
    expect(receipts.every((r) => r.result?.status === '0x1')).toBe(true)
    const pool = await rpc(url, 'txpool_status')
    expect(pool.result).toEqual({ pending: '0x0', queued: '0x0' })
    const balance = await rpc(url, 'eth_getBalance', [to, 'latest'])
    expect(BigInt(balance.result)).toBe(10_000n * 10n ** 18n + BigInt(senders * perSender))
  } finally {
    await devnet.close()
  }
}

describe('concurrent senders', () => {
  it('16 senders: every transaction is mined, none lost', async () => {
    await runSenders(16, 5)
  })
  it('64 senders: every transaction is mined, none lost', async () => {
    await runSenders(64, 3)
  })
})

describe('determinism', () => {
  it('two networks from the same seed give identical block hashes for the same transactions', async () => {
    const run = async () => {
      const network = await createNetwork({ seed: 'same' })
      const alice = mnemonicToAccount(MNEMONIC, { addressIndex: 0 })
      const { decodeRawTransaction, submitTransaction } = await import('../../src/evm/send.js')
      const { hexToBytes } = await import('@ethereumjs/util')
      for (let nonce = 0; nonce < 3; nonce++) {
        const raw = await alice.signTransaction({ chainId: 43112, type: 'eip1559', nonce, to: '0x00000000000000000000000000000000000000bb', value: 5n, gas: 21000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n })
        const { tx, from, hash } = decodeRawTransaction(network.cChain, hexToBytes(raw))
        await submitTransaction(network.cChain, network.cChain.miner, tx, from, hash)
      }
      const hashes = [0n, 1n, 2n, 3n].map((n) => network.cChain.store.byNumber(n)!.hash)
      const nodeIds = network.nodes.map((n) => n.nodeId)
      await network.close()
      return { hashes, nodeIds }
    }
    const [a, b] = [await run(), await run()]
    expect(a).toEqual(b)
    expect(new Set(a.hashes).size).toBe(4)
  })
})
