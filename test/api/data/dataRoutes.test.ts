import Fastify, { type FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createPageTokens,
  dataApiKey,
  dataRoutes,
  INVALID_PAGE_TOKEN,
  PAGE_TOKEN_FILTER_MISMATCH,
  type DataBlock,
  type DataChain,
  type DataSource,
} from '../../../src/api/routes/data/index.js'

const C_CHAIN: DataChain = {
  evmChainId: '43112',
  blockchainId: '2CA6j5zYzasynPsFeNoqWkmTCt3VScMvXUZHbfDJ8k3oGzAPtU',
  subnetId: '11111111111111111111111111111111LpoYY',
  vmId: 'mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6',
  chainName: 'C-Chain',
  description: 'The contract chain of the local network',
  isTestnet: true,
  networkToken: { name: 'Avalanche', symbol: 'AVAX', decimals: 18 },
}
const L1: DataChain = {
  evmChainId: '99999',
  blockchainId: 'wBd3ASNLHA3aoyzaRJ6yuN3LRPwRc4nvjzs2EUg9FHPSa3VTw',
  subnetId: '2bRCr6B4MiEfSjidDwxDpdCyviwnfUVqB2HGwhm947w9YYqb7r',
  vmId: 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy',
  chainName: 'My L1',
  description: 'An L1',
  status: 'OK',
  vmName: 'EVM',
  rpcUrl: 'http://rpc.example/ext/bc/l1/rpc',
  isTestnet: true,
  utilityAddresses: { multicall: '0x0000000000000000000000000000000000000001' },
  networkToken: { name: 'Token', symbol: 'TKN', decimals: 18, logoUri: 'https://logo', description: 'native' },
  enabledFeatures: ['teleporter'],
}

function block(n: number): DataBlock {
  const hex = (x: number) => `0x${x.toString(16).padStart(64, '0')}`
  return {
    blockNumber: BigInt(n),
    blockTimestamp: 1_700_000_000 + n,
    blockHash: hex(n + 1),
    txCount: n % 3,
    baseFee: 25_000_000_000n,
    gasUsed: 21_000 * (n % 3),
    gasLimit: '15000000',
    gasCost: 0,
    parentHash: hex(n),
    feesSpent: 10n ** 18n,
    cumulativeTransactions: BigInt(n * 2),
  }
}

/** Blocks 0..height of the C-chain, newest first; the cursor is the number of the next block. */
class FakeSource implements DataSource {
  readonly networkId = 12345
  height = 24
  readonly calls: { chainId: string; cursor: string | undefined; pageSize: number }[] = []
  chains() {
    return [C_CHAIN, L1]
  }
  listBlocks(chainId: string, { cursor, pageSize }: { cursor?: string | undefined; pageSize: number }) {
    this.calls.push({ chainId, cursor, pageSize })
    if (chainId !== C_CHAIN.evmChainId) return { items: [] }
    const start = cursor === undefined ? this.height : Number(cursor)
    const items: DataBlock[] = []
    for (let n = start; n >= 0 && items.length < pageSize; n--) items.push(block(n))
    const next = start - items.length
    return next >= 0 ? { items, nextCursor: String(next) } : { items }
  }
}

let app: FastifyInstance
let source: FakeSource
const keys: string[] = []

async function build(options: { baseUrl?: string; pageTokenKey?: string } = {}) {
  const instance = Fastify()
  instance.register(dataRoutes, { source, onApiKey: (key) => keys.push(key), ...options })
  instance.get('/probe', async (request) => ({ key: dataApiKey(request) ?? null }))
  await instance.ready()
  return instance
}

beforeEach(async () => {
  source = new FakeSource()
  keys.length = 0
  app = await build({ baseUrl: 'http://127.0.0.1:9650/' })
})
afterEach(async () => {
  await app.close()
})

const get = async (url: string, headers: Record<string, string> = {}) => {
  const res = await app.inject({ method: 'GET', url, headers })
  return { status: res.statusCode, body: res.json(), raw: res.body, type: res.headers['content-type'] }
}

const C_INFO = {
  chainId: '43112',
  status: 'OK',
  chainName: 'C-Chain',
  description: 'The contract chain of the local network',
  platformChainId: C_CHAIN.blockchainId,
  subnetId: C_CHAIN.subnetId,
  vmId: C_CHAIN.vmId,
  vmName: 'EVM',
  rpcUrl: `http://127.0.0.1:9650/ext/bc/${C_CHAIN.blockchainId}/rpc`,
  wsUrl: `ws://127.0.0.1:9650/ext/bc/${C_CHAIN.blockchainId}/ws`,
  isTestnet: true,
  networkToken: { name: 'Avalanche', symbol: 'AVAX', decimals: 18 },
}
const L1_INFO = {
  chainId: '99999',
  status: 'OK',
  chainName: 'My L1',
  description: 'An L1',
  platformChainId: L1.blockchainId,
  subnetId: L1.subnetId,
  vmId: L1.vmId,
  vmName: 'EVM',
  rpcUrl: 'http://rpc.example/ext/bc/l1/rpc',
  wsUrl: `ws://127.0.0.1:9650/ext/bc/${L1.blockchainId}/ws`,
  isTestnet: true,
  utilityAddresses: { multicall: '0x0000000000000000000000000000000000000001' },
  networkToken: { name: 'Token', symbol: 'TKN', decimals: 18, logoUri: 'https://logo', description: 'native' },
  enabledFeatures: ['teleporter'],
}

describe('GET /v1/chains (op 1)', () => {
  it('lists every chain as ChainInfo in spec field order', async () => {
    const res = await get('/v1/chains')
    expect(res.status).toBe(200)
    expect(res.type).toMatch(/^application\/json/)
    expect(res.body).toEqual({ chains: [C_INFO, L1_INFO] })
    expect(Object.keys(res.body.chains[1])).toEqual(Object.keys(L1_INFO))
    expect(Object.keys(res.body.chains[1].networkToken)).toEqual(['name', 'symbol', 'decimals', 'logoUri', 'description'])
  })

  it('filters by feature', async () => {
    expect((await get('/v1/chains?feature=teleporter')).body).toEqual({ chains: [L1_INFO] })
    expect((await get('/v1/chains?feature=webhooks')).body).toEqual({ chains: [] })
  })

  it('filters by network: the local network answers to local and its id; hosted names select nothing', async () => {
    expect((await get('/v1/chains?network=local')).body.chains).toHaveLength(2)
    expect((await get('/v1/chains?network=12345')).body.chains).toHaveLength(2)
    for (const name of ['mainnet', 'fuji', 'testnet']) expect((await get(`/v1/chains?network=${name}`)).body).toEqual({ chains: [] })
  })

  it('rejects bad enums with one message per field', async () => {
    const res = await get('/v1/chains?network=devnet&feature=nft')
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      message: [
        'network must be one of the following values: mainnet, fuji, testnet, local, 12345',
        'feature must be one of the following values: nftIndexing, webhooks, teleporter',
      ],
      statusCode: 400,
      error: 'Bad Request',
    })
    expect(Object.keys(res.body)).toEqual(['message', 'statusCode', 'error'])
  })

  it('takes the base URL from the request when none is configured', async () => {
    await app.close()
    app = await build()
    const res = await app.inject({ method: 'GET', url: '/v1/chains/43112', headers: { host: 'node.test:9650' } })
    expect(res.json().rpcUrl).toBe(`http://node.test:9650/ext/bc/${C_CHAIN.blockchainId}/rpc`)
  })
})

describe('GET /v1/chains/{chainId} (op 2)', () => {
  it('answers by EVM chain id and by blockchain id', async () => {
    expect(await get('/v1/chains/43112')).toMatchObject({ status: 200, body: C_INFO })
    expect((await get(`/v1/chains/${L1.blockchainId}`)).body).toEqual(L1_INFO)
  })

  it('answers 404 for an unknown chain', async () => {
    expect(await get('/v1/chains/1')).toMatchObject({ status: 404, body: { message: 'Chain 1 not found', statusCode: 404, error: 'Not Found' } })
  })
})

describe('GET /v1/chains/{chainId}/blocks (op 12)', () => {
  it('answers EvmBlock in spec order, newest first, default pageSize 10', async () => {
    const res = await get('/v1/chains/43112/blocks')
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual(['nextPageToken', 'blocks'])
    expect(res.body.blocks).toHaveLength(10)
    expect(source.calls[0]).toEqual({ chainId: '43112', cursor: undefined, pageSize: 10 })
    expect(res.body.blocks[0]).toEqual({
      chainId: '43112',
      blockNumber: '24',
      blockTimestamp: 1_700_000_024,
      blockHash: `0x${(25).toString(16).padStart(64, '0')}`,
      txCount: 0,
      baseFee: '25000000000',
      gasUsed: '0',
      gasLimit: '15000000',
      gasCost: '0',
      parentHash: `0x${(24).toString(16).padStart(64, '0')}`,
      feesSpent: '1000000000000000000',
      cumulativeTransactions: '48',
    })
    expect(Object.keys(res.body.blocks[0])).toEqual([
      'chainId', 'blockNumber', 'blockTimestamp', 'blockHash', 'txCount', 'baseFee', 'gasUsed', 'gasLimit', 'gasCost',
      'parentHash', 'feesSpent', 'cumulativeTransactions',
    ])
  })

  it('pages across 3 pages with a stable cursor, and no token on the last page', async () => {
    source.height = 11 // 12 blocks: 5 + 5 + 2
    const seen: string[] = []
    const p1 = await get('/v1/chains/43112/blocks?pageSize=5')
    seen.push(...p1.body.blocks.map((b: { blockNumber: string }) => b.blockNumber))
    expect(p1.body.nextPageToken).toMatch(/^[A-Za-z0-9_-]+$/)
    source.height = 30 // new blocks arrive between pages: the cursor keeps its place
    const p2 = await get(`/v1/chains/43112/blocks?pageSize=5&pageToken=${p1.body.nextPageToken}`)
    seen.push(...p2.body.blocks.map((b: { blockNumber: string }) => b.blockNumber))
    // the blockchain id names the same chain: same filters
    const p3 = await get(`/v1/chains/${C_CHAIN.blockchainId}/blocks?pageSize=5&pageToken=${p2.body.nextPageToken}`)
    seen.push(...p3.body.blocks.map((b: { blockNumber: string }) => b.blockNumber))
    expect(seen).toEqual(['11', '10', '9', '8', '7', '6', '5', '4', '3', '2', '1', '0'])
    expect(p3.status).toBe(200)
    expect(p3.body).not.toHaveProperty('nextPageToken')
    expect(Object.keys(p3.body)).toEqual(['blocks'])
    expect(source.calls.map((c) => c.cursor)).toEqual([undefined, '6', '1'])
  })

  it('omits nextPageToken when the first page is the only one', async () => {
    source.height = 2
    const res = await get('/v1/chains/43112/blocks?pageSize=3')
    expect(res.body).toEqual({ blocks: expect.any(Array) })
    expect(res.body.blocks).toHaveLength(3)
  })

  it.each([
    ['pageSize=0', 'pageSize must not be less than 1'],
    ['pageSize=-1', 'pageSize must not be less than 1'],
    ['pageSize=101', 'pageSize must not be greater than 100'],
    ['pageSize=abc', 'pageSize must be an integer number'],
    ['pageSize=1.5', 'pageSize must be an integer number'],
    ['pageSize=', 'pageSize must be an integer number'],
    ['pageSize=5&pageSize=6', 'pageSize must be an integer number'],
    ['pageToken=a&pageToken=b', 'pageToken must be a string'],
  ])('rejects %s with 400', async (qs, message) => {
    const res = await get(`/v1/chains/43112/blocks?${qs}`)
    expect(res).toMatchObject({ status: 400, body: { message: [message], statusCode: 400, error: 'Bad Request' } })
    expect(source.calls).toEqual([])
  })

  it('accepts the bounds themselves', async () => {
    expect((await get('/v1/chains/43112/blocks?pageSize=1')).body.blocks).toHaveLength(1)
    expect((await get('/v1/chains/43112/blocks?pageSize=100')).body.blocks).toHaveLength(25)
  })

  it('answers 404 for an unknown chain, after validating the query', async () => {
    expect(await get('/v1/chains/777/blocks')).toMatchObject({ status: 404, body: { message: 'Chain 777 not found', error: 'Not Found' } })
    expect((await get('/v1/chains/777/blocks?pageSize=0')).status).toBe(400)
  })

  describe('bad page tokens', () => {
    let token: string
    beforeEach(async () => {
      token = (await get('/v1/chains/43112/blocks?pageSize=5')).body.nextPageToken
      source.calls.length = 0
    })
    const rejected = async (pageToken: string, message: string, chain = '43112') => {
      const res = await get(`/v1/chains/${chain}/blocks?pageSize=5&pageToken=${encodeURIComponent(pageToken)}`)
      expect(res).toMatchObject({ status: 400, body: { message: [message], statusCode: 400, error: 'Bad Request' } })
      expect(source.calls).toEqual([])
    }

    it('rejects every single-character edit', async () => {
      for (let i = 0; i < token.length; i++) {
        const c = token[i] === 'A' ? 'B' : 'A'
        await rejected(token.slice(0, i) + c + token.slice(i + 1), INVALID_PAGE_TOKEN)
      }
    })
    it('rejects truncation, extension, garbage and non-base64url', async () => {
      await rejected(token.slice(0, -2), INVALID_PAGE_TOKEN)
      await rejected(token + 'AA', INVALID_PAGE_TOKEN)
      await rejected('3d22deea-ea64-4d30-8a1e-c2a353b67e90', INVALID_PAGE_TOKEN)
      await rejected(token.replace(/.$/, '+'), INVALID_PAGE_TOKEN)
      await rejected('x', INVALID_PAGE_TOKEN)
    })
    it('rejects a forged cursor', async () => {
      const bytes = Buffer.from(token, 'base64url')
      const forged = Buffer.concat([bytes.subarray(0, 17), Buffer.from('0'), bytes.subarray(bytes.length - 16)])
      await rejected(forged.toString('base64url'), INVALID_PAGE_TOKEN)
    })
    it('rejects a token of another network instance (another key)', async () => {
      const other = createPageTokens('another key').encode('3', { op: 'getLatestBlocks', filters: { chainId: '43112' } })
      await rejected(other, INVALID_PAGE_TOKEN)
    })
    it('rejects a token reused with different filters (another chain)', async () => {
      await rejected(token, PAGE_TOKEN_FILTER_MISMATCH, '99999')
    })
    it('accepts the token with a configured key across instances, and keeps pageSize free', async () => {
      await app.close()
      app = await build({ pageTokenKey: 'k' })
      const t = (await get('/v1/chains/43112/blocks?pageSize=5')).body.nextPageToken
      await app.close()
      app = await build({ pageTokenKey: 'k' })
      const res = await get(`/v1/chains/43112/blocks?pageSize=2&pageToken=${t}`)
      expect(res.body.blocks.map((b: { blockNumber: string }) => b.blockNumber)).toEqual(['19', '18'])
    })
  })
})

describe('the /v1 framework', () => {
  it('answers unknown routes under /v1 with 404 in the error shape', async () => {
    for (const url of ['/v1', '/v1/nope', '/v1/chains/43112/blocks/x/y?pageSize=3']) {
      const res = await get(url)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ message: `Cannot GET ${url.split('?')[0]}`, statusCode: 404, error: 'Not Found' })
    }
    const post = await app.inject({ method: 'POST', url: '/v1/chains' })
    expect(post.json()).toEqual({ message: 'Cannot POST /v1/chains', statusCode: 404, error: 'Not Found' })
  })

  it('records x-data-api-key and requires none', async () => {
    expect((await get('/v1/chains', { 'x-data-api-key': 'k1' })).status).toBe(200)
    expect((await get('/v1/chains')).status).toBe(200)
    expect(keys).toEqual(['k1'])
    // outside /v1 the plugin's hook does not run
    expect((await get('/probe', { 'x-data-api-key': 'k2' })).body).toEqual({ key: null })
  })

  it('answers a source failure with 500 in the error shape, never leaking its message', async () => {
    source.listBlocks = () => {
      throw new Error('secret detail')
    }
    expect(await get('/v1/chains/43112/blocks')).toMatchObject({
      status: 500,
      body: { message: 'Internal server error', statusCode: 500, error: 'Internal Server Error' },
    })
  })
})
