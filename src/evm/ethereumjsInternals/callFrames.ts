/**
 * @ethereumjs/evm 10.1.3's message bookkeeping around each call frame, without the work that
 * changes nothing. Installed by `jumpAnalysisCache.ts` on the release it checks, before any EVM
 * is made (a chain's creation awaits it), so every EVM and shallow copy gets it; the EVM's and
 * the journal's fields are read as that release names them.
 */
import { EVM } from '@ethereumjs/evm'
import type { Account, Address } from '@ethereumjs/util'

type Message = { caller: Address; to?: Address; value: bigint }
type EvmThis = {
  DEBUG: boolean
  common: { isActivatedEIP(eip: number): boolean }
  journal: { touchAddress(address: Address): void }
  [CALL_MESSAGE]?: Message
}
type EvmProto = {
  _executeCall(this: EvmThis, message: Message): Promise<unknown>
  _reduceSenderBalance(this: EvmThis, account: Account, message: Message): Promise<unknown>
  _addToBalance(this: EvmThis, account: Account, message: Message): Promise<unknown>
  __l1simZeroValue?: true
}

/** The message whose `_executeCall` is moving its value: the frame the two balance steps are for. */
const CALL_MESSAGE = Symbol('l1sim.callMessage')

/**
 * A call frame moves its value with `_reduceSenderBalance` and `_addToBalance`, each of which
 * puts back the account `_executeCall` has just read (RLP-encoded into the state manager's cache
 * and recorded in its checkpoint), even when the value is 0 and the account comes back as it was:
 * two account writes per frame, a quarter of an eth_call's garbage. Here a frame of
 * `_executeCall` that moves nothing, for an account that exists (not empty: an empty account is
 * created or kept by the put, so it goes the stock way), only touches the address (EIP-161), which
 * is all the put did besides rewriting the same account. `_executeCreate` uses the same two
 * methods for accounts it has changed (the new contract's nonce), so only `_executeCall`'s own
 * message takes this path. EIP-7928 access lists, verkle and binary-tree witnesses and DEBUG
 * logging take the stock path.
 */
export function installZeroValueCalls(): void {
  const proto = EVM.prototype as unknown as EvmProto
  if (proto.__l1simZeroValue) return
  const { _executeCall: stockExecuteCall, _reduceSenderBalance: stockReduce, _addToBalance: stockAdd } = proto
  if (typeof stockExecuteCall !== 'function' || typeof stockReduce !== 'function' || typeof stockAdd !== 'function') return
  proto._executeCall = function (message) {
    this[CALL_MESSAGE] = message
    return stockExecuteCall.call(this, message)
  }
  proto._reduceSenderBalance = function (account, message) {
    if (!movesNothing(this, account, message)) return stockReduce.call(this, account, message)
    this.journal.touchAddress(message.caller)
    return Promise.resolve()
  }
  proto._addToBalance = function (account, message) {
    const unchanged = movesNothing(this, account, message)
    // The frame's second and last balance step: the message is not kept past it.
    if (this[CALL_MESSAGE] === message) this[CALL_MESSAGE] = undefined
    if (!unchanged) return stockAdd.call(this, account, message)
    this.journal.touchAddress(message.to!)
    return Promise.resolve()
  }
  proto.__l1simZeroValue = true
}

function movesNothing(evm: EvmThis, account: Account, message: Message): boolean {
  if (message.value !== 0n || evm[CALL_MESSAGE] !== message || evm.DEBUG || account.isEmpty()) return false
  const common = evm.common
  return !common.isActivatedEIP(7928) && !common.isActivatedEIP(6800) && !common.isActivatedEIP(7864)
}
