import { createClock } from '../../../src/core/clock.js'
import { hexToBytes } from '../../../src/core/hex.js'
import { EMPTY_ID, idFromString, idToString } from '../../../src/core/ids.js'
import { DEFAULT_MNEMONIC, deriveDevAccounts } from '../../../src/core/keys.js'
import { NETWORK_PRESETS } from '../../../src/network/presets.js'
import { SharedMemory } from '../../../src/platform/atomic.js'
import { decodeUtxo, encodeUtxo } from '../../../src/platform/codec.js'
import type { ShortId, Utxo } from '../../../src/platform/txs.js'
import { inputId } from '../../../src/platform/xchain/bytes.js'
import { XChain, localGenesisAllocations } from '../../../src/platform/xchain/chain.js'
import type { EvmAtomicBackend } from '../../../src/platform/xchain/cAtomicVerify.js'
import { Keychain, XWallet, devAccountAllocations } from '../../../src/platform/xchain/wallet.js'

export const preset = NETWORK_PRESETS.local
export const AVAX = preset.avaxAssetId
export const P_CHAIN = preset.pChainId
export const C_CHAIN = preset.cChainId
export const X_CHAIN = preset.xChainId
export const DEV_FUNDS = 1_000_000_000_000_000n // 1M AVAX in nAVAX
/** ewoq, whose key funds the local genesis. */
export const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027'

export function setup() {
  const clock = createClock({ start: 1_800_000_000 })
  const sharedMemory = new SharedMemory()
  const accounts = deriveDevAccounts({ mnemonic: DEFAULT_MNEMONIC, count: 3 })
  const x = new XChain({
    clock,
    sharedMemory,
    genesis: [...devAccountAllocations(accounts, DEV_FUNDS), ...localGenesisAllocations()],
  })
  const keychains = accounts.map((a) => new Keychain([a.privateKey]))
  const addrs = keychains.map((k) => k.addresses()[0]!)
  const wallets = keychains.map((k) => new XWallet(x, k))
  return { clock, sharedMemory, accounts, x, keychains, addrs, wallets }
}

/**
 * A stand-in for the P-chain's use of shared memory: imports UTXOs the X-chain exported (removing
 * them as the real P-chain's ImportTx does) and exports UTXOs back.
 */
export class FakePChain {
  readonly balances = new Map<string, bigint>()
  #n = 0
  constructor(readonly sm: SharedMemory) {}

  importFrom(source: string, addr: ShortId): Utxo[] {
    const { values, keys } = this.sm.indexed(source, P_CHAIN, [addr], new Uint8Array(), new Uint8Array(), 1024)
    const utxos = values.map((v) => decodeUtxo('P', v))
    this.sm.remove(source, P_CHAIN, keys)
    for (const u of utxos) {
      if (u.output.type !== 'TransferOutput') continue
      const k = Buffer.from(addr).toString('hex')
      this.balances.set(k, (this.balances.get(k) ?? 0n) + u.output.amount)
    }
    return utxos
  }

  balance(addr: ShortId): bigint {
    return this.balances.get(Buffer.from(addr).toString('hex')) ?? 0n
  }

  exportTo(destination: string, addr: ShortId, amount: bigint): Utxo {
    const k = Buffer.from(addr).toString('hex')
    const have = this.balances.get(k) ?? 0n
    if (have < amount) throw new Error('fake P: insufficient funds')
    this.balances.set(k, have - amount)
    const txId = new Uint8Array(32)
    txId[0] = 0xaa
    txId[31] = ++this.#n
    const utxo: Utxo = {
      txId,
      outputIndex: 0,
      assetId: idFromString(AVAX),
      output: { type: 'TransferOutput', amount, owners: { locktime: 0n, threshold: 1, addrs: [addr] } },
    }
    this.sm.put(P_CHAIN, destination, [{ key: inputId(txId, 0), value: encodeUtxo('P', utxo), traits: [addr] }])
    return utxo
  }
}

/** A fake EVM state implementing the atomic backend. */
export class FakeEvm implements EvmAtomicBackend {
  readonly balances = new Map<string, bigint>()
  readonly nonces = new Map<string, bigint>()
  fee = 25_000_000_000n
  k = (a: Uint8Array) => Buffer.from(a).toString('hex')
  getBalance(a: Uint8Array) {
    return this.balances.get(this.k(a)) ?? 0n
  }
  getNonce(a: Uint8Array) {
    return this.nonces.get(this.k(a)) ?? 0n
  }
  creditEvm(a: Uint8Array, wei: bigint) {
    this.balances.set(this.k(a), this.getBalance(a) + wei)
  }
  debitEvm(a: Uint8Array, wei: bigint, nonce: bigint) {
    if (this.getBalance(a) < wei) throw new Error('fake evm: insufficient')
    if (this.getNonce(a) !== nonce) throw new Error('fake evm: nonce')
    this.balances.set(this.k(a), this.getBalance(a) - wei)
    this.nonces.set(this.k(a), nonce + 1n)
  }
  baseFee() {
    return this.fee
  }
  snapshot() {
    return JSON.stringify([[...this.balances].map(([a, b]) => [a, b.toString()]), [...this.nonces].map(([a, b]) => [a, b.toString()])])
  }
}

export const ethAddr = (hex: string) => hexToBytes(hex as `0x${string}`)
export { EMPTY_ID, idToString }
