/**
 * @ethereumjs/evm 10.1.3's call frame (`EVM._executeCall`) without the work that changes
 * nothing. Installed by `jumpAnalysisCache.ts` on the release it checks, before any EVM is made
 * (a chain's creation awaits it), so every EVM and shallow copy gets it; the EVM's fields are
 * read as that release names them.
 */
import { EVM } from '@ethereumjs/evm'
import { Account, type Address } from '@ethereumjs/util'

type Message = {
  caller: Address
  to: Address
  value: bigint
  delegatecall: boolean
  code?: Uint8Array | ((...args: unknown[]) => unknown)
  isCompiled: boolean
  data: Uint8Array
  depth: number
  gasLimit: bigint
  gasRefund: bigint
}
type ExecResult = { executionGasUsed: bigint; gasRefund?: bigint }
type EvmThis = {
  DEBUG: boolean
  common: { isActivatedEIP(eip: number): boolean }
  journal: { touchAddress(address: Address): void }
  stateManager: { getAccount(address: Address): Promise<Account | undefined> }
  _optsCached: { profiler?: { enabled?: boolean } }
  _reduceSenderBalance(account: Account, message: Message): Promise<unknown>
  _addToBalance(account: Account, message: Message): Promise<unknown>
  _loadCode(message: Message): Promise<void>
  runPrecompile(code: unknown, data: Uint8Array, gasLimit: bigint): Promise<ExecResult> | ExecResult
  runInterpreter(message: Message, opts: { initialLogs?: unknown[] }): Promise<ExecResult>
  postMessageCleanup(): void
}
type EvmProto = { _executeCall(this: EvmThis, message: Message): Promise<{ execResult: ExecResult }>; __l1simCallFrames?: true }

/**
 * EIPs under which the stock frame does more than move the value, load the code and run it
 * (verkle and binary-tree witnesses, EIP-2780 top-frame charges, EIP-7928 access lists, EIP-7708
 * transfer logs): their frames run the stock method.
 */
const STOCK_EIPS = [6800, 7864, 2780, 7928, 7708]

/**
 * The stock frame, for the Avalanche rules, with two differences that no one can observe:
 *   - moving the value (`_reduceSenderBalance`, `_addToBalance`) puts back the account just read,
 *     RLP-encoded into the state manager's cache and recorded in its checkpoint, even when the
 *     value is 0 and the account comes back unchanged: two account writes per frame, a tenth of
 *     an eth_call's garbage. A frame that moves nothing, for an account that exists (not empty:
 *     the put creates or keeps an empty one, so that goes the stock way), only touches the
 *     address (EIP-161), which is all the put did besides rewriting the same account;
 *   - the interpreter gets the message itself instead of a copy of all its fields with the same
 *     gas limit (the frame charges nothing before the code runs under these rules), which the
 *     interpreter only reads.
 * `_executeCreate` also uses the two balance methods, for an account it has changed (the new
 * contract's nonce); those are not touched. DEBUG logging, the profiler and {@link STOCK_EIPS}
 * take the stock method.
 */
export function installCallFrames(): void {
  const proto = EVM.prototype as unknown as EvmProto
  if (proto.__l1simCallFrames || typeof proto._executeCall !== 'function') return
  const stockExecuteCall = proto._executeCall
  proto._executeCall = async function (message) {
    const common = this.common
    if (this.DEBUG || this._optsCached.profiler?.enabled === true || STOCK_EIPS.some((eip) => common.isActivatedEIP(eip))) return stockExecuteCall.call(this, message)
    const account = (await this.stateManager.getAccount(message.caller)) ?? new Account()
    let errorMessage: unknown
    if (!message.delegatecall) {
      if (message.value === 0n && !account.isEmpty()) this.journal.touchAddress(message.caller)
      else {
        try {
          await this._reduceSenderBalance(account, message)
        } catch (e) {
          errorMessage = e
        }
      }
    }
    const toAccount = (await this.stateManager.getAccount(message.to)) ?? new Account()
    if (!message.delegatecall) {
      if (message.value === 0n && !toAccount.isEmpty()) this.journal.touchAddress(message.to)
      else {
        try {
          await this._addToBalance(toAccount, message)
        } catch (e) {
          errorMessage = e
        }
      }
    }
    await this._loadCode(message)
    const code = message.code
    if (!code || (typeof code !== 'function' && code.length === 0) || errorMessage !== undefined) {
      return { execResult: { gasRefund: message.gasRefund, executionGasUsed: 0n, exceptionError: errorMessage, returnValue: new Uint8Array(0), logs: undefined } as ExecResult }
    }
    let result: ExecResult
    if (message.isCompiled) {
      result = await this.runPrecompile(code, message.data, message.gasLimit)
      result.gasRefund = message.gasRefund
    } else {
      result = await this.runInterpreter(message, { initialLogs: undefined })
    }
    if (message.depth === 0) this.postMessageCleanup()
    return { execResult: result }
  }
  proto.__l1simCallFrames = true
}
