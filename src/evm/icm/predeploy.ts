import type { Hex } from '../../core/hex.js'
import type { GenesisAccount } from '../chain.js'
import { ICM_MESSENGER_DEPLOYED_BYTECODE } from './messenger.js'

/**
 * TeleporterMessenger v1's canonical address: what its published keyless deployment creates on
 * every chain (the first contract of {@link ICM_MESSENGER_DEPLOYER}), and where relayers,
 * TeleporterRegistry and avalanche-cli look for it.
 */
export const ICM_MESSENGER_ADDRESS: Hex = '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf'

/** The one-time sender of TeleporterMessenger v1's deployment transaction (Nick's method). */
export const ICM_MESSENGER_DEPLOYER: Hex = '0x618FEdD9A45a8C456812ecAAE70C671c6249DfaC'

const slot = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`

/**
 * Genesis accounts that leave a chain as the messenger's deployment transaction would: the
 * deployer's nonce used, the runtime code at the canonical address with a contract's nonce 1, and
 * the constructor's storage (its two reentrancy flags, slots 0 and 1, set to 1) — as
 * avalanche-cli's genesis allocations predeploy it. Accounts `alloc` already holds keep their
 * balance; a genesis that already has code at the address keeps that code.
 */
export function withIcmMessenger(alloc: Record<Hex, GenesisAccount>): Record<Hex, GenesisAccount> {
  const messenger = ICM_MESSENGER_ADDRESS.toLowerCase() as Hex
  const deployer = ICM_MESSENGER_DEPLOYER.toLowerCase() as Hex
  const out = { ...alloc }
  const existing = out[messenger]
  if (!existing?.code || existing.code === '0x') {
    out[messenger] = {
      balance: existing?.balance ?? 0n,
      nonce: 1n,
      code: ICM_MESSENGER_DEPLOYED_BYTECODE,
      storage: { ...existing?.storage, [slot(0)]: slot(1), [slot(1)]: slot(1) },
    }
  }
  const sender = out[deployer]
  out[deployer] = { ...sender, balance: sender?.balance ?? 0n, nonce: (sender?.nonce ?? 0n) > 1n ? sender!.nonce : 1n }
  return out
}

/** {@link withIcmMessenger} when `icm` is set, `alloc` itself otherwise. */
export function withIcmIf(icm: boolean | undefined, alloc: Record<Hex, GenesisAccount>): Record<Hex, GenesisAccount> {
  return icm ? withIcmMessenger(alloc) : alloc
}
