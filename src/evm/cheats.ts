import { createAddressFromString, setLengthLeft } from '@ethereumjs/util'
import type { Hex } from '../core/hex.js'
import { InvalidArgumentError } from '../core/errors.js'
import type { EvmChain } from './chain.js'

/**
 * State edits outside of transactions (anvil_setBalance & co.). They change the live state at
 * once, as anvil does: reads of `latest` see them, and the next block's state root includes them.
 */
export function setBalance(chain: EvmChain, address: Hex, balance: bigint): Promise<void> {
  return chain.lock.run(() => chain.stateManager.modifyAccountFields(createAddressFromString(address), { balance }))
}

export function setNonce(chain: EvmChain, address: Hex, nonce: bigint): Promise<void> {
  return chain.lock.run(() => chain.stateManager.modifyAccountFields(createAddressFromString(address), { nonce }))
}

export function setCode(chain: EvmChain, address: Hex, code: Uint8Array): Promise<void> {
  return chain.lock.run(async () => {
    const addr = createAddressFromString(address)
    // putCode needs the account to exist, as it would after a deployment.
    if (!(await chain.stateManager.getAccount(addr))) await chain.stateManager.modifyAccountFields(addr, { nonce: 0n })
    await chain.stateManager.putCode(addr, code)
  })
}

export function setStorageAt(chain: EvmChain, address: Hex, slot: Uint8Array, value: Uint8Array): Promise<void> {
  if (value.length > 32) throw new InvalidArgumentError('storage value longer than 32 bytes')
  return chain.lock.run(async () => {
    const addr = createAddressFromString(address)
    if (!(await chain.stateManager.getAccount(addr))) await chain.stateManager.modifyAccountFields(addr, { nonce: 0n })
    await chain.stateManager.putStorage(addr, setLengthLeft(slot, 32), setLengthLeft(value, 32))
  })
}
