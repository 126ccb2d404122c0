import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Hex } from '../../src/core/hex.js'
import type { EvmChain } from '../../src/evm/chain.js'
import type { Network } from '../../src/network/network.js'
import { createEIP1193Provider } from '../../src/rpc/provider.js'

/** A directory of this test file's own under test/.tmp, emptied first; remove it with `cleanup`. */
export function tempDir(name: string): { dir: string; cleanup(): void } {
  const dir = join(fileURLToPath(new URL('../.tmp/', import.meta.url)), `snapshot-${name}`)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

/** Sends a value transfer signed by dev account `from` on `chain` (automine) and returns the block hash it landed in. */
export async function transfer(network: Network, chain: EvmChain, from: number, to: Hex, value: bigint): Promise<Hex> {
  const provider = createEIP1193Provider({ network, chain })
  const hash = (await provider.request({ method: 'eth_sendTransaction', params: [{ from: network.devAccounts[from]!.address, to, value: `0x${value.toString(16)}` }] })) as Hex
  const receipt = (await provider.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { blockHash: Hex }
  return receipt.blockHash
}

/** Deploys contract bytecode from dev account `from`; returns the contract's address. */
export async function deploy(network: Network, chain: EvmChain, from: number, data: Hex): Promise<Hex> {
  const provider = createEIP1193Provider({ network, chain })
  const hash = (await provider.request({ method: 'eth_sendTransaction', params: [{ from: network.devAccounts[from]!.address, data, gas: '0x2dc6c0' }] })) as Hex
  const receipt = (await provider.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: Hex }
  return receipt.contractAddress
}

/**
 * Health bodies carry what the machine measured, not the network: wall-clock durations of the
 * checks and the real disk's free bytes. Set them to 0 to compare answers.
 */
export function withoutMeasurements(body: string): unknown {
  return JSON.parse(body, (key, value) => (key === 'duration' || key === 'availableDiskBytes' ? 0 : value))
}
