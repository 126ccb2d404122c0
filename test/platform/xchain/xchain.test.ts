import { sha256 } from '@noble/hashes/sha2.js'
import { describe, expect, it } from 'vitest'
import { formatAddress } from '../../../src/core/address.js'
import { idFromString, idToString } from '../../../src/core/ids.js'
import { decodeUtxo, encodeSignedTx } from '../../../src/platform/codec.js'
import type { XChainSignedTx } from '../../../src/platform/txs.js'
import {
  getAssetDescription,
  getBalance,
  getTx,
  getUTXOs,
  stringifyGoJson,
} from '../../../src/platform/xchain/api.js'
import { XChainTxError } from '../../../src/platform/xchain/errors.js'
import { Keychain, XWallet, compareTransferableOutputs, signXTx } from '../../../src/platform/xchain/wallet.js'
import { AVAX, DEV_FUNDS, EWOQ_KEY, setup } from './helpers.js'

const xAddr = (a: Uint8Array) => formatAddress('X', 'local', a)

describe('X-chain genesis', () => {
  it('funds the dev accounts and ewoq with AVAX', () => {
    const { x, addrs } = setup()
    for (const a of addrs) expect(x.balanceOf(a)).toBe(DEV_FUNDS)
    const ewoq = new Keychain([EWOQ_KEY]).addresses()[0]!
    expect(xAddr(ewoq)).toBe('X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u')
    expect(x.balanceOf(ewoq)).toBe(300_000_000_000_000_000n)
    expect(x.height).toBe(0)
    expect(getAssetDescription(x, { assetID: 'AVAX' })).toEqual({
      assetID: AVAX,
      name: 'Avalanche',
      symbol: 'AVAX',
      denomination: '9',
    })
    // genesis UTXOs are outputs of the AVAX asset's CreateAssetTx
    for (const e of x.utxosOf(addrs[0]!)) expect(idToString(e.utxo.txId)).toBe(AVAX)
  })
})

describe('X-chain BaseTx', () => {
  it('moves AVAX, burns the fee and keeps UTXOs consistent', () => {
    const { x, addrs, wallets, clock } = setup()
    clock.advance(5)
    const tx = wallets[0]!.send([{ address: addrs[1]!, amount: 5_000_000_000n }])
    const res = x.issueTx(tx)
    expect(res.height).toBe(1)
    expect(res.txId).toBe(idToString(idFromString(res.txId)))
    expect(x.balanceOf(addrs[0]!)).toBe(DEV_FUNDS - 5_000_000_000n - x.txFee)
    expect(x.balanceOf(addrs[1]!)).toBe(DEV_FUNDS + 5_000_000_000n)
    const block = x.lastBlock()
    expect(block.txIds).toEqual([res.txId])
    expect(block.timestamp).toBe(clock.now())
    expect(block.parentId).toBe(x.getBlockByHeight(0)!.id)
    // every consumed input is in history with the consuming tx and height
    for (const input of tx.unsigned.base.inputs) {
      const spent = x.state.history().find((h) => idToString(h.utxo.txId) === idToString(input.txId))
      expect(spent?.consumed).toEqual({ chainId: x.chainId, txId: res.txId, height: 1, timestamp: clock.now() })
    }
    const created = x.utxosOf(addrs[1]!).find((e) => e.created.txId === res.txId)
    expect(created?.created.height).toBe(1)

    const bal = getBalance(x, { address: xAddr(addrs[1]!), assetID: 'AVAX' })
    expect(bal.balance).toBe(String(DEV_FUNDS + 5_000_000_000n))
    expect(bal.utxoIDs).toHaveLength(2)
    expect(bal.utxoIDs[0]).toEqual({ txID: res.txId, outputIndex: expect.any(Number) })
  })

  it('getUTXOs pages newest first with hex+checksum and a resumable endIndex', () => {
    const { x, addrs, wallets } = setup()
    for (let i = 0; i < 3; i++) x.issueTx(wallets[0]!.send([{ address: addrs[1]!, amount: 1_000_000_000n + BigInt(i) }]))
    const all = getUTXOs(x, { addresses: [xAddr(addrs[1]!)] })
    expect(all.numFetched).toBe('4')
    expect(all.encoding).toBe('hex')
    const first = decodeUtxo('X', Buffer.from(all.utxos[0]!.slice(2, -8), 'hex'))
    expect(first.output.type === 'TransferOutput' && first.output.amount).toBe(1_000_000_002n)
    const page1 = getUTXOs(x, { addresses: [xAddr(addrs[1]!)], limit: 2 })
    expect(page1.numFetched).toBe('2')
    expect(page1.endIndex.address).toBe(xAddr(addrs[1]!))
    const page2 = getUTXOs(x, { addresses: [xAddr(addrs[1]!)], limit: 2, startIndex: page1.endIndex })
    expect([...page1.utxos, ...page2.utxos]).toEqual(all.utxos)
    const nc = getUTXOs(x, { addresses: [xAddr(addrs[1]!)], encoding: 'hexnc' })
    expect(nc.utxos[0]).toBe(all.utxos[0]!.slice(0, -8))
    expect(() => getUTXOs(x, { addresses: [] })).toThrow('no addresses provided')
  })

  it('getTx returns hex and json encodings', () => {
    const { x, addrs, wallets } = setup()
    const tx = wallets[0]!.send([{ address: addrs[1]!, amount: 7n }])
    const { txId } = x.issueTx(tx)
    const hex = getTx(x, { txID: txId })
    expect(hex.encoding).toBe('hex')
    expect((hex.tx as string).slice(0, -8)).toBe(Buffer.from(encodeSignedTx('X', tx)).reduce((s, b) => s + b.toString(16).padStart(2, '0'), '0x'))
    const json = getTx(x, { txID: txId, encoding: 'json' })
    const parsed = JSON.parse(stringifyGoJson(json.tx)) as { id: string; unsignedTx: { networkID: number; outputs: unknown[]; memo: string } }
    expect(parsed.id).toBe(txId)
    expect(parsed.unsignedTx.networkID).toBe(12345)
    expect(parsed.unsignedTx.memo).toBe('0x')
    expect(stringifyGoJson({ a: 300_000_000_000_000_000n })).toBe('{"a":300000000000000000}')
    expect(() => getTx(x, { txID: '11111111111111111111111111111111LpoYY' })).toThrow('nil transaction ID')
  })
})

describe('X-chain assets', () => {
  it('CreateAssetTx then MintOperation', () => {
    const { x, addrs, wallets } = setup()
    const create = wallets[0]!.createAsset({
      name: 'Test Token',
      symbol: 'TEST',
      denomination: 6,
      holders: [{ address: addrs[0]!, amount: 1000n }],
      minters: [{ addresses: [addrs[0]!] }],
    })
    const { txId: assetId, height } = x.issueTx(create)
    expect(x.balanceOf(addrs[0]!)).toBe(DEV_FUNDS - x.createAssetTxFee)
    expect(x.balanceOf(addrs[0]!, assetId)).toBe(1000n)
    expect(getAssetDescription(x, { assetID: assetId })).toEqual({ assetID: assetId, name: 'Test Token', symbol: 'TEST', denomination: '6' })
    expect(x.getAsset(assetId)?.height).toBe(height)

    x.issueTx(wallets[0]!.mint({ assetId, amount: 500n, to: addrs[1]! }))
    expect(x.balanceOf(addrs[1]!, assetId)).toBe(500n)
    // the mint output was consumed and re-created: minting again works
    x.issueTx(wallets[0]!.mint({ assetId, amount: 1n, to: addrs[1]! }))
    expect(x.balanceOf(addrs[1]!, assetId)).toBe(501n)

    // the new asset moves like AVAX
    x.issueTx(wallets[1]!.send([{ address: addrs[2]!, amount: 200n, assetId }]))
    expect(x.balanceOf(addrs[2]!, assetId)).toBe(200n)
    expect(x.balanceOf(addrs[1]!, assetId)).toBe(301n)
    // someone without the mint output cannot mint
    expect(() => wallets[1]!.mint({ assetId, amount: 1n, to: addrs[1]! })).toThrow(/no mint output/)
  })

  it('getAssetDescription of a non-asset tx and of an unknown id', () => {
    const { x, addrs, wallets } = setup()
    const { txId } = x.issueTx(wallets[0]!.send([{ address: addrs[1]!, amount: 1n }]))
    expect(() => getAssetDescription(x, { assetID: txId })).toThrow("transaction doesn't create an asset")
    expect(() => getAssetDescription(x, { assetID: 'NOPE' })).toThrow("asset 'NOPE' not found")
  })
})

describe('X-chain refusals leave state unchanged', () => {
  const refuse = (x: ReturnType<typeof setup>['x'], tx: XChainSignedTx, message: string | RegExp) => {
    const before = x.serialize()
    let err: unknown
    try {
      x.issueTx(tx)
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(XChainTxError)
    if (typeof message === 'string') expect((err as Error).message).toBe(message)
    else expect((err as Error).message).toMatch(message)
    expect(x.serialize()).toBe(before)
  }

  it('insufficient funds', () => {
    const { x, addrs, wallets } = setup()
    const tx = wallets[0]!.send([{ address: addrs[1]!, amount: 1n }])
    const out = tx.unsigned.base.outputs.find((o) => o.output.type === 'TransferOutput' && o.output.amount === 1n)!
    if (out.output.type === 'TransferOutput') out.output.amount = DEV_FUNDS
    tx.unsigned.base.outputs.sort(compareTransferableOutputs)
    refuse(x, signXTx(tx.unsigned, [[wallets[0]!.keychain.get(addrs[0]!)!]]), 'insufficient funds')
  })

  it('double spend of a consumed UTXO', () => {
    const { x, addrs, wallets } = setup()
    const tx = wallets[0]!.send([{ address: addrs[1]!, amount: 1n }])
    const again = wallets[0]!.send([{ address: addrs[2]!, amount: 2n }]) // built on the same UTXO
    x.issueTx(tx)
    const input = again.unsigned.base.inputs[0]!
    const { inputId } = { inputId: idToString(require_inputId(input.txId, input.outputIndex)) }
    refuse(x, again, `failed to verify transfer: failed to get utxo ${inputId}: not found`)
  })

  it('double spend inside one block: the mempool refuses the second spender, the block holds the first', () => {
    const { x, addrs, wallets } = setup()
    const a = wallets[0]!.send([{ address: addrs[1]!, amount: 1n }])
    const b = wallets[0]!.send([{ address: addrs[2]!, amount: 2n }])
    const before = x.serialize()
    const aId = x.addToMempool(a)
    const bId = idToString(sha256(encodeSignedTx('X', b)))
    expect(() => x.addToMempool(b)).toThrow(`tx conflicts with other tx: ${bId}`)
    expect(x.serialize()).toBe(before)
    expect(x.mempoolTxs().map((t) => t.txId)).toEqual([aId])
    // The refusal is remembered: the same tx gets it again without being verified.
    expect(x.dropReason(bId)?.message).toBe(`tx conflicts with other tx: ${bId}`)
    const block = x.buildBlock()!
    expect(block.txIds).toEqual([aId])
    expect(x.mempoolTxs()).toEqual([])
    expect(x.buildBlock()).toBeUndefined()
  })

  it('wrong signature', () => {
    const { x, addrs, wallets, keychains } = setup()
    const tx = wallets[0]!.send([{ address: addrs[1]!, amount: 1n }])
    const forged = signXTx(tx.unsigned, [[keychains[1]!.get(addrs[1]!)!]])
    refuse(x, forged, /^failed to verify transfer: wrong signature: expected signature from \w+ but got from \w+$/)
  })

  it('wrong number of credentials', () => {
    const { x, addrs, wallets } = setup()
    const tx = wallets[0]!.send([{ address: addrs[1]!, amount: 1n }])
    refuse(x, { unsigned: tx.unsigned, credentials: [] }, 'wrong number of credentials: 0 != 1')
  })

  it('an output of an asset nothing consumes', () => {
    const { x, addrs, wallets } = setup()
    const tx = wallets[0]!.send([{ address: addrs[1]!, amount: 1n }])
    const bogus = new Uint8Array(32).fill(9)
    tx.unsigned.base.outputs.push({ assetId: bogus, output: { type: 'TransferOutput', amount: 1n, owners: { locktime: 0n, threshold: 1, addrs: [addrs[1]!] } } })
    tx.unsigned.base.outputs.sort(compareTransferableOutputs)
    // nothing consumes the unknown asset: the flow check refuses it before any state is read
    refuse(x, signXTx(tx.unsigned, [[wallets[0]!.keychain.get(addrs[0]!)!]]), 'insufficient funds')
  })

  it('input asset that does not match its UTXO', () => {
    const { x, addrs, wallets } = setup()
    // create an asset, then try to spend an AVAX UTXO labelled as that asset
    const { txId: assetId } = x.issueTx(
      wallets[0]!.createAsset({ name: 'Foo', symbol: 'FOO', denomination: 0, holders: [{ address: addrs[0]!, amount: 10n }] }),
    )
    const tx = wallets[0]!.send([{ address: addrs[1]!, amount: 10n, assetId }])
    const avaxIn = tx.unsigned.base.inputs.find((i) => idToString(i.assetId) === AVAX)!
    const fooIn = tx.unsigned.base.inputs.find((i) => idToString(i.assetId) === assetId)!
    ;[avaxIn.assetId, fooIn.assetId] = [fooIn.assetId, avaxIn.assetId]
    ;[avaxIn.input, fooIn.input] = [fooIn.input, avaxIn.input]
    const keys = tx.unsigned.base.inputs.map(() => [wallets[0]!.keychain.get(addrs[0]!)!])
    refuse(x, signXTx(tx.unsigned, keys), "failed to verify transfer: asset IDs in the input don't match the utxo")
  })

  it('network id, chain id, memo, sorting', () => {
    const { x, addrs, wallets } = setup()
    const key = [[wallets[0]!.keychain.get(addrs[0]!)!]]
    const mk = () => wallets[0]!.send([{ address: addrs[1]!, amount: 1n }]).unsigned
    const u1 = mk()
    u1.base.networkId = 1
    refuse(x, signXTx(u1, key), 'tx has wrong network ID')
    const u2 = mk()
    u2.base.blockchainId = new Uint8Array(32).fill(1)
    refuse(x, signXTx(u2, key), 'tx has wrong chain ID')
    const u3 = mk()
    u3.base.memo = new Uint8Array(300)
    refuse(x, signXTx(u3, key), 'memo exceeds maximum length: 300 > 256')
    const u4 = mk()
    u4.base.outputs.reverse()
    refuse(x, signXTx(u4, key), 'outputs not sorted')
    const u5 = mk()
    const o5 = u5.base.outputs[0]!.output
    if (o5.type === 'TransferOutput') o5.amount = 0n
    refuse(x, signXTx(u5, key), 'output has no value')
  })

  it('timelocked UTXO', () => {
    const { x, addrs, wallets, keychains, clock } = setup()
    x.issueTx(wallets[0]!.send([{ address: addrs[2]!, amount: 5_000_000n, locktime: BigInt(clock.now() + 1000) }]))
    const locked = x.utxosOf(addrs[2]!).find((e) => e.utxo.output.type === 'TransferOutput' && e.utxo.output.owners.locktime > 0n)!
    const lockedOut = locked.utxo.output
    if (lockedOut.type !== 'TransferOutput') throw new Error('unreachable')
    const unsigned: XChainSignedTx['unsigned'] = {
      type: 'BaseTx',
      base: {
        networkId: x.networkId,
        blockchainId: idFromString(x.chainId),
        outputs: [],
        inputs: [{ txId: locked.utxo.txId, outputIndex: locked.utxo.outputIndex, assetId: locked.utxo.assetId, input: { type: 'TransferInput', amount: lockedOut.amount, sigIndices: [0] } }],
        memo: new Uint8Array(),
      },
    }
    refuse(x, signXTx(unsigned, [[keychains[2]!.get(addrs[2]!)!]]), 'failed to verify transfer: output is time locked')
    clock.advance(2000)
    // The node's mempool remembers the refusal of these very bytes and repeats it, unverified.
    expect(() => x.issueTx(signXTx(unsigned, [[keychains[2]!.get(addrs[2]!)!]]))).toThrow('failed to verify transfer: output is time locked')
    const fresh = { ...unsigned, base: { ...unsigned.base, memo: new Uint8Array([1]) } }
    x.issueTx(signXTx(fresh, [[keychains[2]!.get(addrs[2]!)!]]))
  })

  it('CreateAssetTx name and symbol rules', () => {
    const { x, addrs, wallets } = setup()
    const w = wallets[0]!
    const holders = [{ address: addrs[0]!, amount: 1n }]
    refuse(x, w.createAsset({ name: 'bad-name', symbol: 'OK', denomination: 0, holders }), "asset's name must be made up of only letters and numbers")
    refuse(x, w.createAsset({ name: 'ok', symbol: 'low', denomination: 0, holders }), "asset's symbol must be all upper case letters")
    refuse(x, w.createAsset({ name: 'ok', symbol: 'TOOLONG', denomination: 0, holders }), 'symbol is too long, maximum size is 4')
    refuse(x, w.createAsset({ name: ' ok', symbol: 'OK', denomination: 0, holders }), 'unexpected whitespace provided')
    refuse(x, w.createAsset({ name: 'ok', symbol: 'OK', denomination: 33, holders }), 'denomination is too large')
  })

  it('minting with the wrong key', () => {
    const { x, addrs, wallets, keychains } = setup()
    const { txId: assetId } = x.issueTx(
      wallets[0]!.createAsset({ name: 'Foo', symbol: 'FOO', denomination: 0, minters: [{ addresses: [addrs[0]!] }] }),
    )
    const mint = wallets[0]!.mint({ assetId, amount: 5n, to: addrs[1]! })
    const forged = signXTx(mint.unsigned, [...mint.unsigned.base.inputs.map(() => [keychains[0]!.get(addrs[0]!)!]), [keychains[1]!.get(addrs[1]!)!]])
    refuse(x, forged, /^wrong signature: expected signature from/)
  })

  it('a tx issued again is verified again and refused', () => {
    const { x, addrs, wallets } = setup()
    const tx = wallets[0]!.send([{ address: addrs[1]!, amount: 1n }])
    x.issueTx(tx)
    // As the node: verified again, its inputs are spent.
    expect(() => x.issueTx(tx)).toThrow(/^failed to verify transfer: failed to get utxo \w+: not found$/)
  })
})

describe('X-chain snapshot / restore', () => {
  it('restores the exact state', () => {
    const { x, addrs, wallets, sharedMemory } = setup()
    x.issueTx(wallets[0]!.send([{ address: addrs[1]!, amount: 1n }]))
    const snap = x.snapshot()
    const smSnap = sharedMemory.snapshot()
    const before = x.serialize()
    const smBefore = sharedMemory.serialize()
    x.issueTx(wallets[1]!.send([{ address: addrs[2]!, amount: 2n }]))
    x.issueTx(wallets[0]!.export({ destinationChain: '11111111111111111111111111111111LpoYY', to: addrs[0]!, amount: 5_000_000n }))
    expect(x.serialize()).not.toBe(before)
    expect(sharedMemory.serialize()).not.toBe(smBefore)
    x.restore(snap)
    sharedMemory.restore(smSnap)
    expect(x.serialize()).toBe(before)
    expect(sharedMemory.serialize()).toBe(smBefore)
    expect(x.height).toBe(1)
    // the chain keeps working after a restore, and the snapshot is not aliased
    x.issueTx(wallets[2]!.send([{ address: addrs[0]!, amount: 3n }]))
    x.restore(snap)
    expect(x.serialize()).toBe(before)
  })
})

describe('Keychain / wallet', () => {
  it('derives X addresses from the EVM dev keys', () => {
    const { accounts, addrs } = setup()
    expect(accounts[0]!.address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
    expect(addrs[0]!.length).toBe(20)
  })
  it('refuses to spend more than owned', () => {
    const { x, addrs } = setup()
    const w = new XWallet(x, new Keychain([new Uint8Array(32).fill(5)]))
    expect(() => w.send([{ address: addrs[0]!, amount: 1n }])).toThrow(/insufficient funds/)
  })
})

import { inputId as require_inputId } from '../../../src/platform/xchain/bytes.js'
