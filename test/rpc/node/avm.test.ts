import { sha256 } from '@noble/hashes/sha2.js'
import { describe, expect, it } from 'vitest'
import { formatAddress } from '../../../src/core/address.js'
import { bytesToHex } from '../../../src/core/hex.js'
import { EMPTY_ID, idToString } from '../../../src/core/ids.js'
import { encodeSignedTx, encodeUtxo, utxoId } from '../../../src/platform/codec.js'
import { createNodeDispatcher } from '../../../src/rpc/node/dispatcher.js'
import { encodeGoJson } from '../../../src/rpc/node/goJson.js'
import { INVALID_ARGUMENT_MESSAGE } from '../../../src/rpc/node/types.js'
import { avmService, type AvmContext } from '../../../src/rpc/node/avm/index.js'
import { AVAX, DEV_FUNDS, P_CHAIN, X_CHAIN, setup } from '../../platform/xchain/helpers.js'

const xAddr = (a: Uint8Array) => formatAddress('X', 'local', a)
const withChecksum = (b: Uint8Array) => bytesToHex(new Uint8Array([...b, ...sha256(b).subarray(28)]))

const dispatcher = createNodeDispatcher<AvmContext>({ services: { avm: avmService } })
async function call(ctx: AvmContext, method: string, params: unknown = {}): Promise<string> {
  const { body } = await dispatcher.handle(JSON.stringify({ jsonrpc: '2.0', id: 1, method: `avm.${method}`, params }), ctx)
  return body
}
const ok = (result: string) => `{"jsonrpc":"2.0","result":${result},"id":1}\n`
const err = (message: string) => `{"jsonrpc":"2.0","error":{"code":-32000,"message":${encodeGoJson(message)},"data":null},"id":1}\n`
const J = (v: unknown) => JSON.stringify(v)

/** Dev account 0 sends 5 AVAX to account 1, then creates asset TEST held by account 2. */
function scenario() {
  const s = setup()
  const { x, addrs, wallets, clock } = s
  clock.advance(5)
  const send = wallets[0]!.send([{ address: addrs[1]!, amount: 5_000_000_000n }])
  const sent = x.issueTx(send)
  const create = wallets[0]!.createAsset({ name: 'Test Token', symbol: 'TEST', denomination: 6, holders: [{ address: addrs[2]!, amount: 1000n }] })
  const created = x.issueTx(create)
  const ctx: AvmContext = { xchain: x }
  return { ...s, ctx, send, sent, create, created }
}

describe('avm service', () => {
  it('getHeight and getTxStatus', async () => {
    const { ctx, sent } = scenario()
    expect(await call(ctx, 'getHeight')).toBe(ok('{"height":"2"}'))
    expect(await call(ctx, 'getTxStatus', { txID: sent.txId })).toBe(ok('{"status":"Accepted"}'))
    expect(await call(ctx, 'getTxStatus', { txID: idToString(new Uint8Array(32).fill(9)) })).toBe(ok('{"status":"Unknown"}'))
    expect(await call(ctx, 'getTxStatus', { txID: EMPTY_ID })).toBe(err('nil transaction ID'))
  })

  it('getBalance: only outputs the address alone owns, unless includePartial', async () => {
    const { ctx, x, addrs, sent } = scenario()
    const body = await call(ctx, 'getBalance', { address: xAddr(addrs[1]!), assetID: 'AVAX' })
    const utxoIDs = x.utxosOf(addrs[1]!).map((e) => ({ txID: idToString(e.utxo.txId), outputIndex: e.utxo.outputIndex }))
    expect(utxoIDs.some((u) => u.txID === sent.txId)).toBe(true)
    expect(body).toBe(ok(J({ balance: String(DEV_FUNDS + 5_000_000_000n), utxoIDs })))
    expect(await call(ctx, 'getBalance', { address: xAddr(addrs[1]!), assetID: AVAX, includePartial: true })).toBe(body)
    expect(await call(ctx, 'getBalance', { address: xAddr(new Uint8Array(20).fill(7)), assetID: 'AVAX' })).toBe(ok('{"balance":"0","utxoIDs":[]}'))
    expect(await call(ctx, 'getBalance', { address: 'nope', assetID: 'AVAX' })).toBe(
      err('problem parsing address \'nope\': couldn\'t parse address "nope": no separator found in address'),
    )
    expect(await call(ctx, 'getBalance', { address: xAddr(addrs[1]!), assetID: 'DOGE' })).toBe(err("asset 'DOGE' not found"))
    expect(await call(ctx, 'getBalance', { address: xAddr(addrs[1]!), assetID: 'AVAX', includePartial: 'yes' })).toBe(err(INVALID_ARGUMENT_MESSAGE))
  })

  it('getUTXOs: pages, encodings, atomic UTXOs from a source chain', async () => {
    const { ctx, x, addrs, sharedMemory } = scenario()
    const entries = x.utxosOf(addrs[2]!)
    expect(entries.length).toBeGreaterThanOrEqual(2)
    const first = entries[0]!
    const page = await call(ctx, 'getUTXOs', { addresses: [xAddr(addrs[2]!)], limit: 1 })
    expect(page).toBe(ok(J({ numFetched: '1', utxos: [withChecksum(encodeUtxo('X', first.utxo))], endIndex: { address: xAddr(addrs[2]!), utxo: first.utxoId }, encoding: 'hex' })))
    const next = await call(ctx, 'getUTXOs', { addresses: [xAddr(addrs[2]!)], limit: 1, startIndex: { address: xAddr(addrs[2]!), utxo: first.utxoId }, encoding: 'hexnc' })
    expect(next).toBe(ok(J({ numFetched: '1', utxos: [bytesToHex(encodeUtxo('X', entries[1]!.utxo))], endIndex: { address: xAddr(addrs[2]!), utxo: entries[1]!.utxoId }, encoding: 'hexnc' })))

    const exported = { txId: new Uint8Array(32).fill(3), outputIndex: 0, assetId: new Uint8Array(sha256(new Uint8Array())), output: { type: 'TransferOutput' as const, amount: 42n, owners: { locktime: 0n, threshold: 1, addrs: [addrs[0]!] } } }
    const key = utxoId(exported.txId, 0)
    sharedMemory.put(P_CHAIN, X_CHAIN, [{ key, value: encodeUtxo('P', exported), traits: [addrs[0]!] }])
    expect(await call(ctx, 'getUTXOs', { addresses: [xAddr(addrs[0]!)], sourceChain: 'P' })).toBe(
      ok(J({ numFetched: '1', utxos: [withChecksum(encodeUtxo('X', exported))], endIndex: { address: xAddr(addrs[0]!), utxo: idToString(key) }, encoding: 'hex' })),
    )

    expect(await call(ctx, 'getUTXOs', { addresses: [] })).toBe(err('no addresses provided'))
    expect(await call(ctx, 'getUTXOs', { addresses: [xAddr(addrs[0]!)], sourceChain: 'Z' })).toBe(err('problem parsing source chainID "Z": there is no ID with alias: Z'))
    expect(await call(ctx, 'getUTXOs', { addresses: [xAddr(addrs[2]!)], encoding: 'json' })).toBe(err(`couldn't encode UTXO ${first.utxoId} as string: unsupported encoding in method`))
    expect(await call(ctx, 'getUTXOs', { addresses: [xAddr(new Uint8Array(20).fill(7))], encoding: 'json' })).toBe(
      ok(J({ numFetched: '0', utxos: [], endIndex: { address: xAddr(new Uint8Array(20).fill(7)), utxo: EMPTY_ID }, encoding: 'json' })),
    )
    expect(await call(ctx, 'getUTXOs', { addresses: [xAddr(addrs[0]!)], encoding: 7 })).toBe(err(INVALID_ARGUMENT_MESSAGE))
    // a context aliaser replaces the preset's
    const none: AvmContext = { ...ctx, lookupChain: () => undefined }
    expect(await call(none, 'getUTXOs', { addresses: [xAddr(addrs[0]!)] })).toBe(err(`couldn't parse address "${xAddr(addrs[0]!)}": there is no ID with alias: X`))
  })

  it('getTx in hex and json; getAssetDescription', async () => {
    const { ctx, send, sent, created } = scenario()
    expect(await call(ctx, 'getTx', { txID: sent.txId })).toBe(ok(J({ tx: withChecksum(encodeSignedTx('X', send)), encoding: 'hex' })))
    const json = JSON.parse(await call(ctx, 'getTx', { txID: sent.txId, encoding: 'JSON' })).result
    expect(json.encoding).toBe('json')
    expect(Object.keys(json.tx)).toEqual(['unsignedTx', 'credentials', 'id'])
    expect(json.tx.id).toBe(sent.txId)
    expect(Object.keys(json.tx.unsignedTx)).toEqual(['networkID', 'blockchainID', 'outputs', 'inputs', 'memo'])
    // uint64 amounts are bare numbers
    expect(await call(ctx, 'getTx', { txID: sent.txId, encoding: 'json' })).toMatch(/"amount":5000000000,/)
    expect(await call(ctx, 'getTx', { txID: EMPTY_ID })).toBe(err('nil transaction ID'))
    expect(await call(ctx, 'getTx', { txID: idToString(new Uint8Array(32).fill(9)) })).toBe(err('not found'))

    expect(await call(ctx, 'getAssetDescription', { assetID: created.txId })).toBe(ok(J({ assetID: created.txId, name: 'Test Token', symbol: 'TEST', denomination: '6' })))
    expect(await call(ctx, 'getAssetDescription', { assetID: 'AVAX' })).toBe(ok(J({ assetID: AVAX, name: 'Avalanche', symbol: 'AVAX', denomination: '9' })))
    expect(await call(ctx, 'getAssetDescription', { assetID: sent.txId })).toBe(err("transaction doesn't create an asset"))
    expect(await call(ctx, 'getAssetDescription', { assetID: idToString(new Uint8Array(32).fill(9)) })).toBe(err('not found'))
    expect(await call(ctx, 'getAssetDescription', { assetID: 'nope' })).toBe(err("asset 'nope' not found"))
  })
})
