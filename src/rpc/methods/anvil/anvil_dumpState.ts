import { defineEthMethod } from '../define.js'
import { bytesToHex } from '../../../core/hex.js'
import { dumpState } from '../../../evm/stateDump.js'
import { bool, optional, tuple } from '../../params.js'

/**
 * Serves `anvil_dumpState` (also `hardhat_dumpState`, as anvil accepts it): the chain's live
 * state — every account's balance, nonce, code and storage — as `0x` + gzip of a JSON document,
 * the way anvil returns its dump. Only state is dumped, not blocks or the pool. anvil's optional
 * `preserveHistoricalStates` flag is accepted and changes nothing.
 * @example anvil_dumpState → "0x1f8b08…"
 */
export const anvil_dumpState = defineEthMethod(
  tuple(optional(bool)),
  async (_params, ctx) => bytesToHex(await dumpState(ctx.chain)),
)
