import { TxRefusedError } from '../errors.js'

/**
 * An X-chain (or C-chain atomic) transaction was refused. `message` is the text avalanchego (or
 * coreth) returns for it — the `%w` chain of the real verifier, e.g.
 * `failed to verify transfer: failed to get utxo <id>: not found`; `code` names the innermost
 * sentinel (a key of {@link XE}) so callers need not parse text.
 */
export class XChainTxError extends TxRefusedError {
  override name = 'XChainTxError'
}

/**
 * The sentinel messages, from vms/avm/txs/executor, vms/components/avax, vms/secp256k1fx,
 * utils/math, database and coreth plugin/evm/atomic.
 */
export const XE = {
  // database / utils/math
  notFound: 'not found',
  overflow: 'overflow',
  underflow: 'underflow',
  // components/avax
  insufficientFunds: 'insufficient funds',
  wrongNetworkID: 'tx has wrong network ID',
  wrongChainID: 'tx has wrong chain ID',
  memoTooLarge: 'memo exceeds maximum length',
  outputsNotSorted: 'outputs not sorted',
  inputsNotSortedUnique: 'inputs not sorted and unique',
  emptyAssetID: 'empty asset ID is not valid',
  // verify
  sameChainID: 'same chainID',
  mismatchedSubnetIDs: 'mismatched subnetIDs',
  // avm syntactic_verifier.go
  wrongNumberOfCredentials: 'wrong number of credentials',
  initialStatesNotSortedUnique: 'initial states not sorted and unique',
  nameTooShort: 'name is too short, minimum size is 1',
  nameTooLong: 'name is too long, maximum size is 128',
  symbolTooShort: 'symbol is too short, minimum size is 1',
  symbolTooLong: 'symbol is too long, maximum size is 4',
  noFxs: 'assets must support at least one Fx',
  illegalNameCharacter: "asset's name must be made up of only letters and numbers",
  illegalSymbolCharacter: "asset's symbol must be all upper case letters",
  unexpectedWhitespace: 'unexpected whitespace provided',
  denominationTooLarge: 'denomination is too large',
  operationsNotSortedUnique: 'operations not sorted and unique',
  noOperations: 'an operationTx must have at least one operation',
  doubleSpend: 'inputs attempt to double spend an input',
  noImportInputs: 'no import inputs',
  noExportOutputs: 'no export outputs',
  // avm txs
  unknownFx: 'unknown feature extension',
  stateOutputsNotSorted: 'outputs not sorted',
  utxoIDsNotSortedUnique: 'utxo IDs not sorted and unique',
  // avm semantic_verifier.go
  assetIDMismatch: "asset IDs in the input don't match the utxo",
  notAnAsset: 'not an asset',
  incompatibleFx: 'incompatible feature extension',
  // secp256k1fx
  wrongOpType: 'wrong operation type',
  wrongUTXOType: 'wrong utxo type',
  wrongInputType: 'wrong input type',
  mismatchedAmounts: 'utxo amount and input amount are not equal',
  wrongNumberOfUTXOs: 'wrong number of utxos for the operation',
  wrongMintCreated: 'wrong mint output created from the operation',
  timelocked: 'output is time locked',
  tooManySigners: 'input has more signers than expected',
  tooFewSigners: 'input has less signers than expected',
  inputOutputIndexOutOfBounds: 'input referenced a nonexistent address in the output',
  inputCredentialSignersMismatch: 'input expected a different number of signers than provided in the credential',
  wrongSig: 'wrong signature',
  noValueOutput: 'output has no value',
  noValueInput: 'input has no value',
  outputUnspendable: 'output is unspendable',
  outputUnoptimized: 'output representation should be optimized',
  addrsNotSortedUnique: 'addresses not sorted and unique',
  inputIndicesNotSortedUnique: 'address indices not sorted and unique',
  invalidSignature: 'invalid signature',
  // avm block executor
  conflictingBlockTxs: 'block contains conflicting transactions',
  // coreth plugin/evm/atomic
  cNoImportInputs: 'tx has no imported inputs',
  cNoExportOutputs: 'tx has no export outputs',
  cNoEVMOutputs: 'tx has no EVM outputs',
  cWrongNetworkID: 'tx was issued with a different network ID',
  cWrongChainID: 'tx has wrong chain ID',
  cInputsNotSortedUnique: 'inputs not sorted and unique',
  cOutputsNotSortedUnique: 'outputs not sorted and unique',
  cOutputsNotSorted: 'tx outputs not sorted',
  cImportNonAVAXInputBanff: 'import input cannot contain non-AVAX in Banff',
  cImportNonAVAXOutputBanff: 'import output cannot contain non-AVAX in Banff',
  cExportNonAVAXInputBanff: 'export input cannot contain non-AVAX in Banff',
  cExportNonAVAXOutputBanff: 'export output cannot contain non-AVAX in Banff',
  cNoValueOutput: 'output has no value',
  cNoValueInput: 'input has no value',
  cEmptyAssetID: 'empty asset ID is not valid',
  cInsufficientFunds: 'insufficient funds',
  cInvalidNonce: 'invalid nonce',
  cFailedToFetchImportUTXOs: 'failed to fetch import UTXOs',
  cIncorrectNumCredentials: 'incorrect number of credentials',
  cIncorrectNumSignatures: 'incorrect number of signatures',
  cPublicKeySignatureMismatch: "signature doesn't match public key",
  cConflictingAtomicInputs: 'invalid block due to conflicting atomic inputs',
  cFeeOverflow: 'overflow occurred while calculating the fee',
} as const

export type XErrorCode = keyof typeof XE

/** Throws `XChainTxError(code, message ?? XE[code])`. */
export function fail(code: XErrorCode, message?: string): never {
  throw new XChainTxError(code, message ?? XE[code])
}

/** Re-throws `err` with `prefix: ` in front of its message, keeping its code (Go's `fmt.Errorf("…: %w")`). */
export function wrap(prefix: string, err: unknown): never {
  if (err instanceof XChainTxError) throw new XChainTxError(err.code, `${prefix}: ${err.shortMessage}`)
  throw err
}
