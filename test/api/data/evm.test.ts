import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, createWalletClient, custom, defineChain, getAddress, parseEther, type Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { dataRoutes, INVALID_PAGE_TOKEN, PAGE_TOKEN_FILTER_MISMATCH } from '../../../src/api/routes/data/index.js'
import { networkDataSource } from '../../../src/api/routes/data/networkSource.js'
import { decodeString, evmDataRoutes } from '../../../src/api/routes/data/evm/index.js'
import { createNetwork, type Network } from '../../../src/network/network.js'
import { createEIP1193Provider } from '../../../src/rpc/provider.js'
import { ERC20 } from '../../fixtures/contracts/index.js'

const MNEMONIC = 'test test test test test test test test test test test junk'
const [alice, bob, carol] = [0, 1, 2].map((i) => mnemonicToAccount(MNEMONIC, { addressIndex: i })) as [
  ReturnType<typeof mnemonicToAccount>,
  ReturnType<typeof mnemonicToAccount>,
  ReturnType<typeof mnemonicToAccount>,
]

let network: Network
let app: FastifyInstance
let chainId: string
let token: Hex
/** Transaction hashes by block number (one transaction per block). */
const hashes: Hex[] = []

type Json = Record<string, unknown>
const get = async (url: string) => {
  const res = await app.inject({ method: 'GET', url })
  return { status: res.statusCode, body: res.json() as Json, raw: res.body }
}

beforeAll(async () => {
  network = await createNetwork()
  const chain = network.cChain
  chainId = String(chain.chainId)
  const provider = createEIP1193Provider({ network, chain })
  const viemChain = defineChain({ id: Number(chain.chainId), name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: ['http://unused'] } } })
  const client = createPublicClient({ chain: viemChain, transport: custom(provider) })
  const wallet = (account: typeof alice) => createWalletClient({ chain: viemChain, account, transport: custom(provider) })
  const mined = async (hash: Hex) => {
    const receipt = await client.waitForTransactionReceipt({ hash })
    hashes[Number(receipt.blockNumber)] = hash
    return receipt
  }
  // Blocks 1, 2: alice pays bob; 3: alice deploys the token; 4, 5: alice sends it to bob, carol; 6: bob pays alice.
  await mined(await wallet(alice).sendTransaction({ to: bob.address, value: parseEther('1.5') }))
  await mined(await wallet(alice).sendTransaction({ to: bob.address, value: 1n }))
  const deploy = await mined(await wallet(alice).deployContract({ abi: ERC20.abi, bytecode: ERC20.bytecode as Hex, args: ['Token', 'TOK', 1000n] }))
  token = deploy.contractAddress!
  await mined(await wallet(alice).writeContract({ address: token, abi: ERC20.abi, functionName: 'transfer', args: [bob.address, 10n] }))
  await mined(await wallet(alice).writeContract({ address: token, abi: ERC20.abi, functionName: 'transfer', args: [carol.address, 20n] }))
  await mined(await wallet(bob).sendTransaction({ to: alice.address, value: 2n }))
  expect(chain.store.height).toBe(6n)

  app = Fastify()
  await app.register(dataRoutes, { source: networkDataSource(network), routes: [evmDataRoutes(network)] })
  await app.ready()
})
afterAll(async () => {
  await app.close()
  await network.close()
})

/** What the chain itself says about the transaction of block `n`, as the hosted `NativeTransaction`. */
function expectedNative(n: number, method: Json): Json {
  const stored = network.cChain.store.byNumber(BigInt(n))!
  const mined = network.cChain.store.tx(hashes[n]!)!
  const extras = stored.extras ?? {}
  return {
    blockNumber: String(n),
    blockTimestamp: Number(stored.block.header.timestamp),
    // The C-chain header's timestampMilliseconds (eth_getBlockByNumber has it on every block).
    blockTimestampMilliseconds: Number(extras.timestampMilliseconds ?? stored.block.header.timestamp * 1000n),
    ...(extras.minDelayExcess !== undefined ? { blockMinDelayExcess: Number(extras.minDelayExcess) } : {}),
    blockHash: stored.hash,
    chainId,
    blockIndex: 0,
    txHash: hashes[n],
    txStatus: '1',
    txType: 2,
    gasLimit: mined.tx.gasLimit.toString(),
    gasUsed: mined.receipt.gasUsed.toString(),
    gasPrice: mined.receipt.effectiveGasPrice.toString(),
    nonce: mined.tx.nonce.toString(),
    from: { address: getAddress(mined.from) },
    to: { address: getAddress(mined.tx.to ? mined.tx.to.toString() : token) },
    method,
    value: mined.tx.value.toString(),
  }
}

const NATIVE = { callType: 'NATIVE_TRANSFER', methodHash: '', methodName: 'Native Transfer' }
const TRANSFER = { callType: 'CONTRACT_CALL', methodHash: '0xa9059cbb', methodName: 'transfer(address,uint256)' }
const CREATION = { callType: 'CONTRACT_CREATION', methodHash: '', methodName: 'Contract Created' }

/** All pages of a list, following nextPageToken. */
async function allPages(url: string, key: string): Promise<Json[]> {
  const out: Json[] = []
  let pageToken: string | undefined
  for (let guard = 0; guard < 50; guard++) {
    const { status, body } = await get(pageToken ? `${url}&pageToken=${pageToken}` : url)
    expect(status).toBe(200)
    out.push(...(body[key] as Json[]))
    pageToken = body.nextPageToken as string | undefined
    if (pageToken === undefined) return out
  }
  throw new Error('paging does not end')
}

describe('4. listNativeTransactions', () => {
  const url = (address: string, q = '') => `/v1/chains/${chainId}/addresses/${address}/transactions:listNative${q}`

  it('routes the literal colon, and only it', async () => {
    expect((await get(url(alice.address))).status).toBe(200)
    const other = await get(`/v1/chains/${chainId}/addresses/${alice.address}/transactions:listNothing`)
    expect(other.status).toBe(404)
    expect(other.body).toMatchObject({ statusCode: 404, error: 'Not Found' })
  })

  it('answers the exact model, in spec field order, newest first', async () => {
    const { status, raw } = await get(url(alice.address, '?pageSize=3'))
    expect(status).toBe(200)
    const body = JSON.parse(raw) as Json
    expect(Object.keys(body)).toEqual(['nextPageToken', 'transactions'])
    const txs = body.transactions as Json[]
    expect(txs.map((t) => t.blockNumber)).toEqual(['6', '5', '4'])
    expect(JSON.stringify(txs[0])).toBe(JSON.stringify(expectedNative(6, NATIVE)))
    expect(JSON.stringify(txs[1])).toBe(JSON.stringify(expectedNative(5, TRANSFER)))
    // Calls to the token are not the receiver's native transactions.
    expect((await allPages(url(bob.address, '?pageSize=2'), 'transactions')).map((t) => t.blockNumber)).toEqual(['6', '2', '1'])
  })

  it('describes a contract creation', async () => {
    const { body } = await get(url(alice.address, '?startBlock=3&endBlock=4'))
    expect(JSON.stringify(body)).toBe(JSON.stringify({ transactions: [expectedNative(3, CREATION)] }))
  })

  it('pages with tokens to the end, and filters blocks [startBlock, endBlock)', async () => {
    const all = await allPages(url(alice.address, '?pageSize=2'), 'transactions')
    expect(all.map((t) => t.blockNumber)).toEqual(['6', '5', '4', '3', '2', '1'])
    const ranged = await allPages(url(alice.address, '?pageSize=1&startBlock=2&endBlock=5'), 'transactions')
    expect(ranged.map((t) => t.blockNumber)).toEqual(['4', '3', '2'])
    // A mixed-case and a lower-case address are the same filter.
    const lower = await allPages(url(alice.address.toLowerCase(), '?pageSize=4'), 'transactions')
    expect(lower).toEqual(all)
  })

  it('binds page tokens to every filter', async () => {
    const first = await get(url(alice.address, '?pageSize=2&startBlock=1'))
    const token = first.body.nextPageToken as string
    expect(token).toBeDefined()
    expect((await get(url(alice.address, `?pageSize=2&startBlock=1&pageToken=${token}`))).status).toBe(200)
    // Another page size is the same result set.
    expect((await get(url(alice.address, `?pageSize=3&startBlock=1&pageToken=${token}`))).status).toBe(200)
    for (const other of [url(alice.address, `?pageSize=2&startBlock=2&pageToken=${token}`), url(alice.address, `?pageSize=2&pageToken=${token}`), url(bob.address, `?pageSize=2&startBlock=1&pageToken=${token}`)]) {
      const res = await get(other)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ message: [PAGE_TOKEN_FILTER_MISMATCH], statusCode: 400, error: 'Bad Request' })
    }
    const bad = await get(url(alice.address, `?pageSize=2&startBlock=1&pageToken=${token}x`))
    expect(bad.body).toEqual({ message: [INVALID_PAGE_TOKEN], statusCode: 400, error: 'Bad Request' })
  })

  it('refuses bad parameters with one message each', async () => {
    const res = await get(url('0x1234', '?pageSize=0&startBlock=abc'))
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      message: ['startBlock must be an integer number', 'pageSize must not be less than 1', 'Invalid address format'],
      statusCode: 400,
      error: 'Bad Request',
    })
    expect((await get(url(alice.address, '?pageSize=101'))).status).toBe(400)
  })

  it('404s an unknown chain', async () => {
    const res = await get(`/v1/chains/777/addresses/${alice.address}/transactions:listNative`)
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ message: 'Chain 777 not found', statusCode: 404, error: 'Not Found' })
  })

  it('answers an address without transactions with an empty list', async () => {
    const res = await get(url('0x00000000000000000000000000000000000000ee'))
    expect(res.body).toEqual({ transactions: [] })
  })
})

describe('5. listErc20Transactions', () => {
  const url = (address: string, q = '') => `/v1/chains/${chainId}/addresses/${address}/transactions:listErc20${q}`
  const erc20Token = () => ({ address: getAddress(token), name: 'Token', symbol: 'TOK', decimals: 18, ercType: 'ERC-20' })
  const expected = (n: number, from: string, to: string, value: string): Json => {
    const stored = network.cChain.store.byNumber(BigInt(n))!
    const ms = stored.extras?.timestampMilliseconds ?? stored.block.header.timestamp * 1000n
    return {
      blockNumber: String(n),
      blockTimestamp: Number(stored.block.header.timestamp),
      blockTimestampMilliseconds: Number(ms),
      blockHash: stored.hash,
      txHash: hashes[n],
      from: { address: getAddress(from) },
      to: { address: getAddress(to) },
      logIndex: 0,
      value,
      erc20Token: erc20Token(),
    }
  }

  it('answers the exact model, with the token metadata read from the contract', async () => {
    const { status, raw } = await get(url(alice.address))
    expect(status).toBe(200)
    const zero = '0x0000000000000000000000000000000000000000'
    expect(raw).toBe(
      JSON.stringify({
        transactions: [
          expected(5, alice.address, carol.address, '20'),
          expected(4, alice.address, bob.address, '10'),
          expected(3, zero, alice.address, '1000'),
        ],
      }),
    )
  })

  it('lists only the transfers of the address, with paging and block range', async () => {
    const carols = await allPages(url(carol.address, '?pageSize=1'), 'transactions')
    expect(carols.map((t) => t.blockNumber)).toEqual(['5'])
    const pages = await allPages(url(alice.address, '?pageSize=1&endBlock=5'), 'transactions')
    expect(pages.map((t) => t.value)).toEqual(['10', '1000'])
    expect((await get(url(alice.address, '?startBlock=7'))).body).toEqual({ transactions: [] })
  })

  it('refuses bad parameters', async () => {
    const res = await get(url(alice.address, '?endBlock=-1&pageSize=x'))
    expect(res.status).toBe(400)
    expect(res.body.message).toEqual(['endBlock must not be less than 0', 'pageSize must be an integer number'])
  })
})

describe('10. getTransaction', () => {
  const url = (hash: string) => `/v1/chains/${chainId}/transactions/${hash}`

  it('answers a token transfer with its transfers, network token and full details', async () => {
    const { status, raw } = await get(url(hashes[4]!))
    expect(status).toBe(200)
    const body = JSON.parse(raw) as Json
    expect(Object.keys(body)).toEqual(['erc20Transfers', 'networkTokenDetails', 'nativeTransaction'])
    expect(body.erc20Transfers).toEqual([
      { from: { address: getAddress(alice.address) }, to: { address: getAddress(bob.address) }, logIndex: 0, value: '10', erc20Token: { address: getAddress(token), name: 'Token', symbol: 'TOK', decimals: 18, ercType: 'ERC-20' } },
    ])
    expect(body.networkTokenDetails).toEqual({ networkToken: { name: 'Avalanche', symbol: 'AVAX', decimals: 18 } })
    const mined = network.cChain.store.tx(hashes[4]!)!
    const tx = mined.tx as unknown as { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }
    expect(JSON.stringify(body.nativeTransaction)).toBe(
      JSON.stringify({
        ...expectedNative(4, TRANSFER),
        input: `0x${Buffer.from(mined.tx.data).toString('hex')}`,
        baseFeePerGas: network.cChain.store.byNumber(4n)!.block.header.baseFeePerGas!.toString(),
        maxFeePerGas: tx.maxFeePerGas.toString(),
        maxPriorityFeePerGas: tx.maxPriorityFeePerGas.toString(),
      }),
    )
  })

  it('answers a value transfer without transfer lists', async () => {
    const { body } = await get(url(hashes[1]!.toUpperCase().replace('0X', '0x')))
    expect(Object.keys(body)).toEqual(['networkTokenDetails', 'nativeTransaction'])
    expect((body.nativeTransaction as Json).value).toBe(parseEther('1.5').toString())
  })

  it('404s an unknown transaction or chain, 400s a malformed hash', async () => {
    const unknown = await get(url(`0x${'ab'.repeat(32)}`))
    expect(unknown.status).toBe(404)
    expect(unknown.body).toMatchObject({ statusCode: 404, error: 'Not Found' })
    expect((await get(`/v1/chains/777/transactions/${hashes[1]}`)).status).toBe(404)
    const bad = await get(url('0x1234'))
    expect(bad.status).toBe(400)
    expect(bad.body.error).toBe('Bad Request')
  })
})

describe('11. getTransactionsForBlock', () => {
  const url = (blockId: string, q = '') => `/v1/chains/${chainId}/blocks/${blockId}/transactions${q}`

  it('lists a block by number or by hash', async () => {
    const byNumber = await get(url('4'))
    expect(byNumber.status).toBe(200)
    expect(JSON.stringify(byNumber.body)).toBe(JSON.stringify({ transactions: [expectedNative(4, TRANSFER)] }))
    const byHash = await get(url(network.cChain.store.byNumber(4n)!.hash))
    expect(byHash.body).toEqual(byNumber.body)
    expect((await get(url('0'))).body).toEqual({ transactions: [] })
  })

  it('pages within a block', async () => {
    const first = await get(url('6', '?pageSize=1'))
    expect((first.body.transactions as Json[]).length).toBe(1)
    expect(first.body.nextPageToken).toBeUndefined()
  })

  it('404s an unknown block, 400s a malformed id or page size', async () => {
    expect((await get(url('99'))).status).toBe(404)
    expect((await get(url(`0x${'00'.repeat(32)}`))).status).toBe(404)
    expect((await get(url('latest'))).status).toBe(400)
    expect((await get(url('1', '?pageSize=101'))).status).toBe(400)
  })
})

describe('9. getDeploymentTransaction', () => {
  it('answers the creating transaction of a contract, 404 for an account', async () => {
    const res = await get(`/v1/chains/${chainId}/contracts/${token}/transactions:getDeployment`)
    expect(res.status).toBe(200)
    expect(res.body.nativeTransaction).toMatchObject({ txHash: hashes[3], method: CREATION, to: { address: getAddress(token) } })
    expect(res.body.erc20Transfers).toEqual([expect.objectContaining({ value: '1000' })])
    expect((await get(`/v1/chains/${chainId}/contracts/${alice.address}/transactions:getDeployment`)).status).toBe(404)
  })
})

describe('7. listTransfers', () => {
  it('lists the transfers of a token contract', async () => {
    const all = await allPages(`/v1/chains/${chainId}/tokens/${token}/transfers?pageSize=2`, 'transfers')
    expect(all.map((t) => t.value)).toEqual(['20', '10', '1000'])
    expect((await get(`/v1/chains/${chainId}/tokens/${alice.address}/transfers`)).body).toEqual({ transfers: [] })
  })
})

describe('token metadata decoding', () => {
  it('reads ABI strings and bytes32 names', () => {
    const abi = Buffer.from(`${'20'.padStart(64, '0')}${'3'.padStart(64, '0')}${Buffer.from('TOK').toString('hex').padEnd(64, '0')}`, 'hex')
    expect(decodeString(abi)).toBe('TOK')
    expect(decodeString(Buffer.from(Buffer.from('MKR').toString('hex').padEnd(64, '0'), 'hex'))).toBe('MKR')
    expect(decodeString(new Uint8Array(7))).toBe('')
  })
})

describe('txType', () => {
  it('is each transaction’s own EIP-2718 type, in lists, block pages and details', async () => {
    const net = await createNetwork()
    try {
      const chain = net.cChain
      const provider = createEIP1193Provider({ network: net, chain })
      const viemChain = defineChain({ id: Number(chain.chainId), name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: ['http://unused'] } } })
      const wallet = createWalletClient({ chain: viemChain, account: alice, transport: custom(provider) })
      const sent = [
        await wallet.sendTransaction({ type: 'legacy', to: bob.address, value: 1n }),
        await wallet.sendTransaction({ type: 'eip2930', to: bob.address, value: 2n, accessList: [{ address: carol.address, storageKeys: [] }] }),
        await wallet.sendTransaction({ type: 'eip1559', to: bob.address, value: 3n }),
      ]
      const server = Fastify()
      await server.register(dataRoutes, { source: networkDataSource(net), routes: [evmDataRoutes(net)] })
      try {
        const json = async (url: string) => (await server.inject({ method: 'GET', url: `/v1/chains/${chain.chainId}${url}` })).json() as Json
        const listed = (await json(`/addresses/${alice.address}/transactions:listNative`)).transactions as Json[]
        expect(listed.map((t) => [t.txHash, t.txType])).toEqual([[sent[2], 2], [sent[1], 1], [sent[0], 0]])
        for (const [i, hash] of sent.entries()) {
          const block = String(chain.store.tx(hash)!.blockNumber)
          expect(((await json(`/blocks/${block}/transactions`)).transactions as Json[])[0]).toMatchObject({ txHash: hash, txType: i })
          expect((await json(`/transactions/${hash}`)).nativeTransaction).toMatchObject({ txHash: hash, txType: i })
        }
      } finally {
        await server.close()
      }
    } finally {
      await net.close()
    }
  })
})
