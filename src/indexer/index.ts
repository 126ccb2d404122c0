export {
  createEvmIndexer,
  InvalidCursorError,
  StaleCursorError,
  TRANSFER_TOPIC,
  TRANSFER_SINGLE_TOPIC,
  TRANSFER_BATCH_TOPIC,
  type EvmIndexer,
  type BlockRecord,
  type TxRecord,
  type Erc20Transfer,
  type Erc721Transfer,
  type Erc1155Transfer,
  type DeploymentRecord,
  type Erc1155Balance,
  type TeleporterRecord,
  type TeleporterOutcomeRecord,
  type ListQuery,
  type Page,
} from './evm.js'
export {
  createTraceIndexer,
  type TraceIndexer,
  type InternalTransaction,
  type InternalTxType,
  type ContractCreation,
} from './trace.js'
export * from './teleporter.js'
export * from './icm.js'
export * from './methods.js'
export {
  createPlatformIndexer,
  type PlatformIndexer,
  type PlatformIndexerOptions,
  type PlatformChain,
  type IndexedTx,
  type IndexedUtxo,
  type UtxoConsumption,
  type L1ValidatorSample,
  type TxFilter,
} from './platform.js'
