import { describe, expect, it } from 'vitest'
import { createEthMethods } from '../../src/rpc/methods/index.js'
import { CHEAT_ALIASES } from '../../src/rpc/methods/anvil/index.js'

/** Every method the C-chain endpoint serves, by namespace. A method added or dropped fails here. */
const SERVED = {
  web3: ['web3_clientVersion'],
  net: ['net_version', 'net_listening', 'net_peerCount'],
  eth: [
    'eth_chainId', 'eth_blockNumber', 'eth_accounts', 'eth_coinbase', 'eth_syncing', 'eth_getBalance', 'eth_getCode',
    'eth_getStorageAt', 'eth_getTransactionCount', 'eth_sendRawTransaction', 'eth_sendTransaction', 'eth_call',
    'eth_estimateGas', 'eth_gasPrice', 'eth_maxPriorityFeePerGas', 'eth_baseFee', 'eth_feeHistory',
    'eth_getBlockByNumber', 'eth_getBlockByHash', 'eth_getBlockTransactionCountByNumber',
    'eth_getBlockTransactionCountByHash', 'eth_getTransactionByHash', 'eth_getTransactionByBlockNumberAndIndex',
    'eth_getTransactionByBlockHashAndIndex', 'eth_getTransactionReceipt', 'eth_getBlockReceipts', 'eth_getLogs',
    'eth_newFilter', 'eth_newBlockFilter', 'eth_newPendingTransactionFilter', 'eth_getFilterChanges',
    'eth_getFilterLogs', 'eth_uninstallFilter', 'eth_getProof', 'eth_getChainConfig',
    // subnet-EVM only (the C-chain answers them as unknown methods):
    'eth_feeConfig', 'eth_getActivePrecompilesAt', 'eth_getActiveRulesAt',
  ],
  warp: ['warp_getMessage', 'warp_getMessageAggregateSignature', 'warp_getBlockAggregateSignature'],
  debug: ['debug_traceTransaction', 'debug_traceCall'],
  txpool: ['txpool_status', 'txpool_content', 'txpool_inspect'],
  cheats: [
    'evm_snapshot', 'evm_revert', 'evm_mine', 'evm_increaseTime', 'evm_setNextBlockTimestamp', 'evm_setAutomine',
    'evm_setIntervalMining', 'anvil_mine', 'anvil_reset', 'anvil_setBlockTimestampInterval',
    'anvil_removeBlockTimestampInterval', 'anvil_getAutomine', 'anvil_setBalance', 'anvil_setNonce', 'anvil_setCode',
    'anvil_setStorageAt', 'anvil_impersonateAccount', 'anvil_stopImpersonatingAccount',
    'anvil_autoImpersonateAccount', 'anvil_dumpState', 'anvil_loadState', 'anvil_nodeInfo', 'anvil_dropTransaction',
    'anvil_setCoinbase',
  ],
}

/**
 * Deliberately not served: they need things a devnet does not have. eth_subscribe/unsubscribe are
 * added by the WebSocket route (over HTTP they answer geth's "notifications not supported").
 */
const UNSERVED = ['eth_sign', 'eth_signTransaction', 'eth_mining', 'eth_hashrate', 'eth_getUncleByBlockHashAndIndex', 'eth_subscribe']

describe('method table', () => {
  const methods = createEthMethods()
  it('serves exactly the listed methods plus the cheat-code aliases', () => {
    const expected = [...Object.values(SERVED).flat(), ...Object.keys(CHEAT_ALIASES)].sort()
    expect(Object.keys(methods).sort()).toEqual(expected)
  })
  it('leaves the unserved ones out', () => {
    for (const name of UNSERVED) expect(methods[name]).toBeUndefined()
  })
  it('every alias points at the handler of its canonical method', () => {
    for (const [alias, canonical] of Object.entries(CHEAT_ALIASES)) expect(methods[alias]).toBe(methods[canonical])
  })
})
