/** The `eth_` namespace: one method per file, registered here. */
import { eth_accounts } from './eth_accounts.js'
import { eth_baseFee } from './eth_baseFee.js'
import { eth_blockNumber } from './eth_blockNumber.js'
import { eth_call } from './eth_call.js'
import { eth_chainId } from './eth_chainId.js'
import { eth_coinbase } from './eth_coinbase.js'
import { eth_estimateGas } from './eth_estimateGas.js'
import { eth_feeConfig } from './eth_feeConfig.js'
import { eth_feeHistory } from './eth_feeHistory.js'
import { eth_getActivePrecompilesAt } from './eth_getActivePrecompilesAt.js'
import { eth_getActiveRulesAt } from './eth_getActiveRulesAt.js'
import { eth_getChainConfig } from './eth_getChainConfig.js'
import { eth_gasPrice } from './eth_gasPrice.js'
import { eth_getBalance } from './eth_getBalance.js'
import { eth_getBlockByHash } from './eth_getBlockByHash.js'
import { eth_getBlockByNumber } from './eth_getBlockByNumber.js'
import { eth_getBlockReceipts } from './eth_getBlockReceipts.js'
import { eth_getBlockTransactionCountByHash } from './eth_getBlockTransactionCountByHash.js'
import { eth_getBlockTransactionCountByNumber } from './eth_getBlockTransactionCountByNumber.js'
import { eth_getCode } from './eth_getCode.js'
import { eth_getFilterChanges } from './eth_getFilterChanges.js'
import { eth_getFilterLogs } from './eth_getFilterLogs.js'
import { eth_getLogs } from './eth_getLogs.js'
import { eth_getProof } from './eth_getProof.js'
import { eth_getStorageAt } from './eth_getStorageAt.js'
import { eth_getTransactionByBlockHashAndIndex } from './eth_getTransactionByBlockHashAndIndex.js'
import { eth_getTransactionByBlockNumberAndIndex } from './eth_getTransactionByBlockNumberAndIndex.js'
import { eth_getTransactionByHash } from './eth_getTransactionByHash.js'
import { eth_getTransactionCount } from './eth_getTransactionCount.js'
import { eth_getTransactionReceipt } from './eth_getTransactionReceipt.js'
import { eth_maxPriorityFeePerGas } from './eth_maxPriorityFeePerGas.js'
import { eth_newBlockFilter } from './eth_newBlockFilter.js'
import { eth_newFilter } from './eth_newFilter.js'
import { eth_newPendingTransactionFilter } from './eth_newPendingTransactionFilter.js'
import { eth_sendRawTransaction } from './eth_sendRawTransaction.js'
import { eth_sendTransaction } from './eth_sendTransaction.js'
import { eth_syncing } from './eth_syncing.js'
import { eth_uninstallFilter } from './eth_uninstallFilter.js'

export const ethMethods = {
  eth_accounts,
  eth_baseFee,
  eth_blockNumber,
  eth_call,
  eth_chainId,
  eth_coinbase,
  eth_estimateGas,
  eth_feeHistory,
  eth_feeConfig,
  eth_getChainConfig,
  eth_getActivePrecompilesAt,
  eth_getActiveRulesAt,
  eth_gasPrice,
  eth_getBalance,
  eth_getBlockByHash,
  eth_getBlockByNumber,
  eth_getBlockReceipts,
  eth_getBlockTransactionCountByHash,
  eth_getBlockTransactionCountByNumber,
  eth_getCode,
  eth_getFilterChanges,
  eth_getFilterLogs,
  eth_getLogs,
  eth_getProof,
  eth_getStorageAt,
  eth_getTransactionByBlockHashAndIndex,
  eth_getTransactionByBlockNumberAndIndex,
  eth_getTransactionByHash,
  eth_getTransactionCount,
  eth_getTransactionReceipt,
  eth_maxPriorityFeePerGas,
  eth_newBlockFilter,
  eth_newFilter,
  eth_newPendingTransactionFilter,
  eth_sendRawTransaction,
  eth_sendTransaction,
  eth_syncing,
  eth_uninstallFilter,
}
