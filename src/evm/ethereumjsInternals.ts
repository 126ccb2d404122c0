/**
 * The one module through which l1sim reaches into ethereumjs' internals (fields TypeScript marks
 * private, behaviour the public API does not promise), each part checked against the version it
 * was read from:
 *   - `stateCaches.ts`: @ethereumjs/statemanager's caches, so reads are cached as clean (checked
 *     at creation: a moved field fails loudly at start), and the state manager given l1sim's own
 *     state trie (`src/evm/trie/`) in place of @ethereumjs/mpt's, on the statemanager version
 *     whose use of its trie it was checked against;
 *   - `cacheReset.ts`: the statemanager's LRU caches emptied entry by entry on a revert (the
 *     stock clear costs the caches' capacity);
 *   - `sealing.ts`: @ethereumjs/vm's BlockBuilder (blocks sealed without per-transaction copies)
 *     and @ethereumjs/mpt's checkpoint commit (installed only on the version they were written
 *     against; otherwise the stock code runs).
 *   - `interpreterSteps.ts`: @ethereumjs/evm's interpreter loop, fixed-fee synchronous opcodes
 *     run without a promise each, and @ethereumjs/evm's frame result with its run state built on
 *     first read (installed by `jumpAnalysisCache.ts`, on the release it checks).
 *   - `callFrames.ts`: @ethereumjs/evm's call frame, one that moves no value not writing back the
 *     accounts it read nor copying its message (installed by `jumpAnalysisCache.ts`, on the
 *     release it checks).
 *   - `opcodeWatch.ts`: @ethereumjs/evm's opcode table entries, wrapped in place while an
 *     estimate's first run watches which gas-dependent opcodes run (only on the release checked).
 *   - `messageJournal.ts`: @ethereumjs/evm's journal around an eth_call's message: its
 *     precompiles marked warm with one shared empty slot set, and the journal cleared only when
 *     it is not clean already (only on the release checked).
 * Nothing else in `src/` imports these internals.
 */
export { setStateRootEmptyingCaches } from './ethereumjsInternals/cacheReset.js'
export { CleanReadStateManager, createStateManager } from './ethereumjsInternals/stateCaches.js'
export * from './ethereumjsInternals/sealing.js'
export { installLazyRunState, installSyncSteps, type InterpreterProto } from './ethereumjsInternals/interpreterSteps.js'
export { installCallFrames } from './ethereumjsInternals/callFrames.js'
export { cleanJournal, warmPrecompiles, warmSlot } from './ethereumjsInternals/messageJournal.js'
export { watchOpcodes, type OpcodeWatch } from './ethereumjsInternals/opcodeWatch.js'
