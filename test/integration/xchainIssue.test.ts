/**
 * The X-chain written through avalanchejs 5.2.0 over HTTP, as its examples write it
 * (`Context.getContextFromURI`, `avm.newBaseTx` / `newExportTx` / `newImportTx`, `addTxSignatures`,
 * `AVMApi.issueSignedTx`), and read back through `avm.getTx`, `getTxStatus`, `getBalance`,
 * `getUTXOs`, `getBlockByHeight`, `platform.getUTXOs` and the data API. CreateAssetTx and
 * OperationTx have no builder in avalanchejs: they are put together from its serializable classes
 * and signed with its `secp256k1.sign`, as a wallet does. Every refusal carries the node's text
 * and leaves every chain as it was.
 */
import { Glacier } from '@avalabs/glacier-sdk'
import { sha256 } from '@noble/hashes/sha2.js'
import { describe, expect, it } from 'vitest'
import { cb58Encode } from '../../src/core/cb58.js'
import { idToString } from '../../src/core/ids.js'
import { ajs, EWOQ_KEY, keyAddresses, ok, primaryDevnets, primaryState, refused, rpc, txHex, type KeyAddresses } from './primaryClients.js'

const AVAX = 1_000_000_000n
const X = '/ext/bc/X'

const start = primaryDevnets()

async function setup(label: string) {
  const { url, network, context, avmapi } = await start(label)
  const ewoq = keyAddresses(EWOQ_KEY, context.hrp)
  const dev = keyAddresses(network.devAccounts[1]!.privateKey, context.hrp)
  const balance = async (who: KeyAddresses, assetID = 'AVAX') => BigInt((await avmapi.getBalance({ address: who.x, assetID })).balance)
  const utxosOf = async (who: KeyAddresses) => (await avmapi.getUTXOs({ addresses: [who.x] })).utxos
  return { url, network, context, avmapi, ewoq, dev, balance, utxosOf }
}

/** `avm.newBaseTx` paying `amount` nAVAX from `from` to `to`, signed by `signer` (default `from`). */
async function baseTx(s: Awaited<ReturnType<typeof setup>>, from: KeyAddresses, to: KeyAddresses, amount: bigint, options: { context?: unknown; utxos?: unknown[]; signer?: KeyAddresses } = {}) {
  const utxos = options.utxos ?? (await s.utxosOf(from))
  const tx = ajs.avm.newBaseTx(options.context ?? s.context, [from.bytes], utxos, [ajs.TransferableOutput.fromNative(s.context.avaxAssetID, amount, [to.bytes])])
  await ajs.addTxSignatures({ unsignedTx: tx, privateKeys: [(options.signer ?? from).key] })
  return tx
}

/**
 * Signs an X-chain tx avalanchejs builds but cannot sign (CreateAssetTx, OperationTx have no
 * `UnsignedTx` support): one credential per input, each with `signer`'s signature over the
 * unsigned bytes. Returns the signed bytes (unsigned ‖ credentials, the AVM codec).
 */
async function signAvm(unsignedTx: unknown, credentialCount: number, signer: KeyAddresses): Promise<Uint8Array> {
  const manager = ajs.utils.getManagerForVM('AVM')
  const unsigned: Uint8Array = manager.packCodec(unsignedTx)
  const sig = await ajs.secp256k1.sign(unsigned, signer.key)
  const creds = Array.from({ length: credentialCount }, () => new ajs.Credential([new ajs.Signature(sig)]))
  return ajs.utils.concatBytes(unsigned, manager.getDefaultCodec().PackPrefixList(creds))
}

describe('X-chain transactions from avalanchejs over HTTP', () => {
  it('BaseTx: accepted in a block at once, read back as sent, balances and the data API follow', async () => {
    const s = await setup('x-base')
    const [ewoqBefore, devBefore] = [await s.balance(s.ewoq), await s.balance(s.dev)]
    const height = Number((await ok(s.url, X, 'avm.getHeight')).height)
    const tx = await baseTx(s, s.ewoq, s.dev, 7n * AVAX)
    const signed: Uint8Array = tx.getSignedTx().toBytes()
    const { txID } = await s.avmapi.issueSignedTx(tx.getSignedTx())
    expect(txID).toBe(idToString(sha256(signed)))

    expect(await s.avmapi.getTxStatus({ txID })).toEqual({ status: 'Accepted' })
    expect((await s.avmapi.getTx({ txID })).toBytes()).toEqual(signed)
    expect(await s.balance(s.dev)).toBe(devBefore + 7n * AVAX)
    expect(await s.balance(s.ewoq)).toBe(ewoqBefore - 7n * AVAX - s.context.baseTxFee)
    const mine = (await s.utxosOf(s.dev)).filter((u: any) => u.utxoId.txID.toString() === txID)
    expect(mine.map((u: any) => u.output.amount())).toEqual([7n * AVAX])

    // Its block, as bytes and as JSON.
    expect((await ok(s.url, X, 'avm.getHeight')).height).toBe(String(height + 1))
    const hex = await ok(s.url, X, 'avm.getBlockByHeight', { height: String(height + 1) })
    expect(hex.encoding).toBe('hex')
    const blockBytes = ajs.utils.hexToBuffer(hex.block).slice(0, -4)
    // StandardBlock: codec version, type 20, parent, height, time, root, one tx (without its codec version).
    expect(blockBytes.slice(0, 6)).toEqual(Uint8Array.of(0, 0, 0, 0, 0, 20))
    expect(Buffer.from(blockBytes.slice(-(signed.length - 2)))).toEqual(Buffer.from(signed.slice(2)))
    const json = await ok(s.url, X, 'avm.getBlockByHeight', { height: height + 1, encoding: 'json' })
    expect(json.block).toMatchObject({ height: height + 1, txs: [{ id: txID }] })
    const byId = await ok(s.url, X, 'avm.getBlock', { blockID: json.block.id })
    expect(byId).toEqual(hex)

    const glacier = new Glacier({ BASE: s.url })
    const listed = await glacier.primaryNetworkTransactions.listLatestPrimaryNetworkTransactions({ blockchainId: 'x-chain' as never, network: 'local' as never, addresses: s.dev.x })
    expect(listed.transactions.map((t: { txHash: string }) => t.txHash)).toContain(txID)
  })

  it('CreateAssetTx then OperationTx: a new asset with its supply, then minted by its minter', async () => {
    const s = await setup('x-asset')
    const a = ajs
    const utxos = await s.utxosOf(s.ewoq)
    // The spend (inputs, change) as avalanchejs makes it for the CreateAssetTx fee.
    const spend = ajs.avm.newBaseTx({ ...s.context, baseTxFee: s.context.createAssetTxFee }, [s.ewoq.bytes], utxos, []).getTx()
    const owners = (addr: Uint8Array) => new a.OutputOwners(new a.BigIntPr(0n), new a.Int(1), [new a.Address(addr)])
    const createAsset = new a.avmSerial.CreateAssetTx(
      spend.baseTx,
      new a.Stringpr('Test Token'),
      new a.Stringpr('TEST'),
      new a.Byte(Uint8Array.of(2)),
      // The state's outputs in codec byte order: the MintOutput (type 6) before the TransferOutput (7).
      [new a.avmSerial.InitialState(new a.Int(0), [new a.MintOutput(owners(s.ewoq.bytes)), new a.TransferOutput(new a.BigIntPr(1_000n), owners(s.dev.bytes))])],
    )
    const createBytes = await signAvm(createAsset, spend.baseTx.inputs.length, s.ewoq)
    const { txID: assetID } = await ok(s.url, X, 'avm.issueTx', { tx: txHex(createBytes) })
    expect(assetID).toBe(idToString(sha256(createBytes)))
    expect(await s.avmapi.getTxStatus({ txID: assetID })).toEqual({ status: 'Accepted' })
    expect(await s.avmapi.getAssetDescription(assetID)).toEqual({ assetID, name: 'Test Token', symbol: 'TEST', denomination: '2' })
    expect(await s.balance(s.dev, assetID)).toBe(1_000n)

    // OperationTx: spend the MintOutput, minting 500 more to the holder.
    const mintUtxo = (await s.utxosOf(s.ewoq)).find((u: any) => u.utxoId.txID.toString() === assetID && a.utils.isSecpMintOut(u.output))
    expect(mintUtxo).toBeDefined()
    const fee = ajs.avm.newBaseTx(s.context, [s.ewoq.bytes], await s.utxosOf(s.ewoq), []).getTx()
    const codec = a.utils.getManagerForVM('AVM').getDefaultCodec()
    const mint = new a.MintOperation(new a.Input([new a.Int(0)]), new a.MintOutput(owners(s.ewoq.bytes)), new a.TransferOutput(new a.BigIntPr(500n), owners(s.dev.bytes)))
    // avalanchejs 5.2.0 exports no TransferableOp: its bytes (asset, UTXO ids, the typed op) are read back by OperationTx.
    const list = (...items: Uint8Array[]) => a.utils.concatBytes(new a.Int(items.length).toBytes(), ...items)
    const op = a.utils.concatBytes(mintUtxo.assetId.toBytes(), list(mintUtxo.utxoId.toBytes(codec)), codec.PackPrefix(mint))
    const [operationTx] = a.avmSerial.OperationTx.fromBytes(a.utils.concatBytes(fee.baseTx.toBytes(codec), list(op)), codec)
    const opBytes = await signAvm(operationTx, fee.baseTx.inputs.length + 1, s.ewoq)
    const { txID: opID } = await ok(s.url, X, 'avm.issueTx', { tx: txHex(opBytes) })
    expect(await s.avmapi.getTxStatus({ txID: opID })).toEqual({ status: 'Accepted' })
    expect(await s.balance(s.dev, assetID)).toBe(1_500n)
    const all = await ok(s.url, X, 'avm.getAllBalances', { address: s.dev.x })
    expect(all.balances).toContainEqual({ asset: assetID, balance: '1500' })
    expect(all.balances).toContainEqual({ asset: 'AVAX', balance: expect.stringMatching(/^\d+$/) })
  })

  it('ExportTx to the P-chain: the UTXO waits in shared memory for platform.getUTXOs {sourceChain: "X"}', async () => {
    const s = await setup('x-export-p')
    const before = await s.balance(s.ewoq)
    const tx = ajs.avm.newExportTx(s.context, s.context.pBlockchainID, [s.ewoq.bytes], await s.utxosOf(s.ewoq), [
      ajs.TransferableOutput.fromNative(s.context.avaxAssetID, 3n * AVAX, [s.dev.bytes]),
    ])
    await ajs.addTxSignatures({ unsignedTx: tx, privateKeys: [s.ewoq.key] })
    const { txID } = await s.avmapi.issueSignedTx(tx.getSignedTx())
    expect(await s.avmapi.getTxStatus({ txID })).toEqual({ status: 'Accepted' })
    expect(await s.balance(s.ewoq)).toBe(before - 3n * AVAX - s.context.baseTxFee)
    const atomic = await ok(s.url, '/ext/bc/P', 'platform.getUTXOs', { addresses: [s.dev.p], sourceChain: 'X' })
    expect(atomic.numFetched).toBe('1')
    const utxo = new ajs.pvm.PVMApi(s.url).manager.unpack(ajs.utils.hexToBuffer(atomic.utxos[0]).slice(0, -4), ajs.Utxo)
    expect(utxo.utxoId.txID.toString()).toBe(txID)
    expect(utxo.output.amount()).toBe(3n * AVAX)
  })

  it('ImportTx from the P-chain: avm.newImportTx spends what the P-chain exported', async () => {
    const s = await setup('x-import-p')
    // The P-chain's export, made by the network's own wallet (the P-chain's issuing is tested with it).
    s.network.wallets(1)!.p.exportTo(s.context.xBlockchainID, { to: s.dev.bytes, amount: 4n * AVAX })
    const before = await s.balance(s.dev)
    const { utxos } = await s.avmapi.getUTXOs({ sourceChain: 'P', addresses: [s.dev.x] })
    expect(utxos).toHaveLength(1)
    const tx = ajs.avm.newImportTx(s.context, s.context.pBlockchainID, utxos, [s.dev.bytes], [s.dev.bytes])
    await ajs.addTxSignatures({ unsignedTx: tx, privateKeys: [s.dev.key] })
    const { txID } = await s.avmapi.issueSignedTx(tx.getSignedTx())
    expect(await s.avmapi.getTxStatus({ txID })).toEqual({ status: 'Accepted' })
    expect(await s.balance(s.dev)).toBe(before + 4n * AVAX - s.context.baseTxFee)
    expect((await s.avmapi.getUTXOs({ sourceChain: 'P', addresses: [s.dev.x] })).utxos).toEqual([])
  })
})

describe('X-chain refusals: the node\'s text, nothing changed', () => {
  it('wrong signature, insufficient funds, wrong network and chain ids, unknown and spent UTXOs, a tx issued twice, undecodable bytes', async () => {
    const s = await setup('x-refusals')
    const state = () => primaryState(s.network)
    const issue = async (tx: any, message: string) => {
      const before = state()
      const ewoq = await s.balance(s.ewoq)
      await refused(s.url, X, 'avm.issueTx', { tx: txHex(tx.getSignedTx().toBytes()) }, message)
      expect(state()).toBe(before)
      expect(await s.balance(s.ewoq)).toBe(ewoq)
    }
    const utxos = await s.utxosOf(s.ewoq)
    const firstInput = (tx: any) => {
      const input = tx.getTx().baseTx.inputs[0]
      return idToString(sha256(ajs.utils.concatBytes(new ajs.BigIntPr(BigInt(input.utxoID.outputIdx.value())).toBytes(), input.utxoID.txID.toBytes())))
    }

    // Signed by a key that does not own the input: avalanchejs leaves its placeholder, all zeros…
    await issue(await baseTx(s, s.ewoq, s.dev, AVAX, { signer: s.dev }), 'failed to verify transfer: invalid signature')
    // …and a real signature by that key is someone else's.
    const unsigned = await baseTx(s, s.ewoq, s.dev, AVAX, { signer: s.dev })
    const devSig = new ajs.Signature(await ajs.secp256k1.sign(unsigned.toBytes(), s.dev.key))
    const forged = { getSignedTx: () => new ajs.avaxSerial.SignedTx(unsigned.getTx(), [new ajs.Credential([devSig])]) }
    await issue(forged, `failed to verify transfer: wrong signature: expected signature from ${cb58Encode(s.ewoq.bytes)} but got from ${cb58Encode(s.dev.bytes)}`)
    // Outputs worth every input: nothing left for the fee.
    await issue(await baseTx(s, s.ewoq, s.dev, AVAX, { context: { ...s.context, baseTxFee: 0n } }), 'insufficient funds')
    await issue(await baseTx(s, s.ewoq, s.dev, AVAX, { context: { ...s.context, networkID: 5 } }), 'tx has wrong network ID')
    await issue(await baseTx(s, s.ewoq, s.dev, AVAX, { context: { ...s.context, xBlockchainID: s.context.cBlockchainID } }), 'tx has wrong chain ID')
    const ghost = new ajs.Utxo(new ajs.avaxSerial.UTXOID(new ajs.Id(new Uint8Array(32).fill(7)), new ajs.Int(0)), utxos[0].assetId, utxos[0].output)
    const unknown = await baseTx(s, s.ewoq, s.dev, AVAX, { utxos: [ghost] })
    await issue(unknown, `failed to verify transfer: failed to get utxo ${firstInput(unknown)}: not found`)

    // A good tx, then another spending the same UTXO, then the good one again.
    const good = await baseTx(s, s.ewoq, s.dev, AVAX, { utxos })
    const spender = await baseTx(s, s.ewoq, s.dev, 2n * AVAX, { utxos })
    await s.avmapi.issueSignedTx(good.getSignedTx())
    await issue(spender, `failed to verify transfer: failed to get utxo ${firstInput(spender)}: not found`)
    await issue(good, `failed to verify transfer: failed to get utxo ${firstInput(good)}: not found`)
    // A refusal is remembered: the same bytes get it again.
    await issue(forged, `failed to verify transfer: wrong signature: expected signature from ${cb58Encode(s.ewoq.bytes)} but got from ${cb58Encode(s.dev.bytes)}`)

    const bytes = good.getSignedTx().toBytes()
    const before = state()
    await refused(s.url, X, 'avm.issueTx', { tx: ajs.utils.bufferToHex(bytes) }, 'problem decoding transaction: invalid input checksum')
    await refused(s.url, X, 'avm.issueTx', { tx: txHex(bytes).slice(2) }, 'problem decoding transaction: missing 0x prefix to hex encoding')
    await refused(s.url, X, 'avm.issueTx', { tx: '0xzz' }, "problem decoding transaction: encoding/hex: invalid byte: U+007A 'z'")
    expect(state()).toBe(before)
    expect((await rpc(s.url, X, 'avm.getTxStatus', { txID: idToString(sha256(forged.getSignedTx().toBytes())) })).result).toEqual({ status: 'Unknown' })
  })
})
