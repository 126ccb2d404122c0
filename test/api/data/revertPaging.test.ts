/**
 * Paging across history changes: new blocks never shift a page; a revert that keeps the block a
 * token points into lets paging continue with the same answers; a revert that removed that block
 * refuses the token (its next page would mix two histories), also after other blocks take the
 * heights. EVM operations 3, 4, 5 and 12, on the C-chain.
 */
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createWalletClient, custom, defineChain, type Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { dataRoutes, PAGE_TOKEN_REVERTED } from '../../../src/api/routes/data/index.js'
import { networkDataRoutes } from '../../../src/api/routes/index.js'
import { createNetwork, type Network } from '../../../src/network/network.js'
import { createEIP1193Provider } from '../../../src/rpc/provider.js'
import { ERC20 } from '../../fixtures/contracts/index.js'
import * as addressCodec from '../../../src/core/address.js'

const MNEMONIC = 'test test test test test test test test test test test junk'
const alice = mnemonicToAccount(MNEMONIC, { addressIndex: 0 })
const BOB = '0x00000000000000000000000000000000000000b0'

let network: Network
let app: FastifyInstance
let chainId: string
let token: Hex
let send: (request: { to: Hex; value?: bigint; data?: Hex }) => Promise<Hex>
let transferToken: (to: Hex, amount: bigint) => Promise<Hex>
/** The snapshot taken once the fixed history (blocks 1–8) is mined. */
let base: bigint

type Json = Record<string, unknown> & { nextPageToken?: string }
async function get(url: string): Promise<{ status: number; body: Json }> {
  const res = await app.inject({ method: 'GET', url })
  return { status: res.statusCode, body: res.json() as Json }
}
const withToken = (url: string, pageToken: string) => `${url}${url.includes('?') ? '&' : '?'}pageToken=${encodeURIComponent(pageToken)}`

/** The operations under test: their URL for alice, and the ids of a page's items. */
const ops = () => ({
  listTransactions: { url: `/v1/chains/${chainId}/addresses/${alice.address}/transactions?pageSize=3`, ids: (b: Json) => (b.transactions as { nativeTransaction: { txHash: string } }[]).map((t) => t.nativeTransaction.txHash) },
  listNative: { url: `/v1/chains/${chainId}/addresses/${alice.address}/transactions:listNative?pageSize=3`, ids: (b: Json) => (b.transactions as { txHash: string }[]).map((t) => t.txHash) },
  listErc20: { url: `/v1/chains/${chainId}/addresses/${alice.address}/transactions:listErc20?pageSize=2`, ids: (b: Json) => (b.transactions as { txHash: string; logIndex: number }[]).map((t) => `${t.txHash}/${t.logIndex}`) },
  latestBlocks: { url: `/v1/chains/${chainId}/blocks?pageSize=3`, ids: (b: Json) => (b.blocks as { blockHash: string }[]).map((t) => t.blockHash) },
})
type Op = ReturnType<typeof ops>[keyof ReturnType<typeof ops>]

/** Every page of an operation, from the first. */
async function all(op: Op): Promise<string[]> {
  const out: string[] = []
  let next: string | undefined
  do {
    const { status, body } = await get(next === undefined ? op.url : withToken(op.url, next))
    expect(status).toBe(200)
    out.push(...op.ids(body))
    next = body.nextPageToken
  } while (next !== undefined)
  return out
}

beforeAll(async () => {
  network = await createNetwork({ nodes: 1 })
  const chain = network.cChain
  chainId = String(chain.chainId)
  const provider = createEIP1193Provider({ network, chain })
  const viemChain = defineChain({ id: Number(chain.chainId), name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: ['http://unused'] } } })
  const wallet = createWalletClient({ chain: viemChain, account: alice, transport: custom(provider) })
  send = (request) => wallet.sendTransaction(request)
  transferToken = (to, amount) => wallet.writeContract({ address: token, abi: ERC20.abi, functionName: 'transfer', args: [to, amount] })
  // Block 1 deploys the token; blocks 2–8 alternate payments and token transfers from alice.
  await wallet.deployContract({ abi: ERC20.abi, bytecode: ERC20.bytecode as Hex, args: ['Token', 'TOK', 10n ** 24n] })
  token = chain.store.byNumber(1n)!.txs[0]!.receipt.contractAddress as Hex
  for (let i = 0; i < 7; i++) await (i % 2 === 0 ? send({ to: BOB, value: BigInt(i + 1) }) : transferToken(BOB, BigInt(i + 1)))
  expect(chain.store.height).toBe(8n)
  base = await network.snapshot()
  app = Fastify()
  await app.register(dataRoutes, networkDataRoutes(network))
  await app.ready()
})
afterAll(async () => {
  await app.close()
  await network.close()
})
beforeEach(async () => {
  // Every test starts from blocks 1–8 (revert deletes the snapshot: take it again).
  await network.revert(base)
  base = await network.snapshot()
})

describe('paging while history changes', () => {
  it('new blocks never shift a page: the pages after them continue the listing as it was', async () => {
    for (const op of Object.values(ops())) {
      const before = await all(op)
      const first = await get(op.url)
      await send({ to: BOB, value: 100n })
      await transferToken(BOB, 100n)
      const rest: string[] = []
      let next = first.body.nextPageToken
      while (next !== undefined) {
        const page = await get(withToken(op.url, next))
        expect(page.status).toBe(200)
        rest.push(...op.ids(page.body))
        next = page.body.nextPageToken
      }
      expect([...op.ids(first.body), ...rest]).toEqual(before)
      await network.revert(base)
      base = await network.snapshot()
    }
  })

  it('a revert that keeps the block a token points into continues with the same answers', async () => {
    for (const op of Object.values(ops())) {
      const before = await all(op)
      const snap = await network.snapshot()
      await send({ to: BOB, value: 7n })
      await transferToken(BOB, 7n)
      await send({ to: BOB, value: 8n })
      // Page 1 now starts with the new blocks; page 2 onwards lies in blocks the revert keeps.
      const first = await get(op.url)
      const second = await get(withToken(op.url, first.body.nextPageToken!))
      expect(second.status).toBe(200)
      await network.revert(snap)
      const after: string[] = []
      let next = second.body.nextPageToken
      while (next !== undefined) {
        const page = await get(withToken(op.url, next))
        expect(page.status).toBe(200)
        after.push(...op.ids(page.body))
        next = page.body.nextPageToken
      }
      const from = before.indexOf(op.ids(second.body).at(-1)!) + 1
      expect(from).toBeGreaterThan(0)
      expect(after).toEqual(before.slice(from))
      await network.revert(base)
      base = await network.snapshot()
    }
  })

  it('a revert that removed the token\'s block refuses the token, also once other blocks take those heights', async () => {
    for (const [name, op] of Object.entries(ops())) {
      const snap = await network.snapshot()
      for (let i = 0; i < 4; i++) await (i % 2 === 0 ? send({ to: BOB, value: 50n + BigInt(i) }) : transferToken(BOB, 50n + BigInt(i)))
      const first = await get(op.url)
      expect(first.body.nextPageToken, name).toBeDefined()
      await network.revert(snap)
      const refused = { message: [PAGE_TOKEN_REVERTED], statusCode: 400, error: 'Bad Request' }
      expect(await get(withToken(op.url, first.body.nextPageToken!)), name).toEqual({ status: 400, body: refused })
      // Different blocks at the same heights: the token still names the reverted ones.
      for (let i = 0; i < 4; i++) await (i % 2 === 0 ? transferToken(BOB, 90n + BigInt(i)) : send({ to: BOB, value: 90n + BigInt(i) }))
      expect(network.cChain.store.height).toBe(12n)
      expect(await get(withToken(op.url, first.body.nextPageToken!)), name).toEqual({ status: 400, body: refused })
      // A fresh listing is the new history, each item once.
      const fresh = await all(op)
      expect(new Set(fresh).size).toBe(fresh.length)
      await network.revert(base)
      base = await network.snapshot()
    }
  })
})

describe('paging the P-chain\'s transactions (op 15) while history changes', () => {
  const AVAX = 1_000_000_000n
  const url = () => {
    const { formatAddress, hrpForNetworkId } = addressCodec
    const address = formatAddress('P', hrpForNetworkId(network.preset.networkId), network.wallets(0)!.address)
    return `/v1/networks/local/blockchains/p-chain/transactions?addresses=${address}&pageSize=2`
  }
  const txIds = (body: Json) => (body.transactions as { txHash: string }[]).map((t) => t.txHash)
  const pSend = (amount: bigint) => network.wallets(0)!.p.send([{ address: network.wallets(1)!.address, amount }]).txId

  it('continues across new blocks and a revert that keeps the token\'s tx, refuses the token once its tx is reverted', async () => {
    for (let i = 1n; i <= 3n; i++) pSend(i * AVAX)
    const snap = await network.snapshot()
    const sent = [pSend(4n * AVAX), pSend(5n * AVAX)]
    const first = await get(url())
    expect(txIds(first.body)).toEqual([...sent].reverse())
    // New blocks between pages: page 2 continues below page 1.
    pSend(6n * AVAX)
    const second = await get(withToken(url(), first.body.nextPageToken!))
    expect(second.status).toBe(200)
    // Reverting the two txs page 1 ended on refuses page 1's token, also after other txs take their place.
    await network.revert(snap)
    const refused = { status: 400, body: { message: [PAGE_TOKEN_REVERTED], statusCode: 400, error: 'Bad Request' } }
    expect(await get(withToken(url(), first.body.nextPageToken!))).toEqual(refused)
    pSend(7n * AVAX)
    pSend(8n * AVAX)
    expect(await get(withToken(url(), first.body.nextPageToken!))).toEqual(refused)
    // A token into history the revert kept still pages on.
    const fresh = await get(url())
    const next = await get(withToken(url(), fresh.body.nextPageToken!))
    expect(next.status).toBe(200)
    expect(txIds(next.body)).not.toEqual(txIds(fresh.body))
  })
})
