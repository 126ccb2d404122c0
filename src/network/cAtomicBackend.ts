import { bytesToHex, createAddressFromString } from '@ethereumjs/util'
import type { EvmChain } from '../evm/chain.js'
import type { EvmAtomicBackend } from '../platform/xchain/cAtomicVerify.js'

type Session = {
  accounts: Map<string, { balance: bigint; nonce: bigint }>
  edits: { address: string; delta: bigint; nonce?: bigint }[]
  baseFee: bigint
}

/**
 * The C-chain side of atomic import/export. The atomic code reads balances and nonces
 * synchronously, while the EVM state is asynchronous, so a call runs in a session: the accounts a
 * transaction touches are read first, the atomic code works on that copy, and its credits and
 * debits are then written to the state (in the block being built, when the miner asks).
 */
export class CAtomicBackend implements EvmAtomicBackend {
  readonly #chain: EvmChain
  #session: Session | undefined

  constructor(chain: EvmChain) {
    this.#chain = chain
  }

  /**
   * Runs `fn` with the accounts at `addresses` loaded from the live state and `baseFee` as the
   * base fee, then writes what it credited or debited. The caller holds the chain's lock.
   */
  async withAccounts<T>(addresses: readonly Uint8Array[], baseFee: bigint, fn: () => T): Promise<T> {
    const state = this.#chain.stateManager
    const accounts = new Map<string, { balance: bigint; nonce: bigint }>()
    for (const address of addresses) {
      const key = bytesToHex(address)
      const account = await state.getAccount(createAddressFromString(key))
      accounts.set(key, { balance: account?.balance ?? 0n, nonce: account?.nonce ?? 0n })
    }
    this.#session = { accounts, edits: [], baseFee }
    try {
      const value = fn()
      for (const edit of this.#session.edits) {
        const at = createAddressFromString(edit.address)
        const account = await state.getAccount(at)
        await state.modifyAccountFields(at, {
          balance: (account?.balance ?? 0n) + edit.delta,
          ...(edit.nonce !== undefined ? { nonce: edit.nonce } : {}),
        })
      }
      return value
    } finally {
      this.#session = undefined
    }
  }

  #current(): Session {
    if (!this.#session) throw new Error('C-chain atomic call outside a session (use CAtomicBackend.withAccounts)')
    return this.#session
  }

  getBalance(address: Uint8Array): bigint {
    return this.#current().accounts.get(bytesToHex(address))?.balance ?? 0n
  }

  getNonce(address: Uint8Array): bigint {
    return this.#current().accounts.get(bytesToHex(address))?.nonce ?? 0n
  }

  creditEvm(address: Uint8Array, amountWei: bigint): void {
    const session = this.#current()
    const key = bytesToHex(address)
    const account = session.accounts.get(key) ?? { balance: 0n, nonce: 0n }
    account.balance += amountWei
    session.accounts.set(key, account)
    session.edits.push({ address: key, delta: amountWei })
  }

  debitEvm(address: Uint8Array, amountWei: bigint, nonce: bigint): void {
    const session = this.#current()
    const key = bytesToHex(address)
    const account = session.accounts.get(key) ?? { balance: 0n, nonce: 0n }
    account.balance -= amountWei
    account.nonce = nonce + 1n
    session.accounts.set(key, account)
    session.edits.push({ address: key, delta: -amountWei, nonce: nonce + 1n })
  }

  baseFee(): bigint {
    return this.#session?.baseFee ?? this.#chain.nextBaseFee()
  }
}
