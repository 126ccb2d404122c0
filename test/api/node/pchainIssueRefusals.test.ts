/**
 * What platform.issueTx refuses, with avalanchego 1.14.2's exact text (`couldn't issue tx: failed
 * verification: failed execution: standard tx <id> failed execution: …` and the rest), each tx
 * built by @avalabs/avalanchejs as a user's code would build it, going wrong the way such code
 * goes wrong; a refusal changes no balance, UTXO or height, and getTxStatus reports it Dropped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cb58Encode } from '../../../src/core/cb58.js'
import { ajs, blsFixture, bytes20, bytes32 } from '../../platform/fixtures/ajs.js'
import { call, result, startTestDevnet, type TestDevnet } from './helpers.js'
import { AVAX, TransferableOutput, burned, common, networkIDs, pClient, platform, pvm, secp256k1, signedHex, signAll, signAndIssue, txIdOf, utils, utxoIds, type PClient } from './pchain.js'

let devnet: TestDevnet
beforeAll(async () => {
  devnet = await startTestDevnet('p-issue-refusals', { nodes: 1 })
})
afterAll(async () => {
  await devnet.stop()
})

const key = (account: number) => devnet.network.devAccounts[account]!.privateKey
const standard = (txId: string, inner: string) => `failed execution: standard tx ${txId} failed execution: ${inner}`

/** What a refusal must leave alone: the client's balance and UTXOs, the P-chain height, the whole state. */
async function observe(c: PClient) {
  return { balance: await platform(c.url, 'getBalance', { addresses: [c.pAddr] }), utxos: await utxoIds(c), height: await platform(c.url, 'getHeight'), state: devnet.network.primary.pchain.hash() }
}

/** Issues the signed tx; expects the node's -32000 with exactly `message`, nothing changed, and the tx Dropped with `reason`. */
async function expectRefused(c: PClient, unsignedTx: any, message: string, reason?: string) {
  const before = await observe(c)
  const res = await call(c.url, '/ext/bc/P', 'platform.issueTx', { tx: signedHex(unsignedTx), encoding: 'hex' })
  expect(res.json.error).toEqual({ code: -32000, message, data: null })
  expect(await observe(c)).toEqual(before)
  if (reason !== undefined) expect(await platform(c.url, 'getTxStatus', { txID: txIdOf(unsignedTx) })).toEqual({ status: 'Dropped', reason })
}

const send = async (c: PClient, to: Uint8Array, amount: bigint, options: { context?: any; utxos?: unknown[]; feeState?: any } = {}) => {
  const base = await common(c)
  return pvm.newBaseTx({ ...base, ...(options.utxos ? { utxos: options.utxos } : {}), ...(options.feeState ? { feeState: options.feeState } : {}), outputs: [TransferableOutput.fromNative(c.context.avaxAssetID, amount, [to])] }, options.context ?? c.context)
}

describe('platform.issueTx refusals', () => {
  it('a credential signed by the wrong key: wrong signature, naming both addresses', async () => {
    const c = await pClient(devnet.url, key(1))
    const other = utils.hexToBuffer(key(2))
    const tx = await send(c, c.addr, AVAX)
    tx.addSignatureAt(await secp256k1.sign(tx.toBytes(), other), 0, 0)
    const inner = `failed to verify transfer: wrong signature: expected signature from ${cb58Encode(c.addr)} but got from ${cb58Encode(secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(other)))}`
    await expectRefused(c, tx, `couldn't issue tx: failed verification: ${standard(txIdOf(tx), inner)}`, standard(txIdOf(tx), inner))
    // Issued again, the same bytes get the reason recorded when they were dropped, unverified.
    const again = await call(c.url, '/ext/bc/P', 'platform.issueTx', { tx: signedHex(tx) })
    expect(again.json.error?.message).toBe(`couldn't issue tx: ${standard(txIdOf(tx), inner)}`)
  })

  it('a fee priced from a stale fee state: insufficient unlocked funds, needing the fee', async () => {
    const c = await pClient(devnet.url, key(3))
    const feeState = await c.pvmApi.getFeeState()
    const tx = await send(c, c.addr, AVAX, { feeState: { ...feeState, price: 0n } })
    await addSigs(c, tx)
    // The fee the same tx pays at the current price (same inputs and outputs, same gas).
    const fee = burned(await send(c, c.addr, AVAX), c.context)
    expect(fee).toBeGreaterThan(0n)
    await expectRefused(c, tx, `couldn't issue tx: failed verification: ${standard(txIdOf(tx), `insufficient unlocked funds: needs ${fee} more ${c.context.avaxAssetID}`)}`)
  })

  it('the wrong network id, the wrong blockchain id: the syntactic check of the base tx', async () => {
    const c = await pClient(devnet.url, key(4))
    const wrongNetwork = await send(c, c.addr, AVAX, { context: { ...c.context, networkID: 5 } })
    await addSigs(c, wrongNetwork)
    await expectRefused(c, wrongNetwork, `couldn't issue tx: failed verification: ${standard(txIdOf(wrongNetwork), 'metadata failed verification: tx has wrong network ID')}`)
    const wrongChain = await send(c, c.addr, AVAX, { context: { ...c.context, pBlockchainID: c.context.xBlockchainID } })
    await addSigs(c, wrongChain)
    await expectRefused(c, wrongChain, `couldn't issue tx: failed verification: ${standard(txIdOf(wrongChain), 'metadata failed verification: tx has wrong chain ID')}`)
  })

  it('a UTXO that never existed, one already spent, a tx already accepted: failed to read consumed UTXO', async () => {
    const c = await pClient(devnet.url, key(5))
    const { utxos } = await common(c)
    // A UTXO the node never had (a wallet's made-up or other-network entry).
    const ghost = new ajs.Utxo(new ajs.avaxSerial.UTXOID(new ajs.Id(bytes32('ghost-utxo')), new ajs.Int(0)), new ajs.Id(utils.base58check.decode(c.context.avaxAssetID)), utxos[0].output)
    const unknown = await send(c, c.addr, AVAX, { utxos: [ghost] })
    await addSigs(c, unknown)
    await expectRefused(c, unknown, `couldn't issue tx: failed verification: ${standard(txIdOf(unknown), `failed to read consumed UTXO ${utils.base58check.encode(bytes32('ghost-utxo'))}:0 due to: not found`)}`)
    // Two txs built from the same getUTXOs answer: the second spends what the first spent.
    const first = await send(c, c.addr, AVAX, { utxos })
    const second = await send(c, c.addr, 2n * AVAX, { utxos })
    const spent = `${utxos[0].utxoId.txID.toString()}:${utxos[0].utxoId.outputIdx.value()}`
    await signAndIssue(c, first)
    await addSigs(c, second)
    await expectRefused(c, second, `couldn't issue tx: failed verification: ${standard(txIdOf(second), `failed to read consumed UTXO ${spent} due to: not found`)}`)
    // The accepted tx issued again: its inputs are spent (the node has no accepted-tx check of its own).
    await expectRefused(c, first, `couldn't issue tx: failed verification: ${standard(txIdOf(first), `failed to read consumed UTXO ${spent} due to: not found`)}`)
    expect(await platform(c.url, 'getTxStatus', { txID: txIdOf(first) })).toEqual({ status: 'Committed' })
  })

  it('what the executor refuses besides: a staking period too short, a subnet authorized by a key that does not own it', async () => {
    const c = await pClient(devnet.url, key(6))
    const start = BigInt(devnet.network.primary.pchain.timestamp)
    const bls = blsFixture('refused-validator')
    const short = pvm.newAddPermissionlessValidatorTx({
      ...(await common(c)), end: start + 3600n, delegatorRewardsOwner: [c.addr], nodeId: `NodeID-${utils.base58check.encode(bytes20('refused-validator'))}`, publicKey: bls.publicKey,
      rewardAddresses: [c.addr], shares: 20 * 1e4, signature: bls.signature, start, subnetId: networkIDs.PrimaryNetworkID.toString(), weight: 2_000n * AVAX,
    }, c.context)
    await addSigs(c, short)
    await expectRefused(c, short, `couldn't issue tx: failed verification: ${standard(txIdOf(short), 'staking period is too short')}`)

    const owner = await pClient(devnet.url, key(7))
    const subnetId = await signAndIssue(owner, pvm.newCreateSubnetTx({ ...(await common(owner)), subnetOwners: [owner.addr] }, owner.context))
    const chain = pvm.newCreateChainTx({ ...(await common(c)), chainName: 'notmine', subnetAuth: [0], subnetId, vmId: 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy', fxIds: [], genesisData: {} }, c.context)
    await signAll(c, chain)
    const inner = `unauthorized modification: wrong signature: expected signature from ${cb58Encode(owner.addr)} but got from ${cb58Encode(c.addr)}`
    await expectRefused(c, chain, `couldn't issue tx: failed verification: ${standard(txIdOf(chain), inner)}`, standard(txIdOf(chain), inner))
  })

  it('bytes that are not a tx: the encoding and the codec refusals', async () => {
    const c = await pClient(devnet.url, key(8))
    const tx = await send(c, c.addr, AVAX)
    await addSigs(c, tx)
    const good = signedHex(tx)
    const cases: [Record<string, unknown>, string][] = [
      [{ tx: good.slice(2) }, 'problem decoding transaction: missing 0x prefix to hex encoding'],
      [{ tx: `${good.slice(0, -2)}00` }, 'problem decoding transaction: invalid input checksum'],
      [{ tx: `${good}g` }, "problem decoding transaction: encoding/hex: invalid byte: U+0067 'g'"],
      [{ tx: `${good}0` }, 'problem decoding transaction: encoding/hex: odd length hex string'],
      [{ tx: '0x00' }, 'problem decoding transaction: input string is smaller than the checksum size'],
      [{ tx: good, encoding: 'hexnc' }, `couldn't parse tx: trailing buffer space: read ${(good.length - 2) / 2 - 4} provided ${(good.length - 2) / 2}`],
      [{ tx: good, encoding: 'json' }, 'problem decoding transaction: unsupported encoding in method'],
      [{ tx: '' }, "couldn't parse tx: couldn't unpack codec version"],
    ]
    for (const [params, message] of cases) await expect(call(c.url, '/ext/bc/P', 'platform.issueTx', params).then((r) => r.json.error)).resolves.toEqual({ code: -32000, message, data: null })
    expect(await result(c.url, '/ext/bc/P', 'platform.issueTx', { tx: good })).toEqual({ txID: txIdOf(tx) })
  })
})

async function addSigs(c: PClient, tx: any) {
  await ajs.addTxSignatures({ unsignedTx: tx, privateKeys: [c.key] })
}
