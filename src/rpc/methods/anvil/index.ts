/** Cheat codes: written once under their anvil (or evm_) name; other names come from {@link CHEAT_ALIASES}. */
import { anvil_autoImpersonateAccount } from './anvil_autoImpersonateAccount.js'
import { anvil_dropTransaction } from './anvil_dropTransaction.js'
import { anvil_dumpState } from './anvil_dumpState.js'
import { anvil_getAutomine } from './anvil_getAutomine.js'
import { anvil_impersonateAccount } from './anvil_impersonateAccount.js'
import { anvil_loadState } from './anvil_loadState.js'
import { anvil_mine } from './anvil_mine.js'
import { anvil_nodeInfo } from './anvil_nodeInfo.js'
import { anvil_removeBlockTimestampInterval } from './anvil_removeBlockTimestampInterval.js'
import { anvil_reset } from './anvil_reset.js'
import { anvil_setBalance } from './anvil_setBalance.js'
import { anvil_setBlockTimestampInterval } from './anvil_setBlockTimestampInterval.js'
import { anvil_setCode } from './anvil_setCode.js'
import { anvil_setCoinbase } from './anvil_setCoinbase.js'
import { anvil_setNonce } from './anvil_setNonce.js'
import { anvil_setStorageAt } from './anvil_setStorageAt.js'
import { anvil_stopImpersonatingAccount } from './anvil_stopImpersonatingAccount.js'
import { evm_increaseTime } from './evm_increaseTime.js'
import { evm_mine } from './evm_mine.js'
import { evm_revert } from './evm_revert.js'
import { evm_setAutomine } from './evm_setAutomine.js'
import { evm_setIntervalMining } from './evm_setIntervalMining.js'
import { evm_setNextBlockTimestamp } from './evm_setNextBlockTimestamp.js'
import { evm_snapshot } from './evm_snapshot.js'

const canonical = {
  anvil_autoImpersonateAccount,
  anvil_dropTransaction,
  anvil_dumpState,
  anvil_getAutomine,
  anvil_impersonateAccount,
  anvil_loadState,
  anvil_mine,
  anvil_nodeInfo,
  anvil_removeBlockTimestampInterval,
  anvil_reset,
  anvil_setBalance,
  anvil_setBlockTimestampInterval,
  anvil_setCode,
  anvil_setCoinbase,
  anvil_setNonce,
  anvil_setStorageAt,
  anvil_stopImpersonatingAccount,
  evm_increaseTime,
  evm_mine,
  evm_revert,
  evm_setAutomine,
  evm_setIntervalMining,
  evm_setNextBlockTimestamp,
  evm_snapshot,
}

/**
 * The one alias table: each Hardhat / anvil / evm_ spelling that viem's test client (in `anvil`
 * or `hardhat` mode), hardhat-network-helpers or foundry tooling sends, mapped to the method that
 * serves it. A name is served by exactly one handler.
 */
export const CHEAT_ALIASES = {
  anvil_snapshot: 'evm_snapshot',
  anvil_revert: 'evm_revert',
  hardhat_reset: 'anvil_reset',
  hardhat_mine: 'anvil_mine',
  anvil_increaseTime: 'evm_increaseTime',
  anvil_setNextBlockTimestamp: 'evm_setNextBlockTimestamp',
  anvil_setAutomine: 'evm_setAutomine',
  hardhat_getAutomine: 'anvil_getAutomine',
  anvil_setIntervalMining: 'evm_setIntervalMining',
  hardhat_setBalance: 'anvil_setBalance',
  hardhat_setNonce: 'anvil_setNonce',
  hardhat_setCode: 'anvil_setCode',
  hardhat_setStorageAt: 'anvil_setStorageAt',
  hardhat_impersonateAccount: 'anvil_impersonateAccount',
  hardhat_stopImpersonatingAccount: 'anvil_stopImpersonatingAccount',
  hardhat_dropTransaction: 'anvil_dropTransaction',
  hardhat_setCoinbase: 'anvil_setCoinbase',
  hardhat_dumpState: 'anvil_dumpState',
  hardhat_loadState: 'anvil_loadState',
} as const satisfies Record<string, keyof typeof canonical>

export const cheatMethods = {
  ...canonical,
  ...Object.fromEntries(Object.entries(CHEAT_ALIASES).map(([alias, name]) => [alias, canonical[name]])),
} as Record<keyof typeof canonical | keyof typeof CHEAT_ALIASES, (typeof canonical)[keyof typeof canonical]>
