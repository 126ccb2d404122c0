/**
 * P-chain transactions from @avalabs/avalanchejs 5.2.0 as its own examples write them
 * (examples/p-chain/*.ts: `Context.getContextFromURI`, `PVMApi.getFeeState`, `getUTXOs`,
 * `pvm.newXxxTx`, `addTxSignatures`, `issueSignedTx`), against a devnet over HTTP, and the reads a
 * test checks them with: the node's P-chain API and the data API (@avalabs/glacier-sdk).
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { expect } from 'vitest'
import { Glacier, type Network as GlacierNetwork } from '@avalabs/glacier-sdk'
import { ajs } from '../../platform/fixtures/ajs.js'
import { call } from './helpers.js'

/* eslint-disable @typescript-eslint/no-explicit-any */
export const { Context, pvm, utils, secp256k1, addTxSignatures, TransferableOutput, L1Validator, PChainOwner, pvmSerial, networkIDs } = ajs

export const AVAX = 1_000_000_000n
export const LOCAL = 'local' as GlacierNetwork

/** A key holder driving the P-chain through avalanchejs: its context, API and addresses. */
export type PClient = {
  url: string
  context: any
  pvmApi: any
  key: Uint8Array
  /** The 20-byte address of the key. */
  addr: Uint8Array
  /** `P-local1…`. */
  pAddr: string
}

/** `setupEtnaExample` plus the key's addresses. */
export async function pClient(url: string, privateKey: string): Promise<PClient> {
  const context = await Context.getContextFromURI(url)
  const pvmApi = new pvm.PVMApi(url)
  const key = utils.hexToBuffer(privateKey)
  const addr = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(key))
  return { url, context, pvmApi, key, addr, pAddr: utils.format('P', context.hrp, addr) }
}

/** What every example passes first: the fee state, the key's address and its UTXOs (`getUTXOs`). */
export async function common(c: PClient, options: { sourceChain?: string; fromAddressesBytes?: Uint8Array[] } = {}) {
  const feeState = await c.pvmApi.getFeeState()
  const { utxos } = await c.pvmApi.getUTXOs({ addresses: [c.pAddr], ...(options.sourceChain ? { sourceChain: options.sourceChain } : {}) })
  return { feeState, fromAddressesBytes: options.fromAddressesBytes ?? [c.addr], utxos }
}

/** `addTxSignatures` with the client's key (and `more` keys) and `issueSignedTx`; returns the tx id the node answered. */
export async function signAndIssue(c: PClient, unsignedTx: any, more: Uint8Array[] = []): Promise<string> {
  await addTxSignatures({ unsignedTx, privateKeys: [c.key, ...more] })
  const { txID } = await c.pvmApi.issueSignedTx(unsignedTx.getSignedTx())
  return txID
}

/** nAVAX the tx burned besides what it moved or staked (its fee; validator balances excluded), as avalanchejs counts it. */
export const burned = (unsignedTx: any, context: { avaxAssetID: string }): bigint => utils.getBurnedAmountByTx(unsignedTx.getTx(), context).get(context.avaxAssetID) ?? 0n

/**
 * examples/p-chain/utils/addSignatureToAllCred.ts, as its createChain example signs a tx with a
 * subnet authorization (addTxSignatures only signs the inputs it knows the owners of): the key's
 * signature at index 0 of every credential.
 */
export async function signAll(c: PClient, unsignedTx: any): Promise<void> {
  const unsignedBytes = unsignedTx.toBytes()
  expect(unsignedTx.hasPubkey(secp256k1.getPublicKey(c.key))).toBe(true)
  const signature = await secp256k1.sign(unsignedBytes, c.key)
  for (let i = 0; i < unsignedTx.getCredentials().length; i++) unsignedTx.addSignatureAt(signature, i, 0)
}

/** {@link signAll}, then `issueSignedTx`. */
export async function signAllAndIssue(c: PClient, unsignedTx: any): Promise<string> {
  await signAll(c, unsignedTx)
  const { txID } = await c.pvmApi.issueSignedTx(unsignedTx.getSignedTx())
  return txID
}

/** The id of a signed tx: cb58 of sha256 of its bytes. */
export const txIdOf = (unsignedTx: any): string => utils.base58check.encode(sha256(unsignedTx.getSignedTx().toBytes()))

/** The hex (with checksum) of a signed tx, as `platform.getTx` gives it back. */
export const signedHex = (unsignedTx: any): string => utils.bufferToHex(utils.addChecksum(unsignedTx.getSignedTx().toBytes()))

/** A `platform.*` call that must succeed. */
export async function platform(url: string, method: string, params: Record<string, unknown> = {}): Promise<any> {
  const res = await call(url, '/ext/bc/P', `platform.${method}`, params)
  expect(res.json.error, `platform.${method}: ${res.body}`).toBeUndefined()
  return res.json.result
}

/** `platform.getBalance` of the client's address, unlocked nAVAX. */
export async function unlocked(c: PClient): Promise<bigint> {
  return BigInt((await platform(c.url, 'getBalance', { addresses: [c.pAddr] })).unlocked)
}

/**
 * The read-back every accepted tx gets: `Committed`, `getTx` gives back the bytes issued, as JSON
 * its type, and the data API lists it (op 15) among the address' P-chain transactions.
 */
export async function expectAccepted(c: PClient, txId: string, unsignedTx: any, txType: string, glacier: Glacier): Promise<any> {
  expect(await platform(c.url, 'getTxStatus', { txID: txId })).toEqual({ status: 'Committed' })
  expect((await platform(c.url, 'getTx', { txID: txId, encoding: 'hex' })).tx).toBe(signedHex(unsignedTx))
  expect(txId).toBe(txIdOf(unsignedTx))
  const json = (await platform(c.url, 'getTx', { txID: txId, encoding: 'json' })).tx
  const { transactions } = (await glacier.primaryNetworkTransactions.listLatestPrimaryNetworkTransactions({ blockchainId: 'p-chain' as never, network: LOCAL, addresses: c.pAddr, pageSize: 100 })) as any
  const listed = transactions.find((t: any) => t.txHash === txId)
  expect(listed, `${txType} ${txId} in the data API`).toBeDefined()
  expect(listed.txType).toBe(txType)
  return { json, listed }
}

/** The data API client on a devnet (no API key: the devnet's data API is open). */
export const glacierOf = (url: string) => new Glacier({ BASE: url })

/** The data API's P-chain UTXOs of an address (op 14), unspent ones. */
export async function dataUtxos(glacier: Glacier, pAddr: string): Promise<any[]> {
  const res = await glacier.request.request<any>({
    method: 'POST', url: '/v1/networks/{network}/blockchains/{blockchainId}/utxos',
    path: { network: 'local', blockchainId: 'p-chain' }, query: { pageSize: 100 }, body: { addresses: pAddr }, mediaType: 'application/json',
  })
  return res.utxos
}

/** `platform.getUTXOs` of the client's address as `txID:index` ids. */
export async function utxoIds(c: PClient): Promise<string[]> {
  const { utxos } = await c.pvmApi.getUTXOs({ addresses: [c.pAddr] })
  return utxos.map((u: any) => `${u.utxoId.txID.toString()}:${u.utxoId.outputIdx.value()}`).sort()
}

/** Asserts the op-14 unspent UTXOs of the client are what `platform.getBalance` counts. */
export async function expectDataUtxosMatch(c: PClient, glacier: Glacier): Promise<void> {
  const balance = await platform(c.url, 'getBalance', { addresses: [c.pAddr] })
  const live = (await dataUtxos(glacier, c.pAddr)).filter((u) => !u.staked)
  expect(live.map((u) => `${u.txHash}:${u.outputIndex}`).sort()).toEqual(balance.utxoIDs.map((u: any) => `${u.txID}:${u.outputIndex}`).sort())
  expect(live.reduce((s, u) => s + BigInt(u.amount), 0n)).toBe(BigInt(balance.balance))
}
