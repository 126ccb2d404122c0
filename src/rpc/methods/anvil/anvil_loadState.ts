import { defineEthMethod } from '../define.js'
import { loadState } from '../../../evm/stateDump.js'
import { data, tuple } from '../../params.js'

/**
 * Serves `anvil_loadState` (also `hardhat_loadState`, as anvil accepts it): replaces the chain's
 * live state with a dump from `anvil_dumpState` of a chain with the same chain id. The chain
 * keeps its blocks (anvil would also load its dumped blocks); the next block builds on the loaded
 * state. A corrupt or foreign dump is refused (-32602 `invalid state dump: …`) and nothing changes.
 * @example anvil_loadState ["0x1f8b08…"] → true
 */
export const anvil_loadState = defineEthMethod(
  tuple(data),
  async ([dump], ctx) => {
    await loadState(ctx.chain, dump)
    return true
  },
)
