/** The X-chain (avm) state machine and the C-chain's atomic txs. See each module. */
export * from './api.js'
export * from './bytes.js'
export * from './cchainAtomic.js'
export * from './chain.js'
export * from './errors.js'
export * from './executor.js'
export * from './state.js'
export * from './wallet.js'
