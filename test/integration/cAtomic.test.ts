/**
 * The C-chain's atomic transactions through avalanchejs 5.2.0 over HTTP, as its examples make
 * them (`evm.newImportTxFromBaseFee`, `evm.newExportTxFromBaseFee`, `addTxSignatures`,
 * `EVMApi.issueSignedTx` to `/ext/bc/C/avax`): each direction (from X, from P, to X, to P) lands
 * in a C-chain block and is read back through `avax.getAtomicTxStatus`, `avax.getAtomicTx`,
 * `avax.getUTXOs`, `eth_getBalance`, the other chain's UTXOs and the data API; the lifecycle
 * (Processing → Accepted, Dropped, mempool conflicts) follows the C-chain's mining; refusals carry
 * coreth's text and change nothing.
 */
import { Glacier } from '@avalabs/glacier-sdk'
import { sha256 } from '@noble/hashes/sha2.js'
import { describe, expect, it } from 'vitest'
import { cb58Encode } from '../../src/core/cb58.js'
import { idToString } from '../../src/core/ids.js'
import { ajs, ethBalance, keyAddresses, ok, primaryDevnets, primaryState, refused, rpc, txHex, type KeyAddresses } from './primaryClients.js'

const AVAX = 1_000_000_000n
const WEI = 1_000_000_000n
const C = '/ext/bc/C/avax'
const EVM = '/ext/bc/C/rpc'

const start = primaryDevnets()

async function setup(label: string) {
  const { url, network, context, avmapi, evmapi } = await start(label)
  const alice = keyAddresses(network.devAccounts[0]!.privateKey, context.hrp)
  const bob = keyAddresses(network.devAccounts[1]!.privateKey, context.hrp)
  // `eth_baseFee` in wei; the examples divide it by 1e9 (nAVAX per gas), which a base fee under
  // 1 gwei turns into 0: a wallet rounds it up, as coreth's fee does (see the refusal below).
  const baseFeeNAvax = async () => ((await evmapi.getBaseFee()) + WEI - 1n) / WEI
  return { url, network, context, avmapi, evmapi, alice, bob, baseFeeNAvax }
}
type Setup = Awaited<ReturnType<typeof setup>>

/** `avm.newExportTx` of `amount` from `from`'s X-chain funds to `to` on the C-chain. */
async function exportXToC(s: Setup, from: KeyAddresses, to: KeyAddresses, amount: bigint): Promise<string> {
  const { utxos } = await s.avmapi.getUTXOs({ addresses: [from.x] })
  const tx = ajs.avm.newExportTx(s.context, s.context.cBlockchainID, [from.bytes], utxos, [ajs.TransferableOutput.fromNative(s.context.avaxAssetID, amount, [to.bytes])])
  await ajs.addTxSignatures({ unsignedTx: tx, privateKeys: [from.key] })
  return (await s.avmapi.issueSignedTx(tx.getSignedTx())).txID
}

/** `evm.newImportTxFromBaseFee` of every UTXO `sourceChain` exported to `who`, into its EVM account. */
async function importTx(s: Setup, who: KeyAddresses, sourceChain: 'X' | 'P', baseFee?: bigint) {
  const { utxos } = await s.evmapi.getUTXOs({ sourceChain, addresses: [who.c] })
  const chainId = sourceChain === 'X' ? s.context.xBlockchainID : s.context.pBlockchainID
  const tx = ajs.evm.newImportTxFromBaseFee(s.context, ajs.utils.hexToBuffer(who.eth), [who.bytes], utxos, chainId, baseFee ?? (await s.baseFeeNAvax()))
  await ajs.addTxSignatures({ unsignedTx: tx, privateKeys: [who.key] })
  return { tx, utxos }
}

/** `evm.newExportTxFromBaseFee` of `amount` nAVAX from `who`'s EVM account to `to` on `destination`. */
async function exportTx(s: Setup, who: KeyAddresses, to: KeyAddresses, destination: string, amount: bigint, options: { nonce?: bigint; signer?: KeyAddresses } = {}) {
  const nonce = options.nonce ?? BigInt(await ok(s.url, EVM, 'eth_getTransactionCount', [who.eth, 'latest']))
  const tx = ajs.evm.newExportTxFromBaseFee(s.context, await s.baseFeeNAvax(), amount, destination, ajs.utils.hexToBuffer(who.eth), [to.bytes], nonce)
  await ajs.addTxSignatures({ unsignedTx: tx, privateKeys: [(options.signer ?? who).key] })
  return tx
}


describe('C-chain atomic transactions from avalanchejs over HTTP', () => {
  it('import from X: the export waits in avax.getUTXOs, the import credits the EVM account in a C-chain block', async () => {
    const s = await setup('c-import-x')
    const exportId = await exportXToC(s, s.alice, s.alice, 20n * AVAX)
    const waiting = await ok(s.url, C, 'avax.getUTXOs', { sourceChain: 'X', addresses: [s.alice.c] })
    expect(waiting).toMatchObject({ numFetched: '1', endIndex: { address: s.alice.c }, encoding: 'hex' })
    const before = await ethBalance(s.url, s.alice.eth)
    const height = BigInt(await ok(s.url, EVM, 'eth_blockNumber', []))

    const { tx } = await importTx(s, s.alice, 'X')
    const signed: Uint8Array = tx.getSignedTx().toBytes()
    const { txID } = await s.evmapi.issueSignedTx(tx.getSignedTx())
    expect(txID).toBe(idToString(sha256(signed)))
    expect(await s.evmapi.getAtomicTxStatus(txID)).toEqual({ status: 'Accepted', blockHeight: String(height + 1n) })
    const read = await s.evmapi.getAtomicTx({ txID })
    expect(read.blockHeight).toBe(height + 1n)
    expect(read.tx.toBytes()).toEqual(signed)
    const out = tx.getTx().Outs[0].amount.value() as bigint
    expect(await ethBalance(s.url, s.alice.eth)).toBe(before + out * WEI)
    expect(out).toBeLessThan(20n * AVAX)
    expect((await ok(s.url, C, 'avax.getUTXOs', { sourceChain: 'X', addresses: [s.alice.c] })).numFetched).toBe('0')
    expect(BigInt(await ok(s.url, EVM, 'eth_blockNumber', []))).toBe(height + 1n)

    const glacier = new Glacier({ BASE: s.url })
    const xSide = await glacier.primaryNetworkTransactions.listLatestPrimaryNetworkTransactions({ blockchainId: 'x-chain' as never, network: 'local' as never, addresses: s.alice.x })
    expect(xSide.transactions.find((t: { txHash: string }) => t.txHash === exportId)).toMatchObject({ destinationChain: s.context.cBlockchainID })
    const cSide = await glacier.primaryNetworkTransactions.listLatestPrimaryNetworkTransactions({ blockchainId: 'c-chain' as never, network: 'local' as never, addresses: s.alice.x.slice(2) })
    expect(cSide.transactions.find((t: { txHash: string }) => t.txHash === txID)).toMatchObject({
      txType: 'ImportTx', blockHeight: Number(height + 1n), sourceChain: s.context.xBlockchainID, destinationChain: s.context.cBlockchainID,
      evmOutputs: [{ toAddress: s.alice.eth.toLowerCase(), asset: { amount: String(out) } }], consumedUtxos: [{ creationTxHash: exportId }],
    })
  })

  it('import from P: what the P-chain exported to the C-chain', async () => {
    const s = await setup('c-import-p')
    s.network.wallets(1)!.p.exportTo(s.context.cBlockchainID, { to: s.bob.bytes, amount: 6n * AVAX })
    const before = await ethBalance(s.url, s.bob.eth)
    const { tx } = await importTx(s, s.bob, 'P')
    const { txID } = await s.evmapi.issueSignedTx(tx.getSignedTx())
    expect((await s.evmapi.getAtomicTxStatus(txID)).status).toBe('Accepted')
    expect(await ethBalance(s.url, s.bob.eth)).toBe(before + (tx.getTx().Outs[0].amount.value() as bigint) * WEI)
    expect((await ok(s.url, C, 'avax.getUTXOs', { sourceChain: 'P', addresses: [s.bob.c] })).numFetched).toBe('0')
  })

  it('export to X: debits the EVM account and its nonce, then avm.newImportTx takes the UTXO', async () => {
    const s = await setup('c-export-x')
    const before = await ethBalance(s.url, s.alice.eth)
    const nonce = BigInt(await ok(s.url, EVM, 'eth_getTransactionCount', [s.alice.eth, 'latest']))
    const tx = await exportTx(s, s.alice, s.bob, s.context.xBlockchainID, 9n * AVAX)
    const { txID } = await s.evmapi.issueSignedTx(tx.getSignedTx())
    expect((await s.evmapi.getAtomicTxStatus(txID)).status).toBe('Accepted')
    const spent = tx.getTx().ins[0].amount.value() as bigint
    expect(spent).toBeGreaterThan(9n * AVAX)
    expect(await ethBalance(s.url, s.alice.eth)).toBe(before - spent * WEI)
    expect(BigInt(await ok(s.url, EVM, 'eth_getTransactionCount', [s.alice.eth, 'latest']))).toBe(nonce + 1n)

    const xBefore = BigInt((await s.avmapi.getBalance({ address: s.bob.x, assetID: 'AVAX' })).balance)
    const { utxos } = await s.avmapi.getUTXOs({ sourceChain: 'C', addresses: [s.bob.x] })
    expect(utxos.map((u: any) => u.utxoId.txID.toString())).toEqual([txID])
    const imp = ajs.avm.newImportTx(s.context, s.context.cBlockchainID, utxos, [s.bob.bytes], [s.bob.bytes])
    await ajs.addTxSignatures({ unsignedTx: imp, privateKeys: [s.bob.key] })
    const { txID: importId } = await s.avmapi.issueSignedTx(imp.getSignedTx())
    expect(await s.avmapi.getTxStatus({ txID: importId })).toEqual({ status: 'Accepted' })
    expect(BigInt((await s.avmapi.getBalance({ address: s.bob.x, assetID: 'AVAX' })).balance)).toBe(xBefore + 9n * AVAX - s.context.baseTxFee)
  })

  it('export to P: the UTXO waits for the P-chain in platform.getUTXOs {sourceChain: "C"}', async () => {
    const s = await setup('c-export-p')
    const tx = await exportTx(s, s.alice, s.bob, s.context.pBlockchainID, 3n * AVAX)
    const { txID } = await s.evmapi.issueSignedTx(tx.getSignedTx())
    expect((await s.evmapi.getAtomicTxStatus(txID)).status).toBe('Accepted')
    const atomic = await ok(s.url, '/ext/bc/P', 'platform.getUTXOs', { addresses: [s.bob.p], sourceChain: 'C' })
    expect(atomic.numFetched).toBe('1')
    const utxo = new ajs.pvm.PVMApi(s.url).manager.unpack(ajs.utils.hexToBuffer(atomic.utxos[0]).slice(0, -4), ajs.Utxo)
    expect(utxo.utxoId.txID.toString()).toBe(txID)
    expect(utxo.output.amount()).toBe(3n * AVAX)
  })
})

describe('avax.getUTXOs', () => {
  it('pages the atomic UTXOs a chain exported, and refuses bad arguments with coreth\'s text', async () => {
    const s = await setup('c-utxos')
    for (const amount of [1n, 2n, 3n]) await exportXToC(s, s.alice, s.alice, amount * AVAX)
    const all = await ok(s.url, C, 'avax.getUTXOs', { sourceChain: 'X', addresses: [s.alice.c] })
    expect(all.numFetched).toBe('3')
    const first = await ok(s.url, C, 'avax.getUTXOs', { sourceChain: s.context.xBlockchainID, addresses: [s.alice.c], limit: 2 })
    const rest = await ok(s.url, C, 'avax.getUTXOs', { sourceChain: 'X', addresses: [s.alice.c], limit: 2, startIndex: first.endIndex })
    expect([...first.utxos, ...rest.utxos.filter((u: string) => !first.utxos.includes(u))].sort()).toEqual([...all.utxos].sort())
    expect(await ok(s.url, C, 'avax.getUTXOs', { sourceChain: 'P', addresses: [s.alice.c] })).toEqual({
      numFetched: '0', utxos: [], endIndex: { address: s.alice.c, utxo: '11111111111111111111111111111111LpoYY' }, encoding: 'hex',
    })
    await refused(s.url, C, 'avax.getUTXOs', { addresses: [s.alice.c] }, 'no source chain provided')
    await refused(s.url, C, 'avax.getUTXOs', { sourceChain: 'X', addresses: [] }, 'no addresses provided')
    await refused(s.url, C, 'avax.getUTXOs', { sourceChain: 'Q', addresses: [s.alice.c] }, 'problem parsing source chainID "Q": there is no ID with alias: Q')
    await refused(s.url, C, 'avax.getUTXOs', { sourceChain: 'X', addresses: [s.alice.x] },
      `couldn't parse address "${s.alice.x}": expected chainID to be "${s.context.cBlockchainID}" but was "${s.context.xBlockchainID}"`)
    await refused(s.url, C, 'avax.getUTXOs', { sourceChain: 'X', addresses: [s.alice.c], encoding: 'json' }, 'problem encoding utxo: unsupported encoding in method')
  })
})

describe('the atomic mempool follows the C-chain\'s mining', () => {
  it('manual mining: Processing until evm_mine, Dropped when the block refuses it, conflicts by gas price', async () => {
    const s = await setup('c-lifecycle')
    await ok(s.url, EVM, 'evm_setAutomine', [false])
    await exportXToC(s, s.alice, s.alice, 20n * AVAX)
    const before = await ethBalance(s.url, s.alice.eth)
    const height = BigInt(await ok(s.url, EVM, 'eth_blockNumber', []))

    // Two imports of the same UTXO: the dearer one replaces the cheaper, which is Dropped.
    const cheap = (await importTx(s, s.alice, 'X', 1n)).tx
    const dear = (await importTx(s, s.alice, 'X', 3n)).tx
    const { txID: cheapId } = await s.evmapi.issueSignedTx(cheap.getSignedTx())
    expect(await s.evmapi.getAtomicTxStatus(cheapId)).toEqual({ status: 'Processing' })
    expect((await s.evmapi.getAtomicTx({ txID: cheapId })).blockHeight).toBeUndefined()
    const { txID: dearId } = await s.evmapi.issueSignedTx(dear.getSignedTx())
    expect((await s.evmapi.getAtomicTxStatus(cheapId)).status).toBe('Dropped')
    // Issuing it again is refused while the dearer one waits.
    const price = (tx: any): bigint => (BigInt(tx.getTx().importedInputs[0].amount() - tx.getTx().Outs[0].amount.value()) * WEI) / BigInt(ajs.utils.costCorethTx(tx))
    await refused(s.url, C, 'avax.issueTx', { tx: txHex(cheap.getSignedTx().toBytes()) },
      `conflict present: issued tx (${cheapId}) gas price ${price(cheap)} <= conflict tx (${dearId}) gas price ${price(dear)} (1 total conflicts in mempool)`)
    // Issued again while it waits: taken as issued.
    expect(await ok(s.url, C, 'avax.issueTx', { tx: txHex(dear.getSignedTx().toBytes()) })).toEqual({ txID: dearId })
    expect(await ethBalance(s.url, s.alice.eth)).toBe(before)
    expect(BigInt(await ok(s.url, EVM, 'eth_blockNumber', []))).toBe(height)

    await ok(s.url, EVM, 'evm_mine', [])
    expect(await s.evmapi.getAtomicTxStatus(dearId)).toEqual({ status: 'Accepted', blockHeight: String(height + 1n) })
    expect(await ethBalance(s.url, s.alice.eth)).toBe(before + (dear.getTx().Outs[0].amount.value() as bigint) * WEI)

    // An export waits; an EVM transfer in the same block spends the funds first: the block drops it.
    const balance = await ethBalance(s.url, s.bob.eth)
    const exp = await exportTx(s, s.bob, s.bob, s.context.xBlockchainID, balance / WEI - 1n * AVAX)
    const { txID: expId } = await s.evmapi.issueSignedTx(exp.getSignedTx())
    expect((await s.evmapi.getAtomicTxStatus(expId)).status).toBe('Processing')
    await ok(s.url, EVM, 'eth_sendTransaction', [{ from: s.bob.eth, to: s.alice.eth, value: `0x${(balance / 2n).toString(16)}`, gas: '0x5208' }])
    await ok(s.url, EVM, 'evm_mine', [])
    expect(await s.evmapi.getAtomicTxStatus(expId)).toEqual({ status: 'Dropped' })
    expect((await ok(s.url, '/ext/bc/X', 'avm.getUTXOs', { sourceChain: 'C', addresses: [s.bob.x] })).numFetched).toBe('0')
  })

  it('sim.transfer goes through the same mempool: under manual mining it builds its C-chain block and completes', async () => {
    const s = await setup('c-sim-transfer')
    await ok(s.url, EVM, 'evm_setAutomine', [false])
    const height = BigInt(await ok(s.url, EVM, 'eth_blockNumber', []))
    const { exportTxID, importTxID } = await ok(s.url, '/ext/sim', 'sim.transfer', { from: 'C', to: 'X', amount: Number(2n * AVAX) })
    expect(await s.evmapi.getAtomicTxStatus(exportTxID)).toEqual({ status: 'Accepted', blockHeight: String(height + 1n) })
    expect(await s.avmapi.getTxStatus({ txID: importTxID })).toEqual({ status: 'Accepted' })
    const back = await ok(s.url, '/ext/sim', 'sim.transfer', { from: 'X', to: 'C', amount: Number(AVAX) })
    expect(await s.evmapi.getAtomicTxStatus(back.importTxID)).toEqual({ status: 'Accepted', blockHeight: String(height + 2n) })
    // The same tx issued again through avax.issueTx meets the same mempool and rules.
    const bytes = (await s.evmapi.getAtomicTx({ txID: back.importTxID })).tx.toBytes()
    await refused(s.url, C, 'avax.issueTx', { tx: txHex(bytes) }, `failed to fetch import UTXOs from ${s.context.xBlockchainID} due to: not found`)
  })
})

describe('C-chain atomic refusals: coreth\'s text, nothing changed', () => {
  it('wrong signatures, insufficient funds, wrong network and chain ids, unknown UTXOs, a stale nonce, undecodable bytes', async () => {
    const s = await setup('c-refusals')
    await exportXToC(s, s.alice, s.alice, 20n * AVAX)
    const check = async (tx: any, message: string) => {
      const before = primaryState(s.network)
      const balances = [await ethBalance(s.url, s.alice.eth), await ethBalance(s.url, s.bob.eth)]
      await refused(s.url, C, 'avax.issueTx', { tx: txHex(tx.getSignedTx().toBytes()) }, message)
      expect(primaryState(s.network)).toBe(before)
      expect([await ethBalance(s.url, s.alice.eth), await ethBalance(s.url, s.bob.eth)]).toEqual(balances)
      expect((await s.evmapi.getAtomicTxStatus(idToString(sha256(tx.getSignedTx().toBytes())))).status).toBe('Unknown')
    }
    const { utxos } = await s.evmapi.getUTXOs({ sourceChain: 'X', addresses: [s.alice.c] })
    const build = (context: any, baseFee = 1n, chain = s.context.xBlockchainID, from = utxos) =>
      ajs.evm.newImportTxFromBaseFee(context, ajs.utils.hexToBuffer(s.alice.eth), [s.alice.bytes], from, chain, baseFee)

    // The example's `baseFee / 1e9` at a base fee under 1 gwei: no fee at all.
    const free = build(s.context, (await s.evmapi.getBaseFee()) / WEI)
    await ajs.addTxSignatures({ unsignedTx: free, privateKeys: [s.alice.key] })
    await check(free, 'import tx flow check failed due to: insufficient funds')

    const unsigned = build(s.context)
    const bobSig = new ajs.Signature(await ajs.secp256k1.sign(unsigned.toBytes(), s.bob.key))
    await check({ getSignedTx: () => new ajs.avaxSerial.SignedTx(unsigned.getTx(), [new ajs.Credential([bobSig])]) },
      `import tx transfer failed verification: wrong signature: expected signature from ${cb58Encode(s.alice.bytes)} but got from ${cb58Encode(s.bob.bytes)}`)
    const wrongNetwork = build({ ...s.context, networkID: 5 })
    await ajs.addTxSignatures({ unsignedTx: wrongNetwork, privateKeys: [s.alice.key] })
    await check(wrongNetwork, 'tx was issued with a different network ID')
    const wrongChain = build({ ...s.context, cBlockchainID: s.context.xBlockchainID })
    await ajs.addTxSignatures({ unsignedTx: wrongChain, privateKeys: [s.alice.key] })
    await check(wrongChain, 'tx has wrong chain ID')
    const fromP = build(s.context, 1n, s.context.pBlockchainID)
    await ajs.addTxSignatures({ unsignedTx: fromP, privateKeys: [s.alice.key] })
    await check(fromP, `failed to fetch import UTXOs from ${s.context.pBlockchainID} due to: not found`)

    const stolen = await exportTx(s, s.alice, s.bob, s.context.xBlockchainID, AVAX, { signer: s.bob })
    const aliceSig = new ajs.Signature(await ajs.secp256k1.sign(stolen.toBytes(), s.bob.key))
    await check({ getSignedTx: () => new ajs.avaxSerial.SignedTx(stolen.getTx(), [new ajs.Credential([aliceSig])]) }, "signature doesn't match public key")
    const balance = await ethBalance(s.url, s.alice.eth)
    await check(await exportTx(s, s.alice, s.bob, s.context.xBlockchainID, balance / WEI), 'insufficient funds')
    await check(await exportTx(s, s.alice, s.bob, s.context.xBlockchainID, AVAX, { nonce: 7n }), 'invalid nonce')

    const good = (await importTx(s, s.alice, 'X')).tx
    const bytes = good.getSignedTx().toBytes()
    const before = primaryState(s.network)
    await refused(s.url, C, 'avax.issueTx', { tx: ajs.utils.bufferToHex(bytes) }, 'problem decoding transaction: invalid input checksum')
    await refused(s.url, C, 'avax.issueTx', { tx: txHex(Uint8Array.of(0, 0, 0, 0, 0, 3)) }, "problem parsing transaction: couldn't unmarshal interface: unknown type ID 3")
    expect(primaryState(s.network)).toBe(before)
    // The good one still goes through; then issued again, its UTXO is gone.
    const { txID } = await s.evmapi.issueSignedTx(good.getSignedTx())
    expect((await s.evmapi.getAtomicTxStatus(txID)).status).toBe('Accepted')
    await refused(s.url, C, 'avax.issueTx', { tx: txHex(bytes) }, `failed to fetch import UTXOs from ${s.context.xBlockchainID} due to: not found`)
    expect((await rpc(s.url, C, 'avax.getAtomicTx', { txID: idToString(sha256(Uint8Array.of(1))) })).error?.message).toBe(`could not find tx ${idToString(sha256(Uint8Array.of(1)))}`)
  })
})
