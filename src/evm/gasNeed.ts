import type { RunTxResult, VM } from '@ethereumjs/vm'
import { watchOpcodes } from './ethereumjsInternals.js'

/**
 * Opcodes whose effect can depend on a transaction's gas limit: GAS reads the gas left; the CALL
 * and CREATE families hand a child all but 1/64 of it (and a child's unused gas comes back, so
 * consumption stops being monotone); BALANCE and SELFDESTRUCT can see the sender's balance, from
 * which the gas limit's price was taken up front; EXTCODEHASH, which reads whether an account is
 * empty, is counted with them as a precaution (it only costs the shortcut).
 */
const GAS_DEPENDENT = [0x31, 0x3f, 0x5a, 0xf0, 0xf1, 0xf2, 0xf4, 0xf5, 0xfa, 0xff]
const SSTORE = 0x55
/** Gas rules that EIP-2200's alone do not describe (calldata floor, state gas, stateless access, block access lists). */
const LATER_GAS_RULES = [6800, 7623, 7864, 7928, 8037, 8038]

/**
 * Watches one run of a contract creation at gas limit `limit` and tells, when it can be proved,
 * the least gas limit at which the same transaction succeeds: then a run at any limit up to
 * `limit` succeeds exactly when it is at least that much, and geth's estimator can be followed
 * without running the constructor again for each guess (a cold start's deploy runs it 3–4 times).
 *
 * The proof: when the initcode runs no opcode that observes the gas left (see GAS_DEPENDENT),
 * every step before gas runs out is the same at any limit, and with no child frame the gas used
 * only grows, so a run fails only by running out — before its last step (the limit is below the
 * gas used before refunds) or at an SSTORE whose gas left is at or below the sentry. Anything
 * else (an applied refund, which makes the used gas ambiguous; Prague's calldata floor and later EIPs;
 * an opcode table that could not be watched) gives undefined and the estimator runs as before.
 */
export function watchGasNeed(vm: VM, limit: bigint): { need(result: RunTxResult): bigint | undefined; stop(): void } {
  let dependent = false
  let sentryNeed = 0n
  // Istanbul's SSTORE rules (EIP-2200) through Cancun: no calldata floor, state gas or stateless
  // access charges, which each add a limit-dependent rule of their own.
  const c = vm.common
  const applies = c.gteHardfork('istanbul') && !c.gteHardfork('prague') && !LATER_GAS_RULES.some((eip) => c.isActivatedEIP(eip))
  // EIP-2200: an SSTORE with this much gas left or less fails (the call stipend's sentry).
  const sentry = applies ? BigInt(c.param('sstoreSentryEIP2200Gas')) : 0n
  const seen = (op: number, gasLeft: bigint) => {
    if (op !== SSTORE) dependent = true
    else {
      // The run at limit L has (limit - L) less gas left at every step.
      const least = limit - gasLeft + sentry + 1n
      if (least > sentryNeed) sentryNeed = least
    }
  }
  const watch = applies ? watchOpcodes(vm, [...GAS_DEPENDENT, SSTORE], seen) : undefined
  let intact: boolean | undefined
  const stop = () => (intact ??= watch?.stop() ?? false)
  return {
    need(result) {
      // With a refund applied the gas used before it is not known (Avalanche EVMs refund nothing:
      // their quotient exceeds any gas used).
      const refunded = result.gasRefund !== 0n && BigInt(c.param('maxRefundQuotient')) <= result.totalGasSpent + result.gasRefund
      if (!stop() || dependent || result.execResult.exceptionError || refunded) return undefined
      return result.totalGasSpent > sentryNeed ? result.totalGasSpent : sentryNeed
    },
    stop() {
      stop()
    },
  }
}
