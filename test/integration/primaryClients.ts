/**
 * Helpers for driving the primary network over HTTP with the clients users run: avalanchejs 5.2.0
 * (its typings do not resolve under NodeNext, so it is used untyped, checked at runtime), plain
 * `fetch` for the node's JSON-RPC, and the network object only to read state before and after.
 */
import * as avalanchejs from '@avalabs/avalanchejs'
import { afterEach, expect } from 'vitest'
import type { Network } from '../../src/network/network.js'
import { startTestDevnet, type TestDevnet } from '../api/node/helpers.js'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const ajs: any = avalanchejs

/** ewoq, the key `genesis_local.json` funds (its X-chain allocation is in every local network). */
export const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027'

/** A secp256k1 key and the addresses it controls on every chain, as avalanchejs derives them. */
export type KeyAddresses = { key: Uint8Array; bytes: Uint8Array; x: string; p: string; c: string; eth: `0x${string}` }

export function keyAddresses(privateKey: string, hrp: string): KeyAddresses {
  const key = ajs.utils.hexToBuffer(privateKey)
  const pub = ajs.secp256k1.getPublicKey(key)
  const bytes = ajs.secp256k1.publicKeyBytesToAddress(pub)
  const eth = `0x${Buffer.from(ajs.secp256k1.publicKeyToEthAddress(pub)).toString('hex')}` as `0x${string}`
  return { key, bytes, x: ajs.utils.format('X', hrp, bytes), p: ajs.utils.format('P', hrp, bytes), c: ajs.utils.format('C', hrp, bytes), eth }
}

/** Signed tx bytes as the clients send them: `0x` hex with the 4-byte checksum. */
export const txHex = (bytes: Uint8Array): string => ajs.utils.bufferToHex(ajs.utils.addChecksum(bytes))

let nextId = 1

/** A node JSON-RPC call over HTTP: its result, or its error object. */
export async function rpc(url: string, path: string, method: string, params: unknown = {}): Promise<{ result?: any; error?: { code: number; message: string; data: unknown } }> {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }) })
  expect(res.status).toBe(200)
  return (await res.json()) as { result?: any; error?: { code: number; message: string; data: unknown } }
}

/** A call that must succeed. */
export async function ok(url: string, path: string, method: string, params: unknown = {}): Promise<any> {
  const body = await rpc(url, path, method, params)
  expect(body.error, `${method}: ${JSON.stringify(body.error)}`).toBeUndefined()
  return body.result
}

/** A call that must fail with -32000 and exactly `message`. */
export async function refused(url: string, path: string, method: string, params: unknown, message: string | RegExp): Promise<void> {
  const body = await rpc(url, path, method, params)
  expect(body.error?.code).toBe(-32000)
  if (typeof message === 'string') expect(body.error?.message).toBe(message)
  else expect(body.error?.message).toMatch(message)
}

/** The C-chain balance of an account in wei, by `eth_getBalance`. */
export async function ethBalance(url: string, address: string): Promise<bigint> {
  return BigInt((await ok(url, '/ext/bc/C/rpc', 'eth_getBalance', [address, 'latest'])) as string)
}

/** Everything a refused tx must leave as it was: the X- and P-chain states, shared memory, the C-chain head. */
export function primaryState(network: Network): string {
  const { xchain, pchain, sharedMemory, cAtomic } = network.primary
  return JSON.stringify([xchain.serialize(), pchain.hash(), sharedMemory.serialize(), cAtomic.acceptedTxs().map((t) => t.txId), network.cChain.head.hash])
}

/**
 * Registers the stop of each test's devnet and returns how to start one: one node (`preset`,
 * default local) with avalanchejs' context and its X-, C- and P-chain APIs pointed at it.
 */
export function primaryDevnets() {
  let devnet: TestDevnet | undefined
  afterEach(async () => {
    await devnet?.stop()
    devnet = undefined
  })
  return async (label: string, preset: 'local' | 'fuji' = 'local') => {
    devnet = await startTestDevnet(label, { nodes: 1, preset })
    const { url, network } = devnet
    const context = await ajs.Context.getContextFromURI(url)
    return { devnet, url, network, context, avmapi: new ajs.avm.AVMApi(url), evmapi: new ajs.evm.EVMApi(url), pvmapi: new ajs.pvm.PVMApi(url) }
  }
}
