import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatAddress, hrpForNetworkId } from '../../../src/core/address.js'
import { dataRoutes } from '../../../src/api/routes/data/index.js'
import { networkDataSource } from '../../../src/api/routes/data/networkSource.js'
import { primaryTxRoutes } from '../../../src/api/routes/data/primary/utxosAndTxs.js'
import { createNetwork, type Network } from '../../../src/network/network.js'

const AVAX = 1_000_000_000n
type Body = Record<string, unknown> & { utxos?: Array<Record<string, unknown>>; transactions?: Array<Record<string, unknown>>; nextPageToken?: string }

describe('/v1/networks/{network}/blockchains/{blockchainId}/utxos and /transactions', () => {
  let network: Network
  let app: FastifyInstance
  let pAddr: string
  let xAddr: string
  let sendTx: string
  let exportTxId: string
  let importTxId: string

  beforeAll(async () => {
    network = await createNetwork()
    const w = network.wallets(0)!
    const hrp = hrpForNetworkId(network.preset.networkId)
    pAddr = formatAddress('P', hrp, w.address)
    xAddr = formatAddress('X', hrp, w.address)
    const other = network.wallets(1)!.address
    sendTx = network.primary.xchain.issueTx(w.x.send([{ address: other, amount: 5n * AVAX }])).txId
    ;({ exportTxId, importTxId } = await network.transfer({ from: 'X', to: 'P', amount: 10n * AVAX, account: 0 }))
    w.p.send([{ address: other, amount: AVAX }])
    app = Fastify()
    await app.register(dataRoutes, { source: networkDataSource(network), routes: [primaryTxRoutes(network)] })
    await app.ready()
  })
  afterAll(async () => {
    await app?.close()
    await network?.close?.()
  })

  const utxos = async (chain: string, addresses: string, qs = '') => {
    const r = await app.inject({ method: 'POST', url: `/v1/networks/local/blockchains/${chain}/utxos${qs}`, payload: { addresses } })
    return { status: r.statusCode, body: r.json() as Body }
  }
  const txs = async (chain: string, qs = '') => {
    const r = await app.inject({ method: 'GET', url: `/v1/networks/local/blockchains/${chain}/transactions${qs}` })
    return { status: r.statusCode, body: r.json() as Body }
  }

  it('lists P-chain UTXOs with utxoBytes and the model fields', async () => {
    const { status, body } = await utxos('p-chain', pAddr)
    expect(status).toBe(201)
    expect(body.chainInfo).toEqual({ chainName: 'p-chain', network: 'local' })
    expect(body.utxos!.length).toBeGreaterThan(0)
    const u = body.utxos![0]!
    expect(Object.keys(u).slice(0, 6)).toEqual(['addresses', 'asset', 'consumedOnChainId', 'createdOnChainId', 'utxoId', 'utxoBytes'])
    expect(u.utxoBytes).toMatch(/^0x00/)
    expect(u.utxoType).toBe('TRANSFER')
    const same = await utxos('11111111111111111111111111111111LpoYY', pAddr.slice(2))
    expect(same.body.utxos).toEqual(body.utxos)
    // The import's output is there.
    expect(body.utxos!.some((x) => x.txHash === importTxId)).toBe(true)
  })

  it('includes spent X-chain UTXOs with consuming tx, and pages', async () => {
    const live = await utxos('x-chain', xAddr)
    expect(live.status).toBe(201)
    expect(live.body.utxos!.every((u) => u.consumingTxHash === undefined)).toBe(true)
    const all = await utxos(network.primary.xchain.chainId, xAddr, '?includeSpent=true')
    const spent = all.body.utxos!.filter((u) => u.consumingTxHash !== undefined)
    expect(spent.map((u) => u.consumingTxHash)).toContain(sendTx)
    expect(spent[0]!.consumingTxTimestamp).toBeTypeOf('number')
    const ids: unknown[] = []
    let token: string | undefined
    do {
      const { body } = await utxos('x-chain', xAddr, `?includeSpent=true&pageSize=1${token ? `&pageToken=${token}` : ''}`)
      ids.push(...body.utxos!.map((u) => u.utxoId))
      token = body.nextPageToken
    } while (token)
    expect(ids).toEqual(all.body.utxos!.map((u) => u.utxoId))
  })

  it('validates the body, pageSize and blockchainId', async () => {
    expect((await app.inject({ method: 'POST', url: '/v1/networks/local/blockchains/p-chain/utxos', payload: {} })).statusCode).toBe(400)
    expect((await utxos('p-chain', pAddr, '?pageSize=1025')).status).toBe(400)
    expect((await utxos('p-chain', pAddr, '?pageSize=1024')).status).toBe(201)
    expect((await utxos('q-chain', pAddr)).status).toBe(400)
    expect((await utxos('p-chain', 'P-notanaddress')).status).toBe(400)
    expect((await utxos('p-chain', pAddr.replace(/^P-/, 'P-'), '')).body.utxos!.length).toBeGreaterThan(0)
    expect((await app.inject({ method: 'POST', url: '/v1/networks/mainnet/blockchains/p-chain/utxos', payload: { addresses: pAddr } })).json()).toEqual({ utxos: [], chainInfo: { chainName: 'p-chain', network: 'mainnet' } })
  })

  it('lists P-chain transactions newest first with types and filters', async () => {
    const { status, body } = await txs('p-chain')
    expect(status).toBe(200)
    const list = body.transactions!
    expect(list[0]!.txType).toBe('BaseTx')
    expect(list[1]!.txHash).toBe(importTxId)
    expect(list[1]!.txType).toBe('ImportTx')
    expect(list[1]!.sourceChain).toBe(network.primary.xchain.chainId)
    expect(Object.keys(list[0]!).slice(0, 7)).toEqual(['txHash', 'txType', 'blockTimestamp', 'blockNumber', 'blockHash', 'consumedUtxos', 'emittedUtxos'])
    const ts = list.map((t) => t.blockTimestamp as number)
    expect([...ts].sort((a, b) => b - a)).toEqual(ts)
    const imports = await txs('p-chain', '?txTypes=ImportTx')
    expect(imports.body.transactions!.map((t) => t.txHash)).toEqual([importTxId])
    expect((await txs('p-chain', '?txTypes=Nope')).status).toBe(400)
    const asc = await txs('p-chain', '?sortOrder=asc&pageSize=1')
    expect(asc.body.transactions).toHaveLength(1)
    expect(asc.body.nextPageToken).toBeTypeOf('string')
    const future = await txs('p-chain', `?startTimestamp=${network.primary.pchain.timestamp + 1000}`)
    expect(future.body.transactions).toEqual([])
  })

  it('lists X-chain transactions with consumed / emitted UTXOs and pages them', async () => {
    const { body } = await txs('x-chain', `?addresses=${xAddr}`)
    const list = body.transactions!
    expect(list[0]!.txHash).toBe(exportTxId)
    expect(list[0]!.txType).toBe('ExportTx')
    expect(list[0]!.chainFormat).toBe('linear')
    expect(list[0]!.destinationChain).toBe(network.primary.pchain.chainId)
    const send = list.find((t) => t.txHash === sendTx)!
    expect(send.txType).toBe('BaseTx')
    expect((send.consumedUtxos as unknown[]).length).toBeGreaterThan(0)
    expect((send.emittedUtxos as unknown[]).length).toBeGreaterThan(0)
    const seen: unknown[] = []
    let token: string | undefined
    do {
      const page = await txs('x-chain', `?addresses=${xAddr}&pageSize=1${token ? `&pageToken=${token}` : ''}`)
      seen.push(...page.body.transactions!.map((t) => t.txHash))
      token = page.body.nextPageToken
    } while (token)
    expect(seen).toEqual(list.map((t) => t.txHash))
  })
})
