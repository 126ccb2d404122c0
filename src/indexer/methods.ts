import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { InvalidArgumentError } from '../core/errors.js'
import type { Hex } from '../core/hex.js'
import { keccak256 } from '../core/keccak.js'

/**
 * Method names for `Method.methodName`: 4-byte selectors mapped to canonical signatures
 * (`transfer(address,uint256)`), as the hosted indexer names a call by the ABI it knows for it.
 * A registry starts from a built-in table of well-known ABIs; users add their contracts' ABIs,
 * and a registered signature wins over a built-in one with the same selector (a clash means two
 * different functions, and the user's ABI is the one that describes their contract).
 */

/** One parameter of a JSON ABI entry: `tuple` types carry their `components`. */
export type AbiParameter = { readonly type: string; readonly name?: string; readonly components?: readonly AbiParameter[] }
/** One JSON ABI entry; only functions (an entry without `type` is a function, as in the ABI spec) are read. */
export type AbiEntry = { readonly type?: string; readonly name?: string; readonly inputs?: readonly AbiParameter[] }
/** A Hardhat or Foundry artifact: Foundry writes `bytecode: {object}`, Hardhat a hex string. */
export type ContractArtifact = {
  readonly contractName?: string
  readonly abi: readonly AbiEntry[]
  readonly bytecode?: string | { readonly object: string }
  readonly deployedBytecode?: string | { readonly object: string }
}

export type MethodRegistry = {
  /** Registers every function of `abi`; returns their canonical signatures in ABI order. */
  registerAbi(abi: readonly AbiEntry[]): string[]
  /** Registers the functions of an artifact's ABI (its bytecode is checked for shape, not used). */
  registerArtifact(artifact: ContractArtifact): string[]
  /** The signature of a 4-byte selector (`0x` and 8 hex digits, any case), if known. */
  methodName(selector: string): string | undefined
  /** The registered signatures (not the built-ins), in registration order: what a file snapshot keeps. */
  signatures(): string[]
  /** Registers canonical signatures as {@link signatures} listed them (loading a file snapshot). */
  registerSignatures(signatures: readonly string[]): void
}


/**
 * Keccak-256 of a signature, first 4 bytes, lower-case hex. Natively when the binding loads: an
 * ABI registered as a start runs (a scenario's `deploy`) hashes every entry, and noble's keccak,
 * still interpreted then, took ~0.5 ms a signature.
 */
export function selectorOf(signature: string): Hex {
  return `0x${bytesToHex(keccak256(utf8ToBytes(signature)).subarray(0, 4))}` as Hex
}

const ELEMENTARY = /^(address|bool|string|bytes([1-9]|[12][0-9]|3[0-2])?|u?int(8|16|24|32|40|48|56|64|72|80|88|96|104|112|120|128|136|144|152|160|168|176|184|192|200|208|216|224|232|240|248|256)?|function)((\[[0-9]*\])*)$/
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** The canonical type of a parameter: `uint` → `uint256`, tuples expanded to `(…)` with their array suffix. */
function canonicalType(param: AbiParameter, path: string): string {
  if (param === null || typeof param !== 'object' || typeof param.type !== 'string') throw new InvalidArgumentError(`ABI parameter ${path} has no type`)
  const tuple = /^tuple((\[[0-9]*\])*)$/.exec(param.type)
  if (tuple) {
    if (!Array.isArray(param.components)) throw new InvalidArgumentError(`ABI parameter ${path} is a tuple without components`)
    return `(${param.components.map((c, i) => canonicalType(c, `${path}.${i}`)).join(',')})${tuple[1]}`
  }
  const m = ELEMENTARY.exec(param.type)
  if (!m) throw new InvalidArgumentError(`ABI parameter ${path} has an unknown type: ${param.type}`)
  const base = m[1] === 'uint' ? 'uint256' : m[1] === 'int' ? 'int256' : m[1]!
  return `${base}${m[4] ?? ''}`
}

/** `name(type,…)` of a function entry. */
export function canonicalSignature(fn: AbiEntry): string {
  if (typeof fn.name !== 'string' || !IDENTIFIER.test(fn.name)) throw new InvalidArgumentError(`ABI function has no valid name: ${String(fn.name)}`)
  const inputs = fn.inputs ?? []
  if (!Array.isArray(inputs)) throw new InvalidArgumentError(`ABI function ${fn.name} has no inputs array`)
  return `${fn.name}(${inputs.map((p, i) => canonicalType(p, `${fn.name}.${i}`)).join(',')})`
}

const TELEPORTER_MESSAGE = '(uint256,address,bytes32,address,uint256,address[],(uint256,address)[],bytes)'
const TELEPORTER_FEE_INFO = '(address,uint256)'

/**
 * Well-known functions. The precompiles' come from `src/evm/precompiles/abi.ts` and
 * `src/evm/warp/precompile.ts`; the Teleporter messenger's from ITeleporterMessenger.sol and
 * TeleporterMessenger.sol (ava-labs/icm-contracts).
 */
export const BUILT_IN_SIGNATURES: readonly string[] = Object.freeze([
  // ERC-20 (with EIP-2612 permit and the common OpenZeppelin extensions)
  'transfer(address,uint256)',
  'approve(address,uint256)',
  'transferFrom(address,address,uint256)',
  'permit(address,address,uint256,uint256,uint8,bytes32,bytes32)',
  'increaseAllowance(address,uint256)',
  'decreaseAllowance(address,uint256)',
  'balanceOf(address)',
  'allowance(address,address)',
  'totalSupply()',
  'name()',
  'symbol()',
  'decimals()',
  'nonces(address)',
  'DOMAIN_SEPARATOR()',
  'mint(address,uint256)',
  'burn(uint256)',
  'burnFrom(address,uint256)',
  // ERC-721 and its usual mint patterns
  'safeTransferFrom(address,address,uint256)',
  'safeTransferFrom(address,address,uint256,bytes)',
  'setApprovalForAll(address,bool)',
  'isApprovedForAll(address,address)',
  'getApproved(uint256)',
  'ownerOf(uint256)',
  'tokenURI(uint256)',
  'tokenOfOwnerByIndex(address,uint256)',
  'tokenByIndex(uint256)',
  'supportsInterface(bytes4)',
  'mint(address)',
  'mint(uint256)',
  'safeMint(address)',
  'safeMint(address,uint256)',
  'safeMint(address,string)',
  'safeMint(address,uint256,string)',
  'setBaseURI(string)',
  'setTokenURI(uint256,string)',
  // ERC-1155
  'safeTransferFrom(address,address,uint256,uint256,bytes)',
  'safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)',
  'balanceOf(address,uint256)',
  'balanceOfBatch(address[],uint256[])',
  'uri(uint256)',
  'setURI(string)',
  'mint(address,uint256,uint256,bytes)',
  'mintBatch(address,uint256[],uint256[],bytes)',
  'burn(address,uint256,uint256)',
  'burnBatch(address,uint256[],uint256[])',
  // Ownable
  'owner()',
  'transferOwnership(address)',
  'renounceOwnership()',
  // WAVAX / WETH
  'deposit()',
  'withdraw(uint256)',
  // Multicall3
  'aggregate((address,bytes)[])',
  'aggregate3((address,bool,bytes)[])',
  'aggregate3Value((address,bool,uint256,bytes)[])',
  'blockAndAggregate((address,bytes)[])',
  'tryAggregate(bool,(address,bytes)[])',
  'tryBlockAndAggregate(bool,(address,bytes)[])',
  'getBasefee()',
  'getBlockHash(uint256)',
  'getBlockNumber()',
  'getChainId()',
  'getCurrentBlockCoinbase()',
  'getCurrentBlockDifficulty()',
  'getCurrentBlockGasLimit()',
  'getCurrentBlockTimestamp()',
  'getEthBalance(address)',
  'getLastBlockHash()',
  // subnet-EVM precompiles: allow lists, native minter, fee manager, reward manager, warp
  'setAdmin(address)',
  'setEnabled(address)',
  'setManager(address)',
  'setNone(address)',
  'readAllowList(address)',
  'mintNativeCoin(address,uint256)',
  'setFeeConfig(uint256,uint256,uint256,uint256,uint256,uint256,uint256,uint256)',
  'getFeeConfig()',
  'getFeeConfigLastChangedAt()',
  'setRewardAddress(address)',
  'allowFeeRecipients()',
  'disableRewards()',
  'currentRewardAddress()',
  'areFeeRecipientsAllowed()',
  'sendWarpMessage(bytes)',
  'getVerifiedWarpMessage(uint32)',
  'getVerifiedWarpBlockHash(uint32)',
  'getBlockchainID()',
  // Teleporter / ICM messenger and receiver
  `sendCrossChainMessage((bytes32,address,${TELEPORTER_FEE_INFO},uint256,address[],bytes))`,
  `retrySendCrossChainMessage(${TELEPORTER_MESSAGE})`,
  'addFeeAmount(bytes32,address,uint256)',
  'receiveCrossChainMessage(uint32,address)',
  `retryMessageExecution(bytes32,${TELEPORTER_MESSAGE})`,
  `sendSpecifiedReceipts(bytes32,bytes32[],${TELEPORTER_FEE_INFO},address[])`,
  'redeemRelayerRewards(address)',
  'getMessageHash(bytes32)',
  'messageReceived(bytes32)',
  'getRelayerRewardAddress(bytes32)',
  'checkRelayerRewardAmount(address,address)',
  'getFeeInfo(bytes32)',
  'getNextMessageID(bytes32)',
  'getReceiptQueueSize(bytes32)',
  'getReceiptAtIndex(bytes32,uint256)',
  'initializeBlockchainID()',
  'calculateMessageID(bytes32,bytes32,uint256)',
  'blockchainID()',
  'receiveTeleporterMessage(bytes32,address,bytes)',
])

/**
 * Selector → built-in signature, an immutable table (not state) computed on the first lookup:
 * hashing a hundred signatures with a cold keccak is ~10 ms that a start would otherwise pay at
 * module load, though most runs never name a method.
 */
let builtIns: ReadonlyMap<string, string> | undefined

/** The built-in signature of a selector (what a registry answers before anything is registered). */
export const builtInMethodName = (selector: string): string | undefined =>
  (builtIns ??= new Map(BUILT_IN_SIGNATURES.map((s) => [selectorOf(s), s]))).get(selector.toLowerCase())

function bytecodeShape(value: ContractArtifact['bytecode'], field: string): void {
  if (value === undefined) return
  const hex = typeof value === 'string' ? value : value !== null && typeof value === 'object' ? value.object : undefined
  // Linked-library placeholders (`__$…$__`) are part of an unlinked artifact's bytecode.
  if (typeof hex !== 'string' || !/^(0x)?([0-9a-fA-F]|__\$[0-9a-fA-F]{34}\$__)*$/.test(hex))
    throw new InvalidArgumentError(`artifact ${field} must be a hex string or {object: hex string}`)
}

export function createMethodRegistry(): MethodRegistry {
  const registered = new Map<string, string>()
  const registerAbi = (abi: readonly AbiEntry[]): string[] => {
    if (!Array.isArray(abi)) throw new InvalidArgumentError('ABI must be a JSON array')
    // Validate everything before registering anything, so a bad ABI changes nothing.
    const signatures = abi
      .filter((e): e is AbiEntry => e !== null && typeof e === 'object' && (e.type === undefined || e.type === 'function'))
      .map(canonicalSignature)
    for (const s of signatures) registered.set(selectorOf(s), s)
    return signatures
  }
  return {
    registerAbi,
    registerArtifact(artifact: ContractArtifact): string[] {
      if (artifact === null || typeof artifact !== 'object') throw new InvalidArgumentError('artifact must be an object')
      if (artifact.contractName !== undefined && typeof artifact.contractName !== 'string') throw new InvalidArgumentError('artifact contractName must be a string')
      bytecodeShape(artifact.bytecode, 'bytecode')
      bytecodeShape(artifact.deployedBytecode, 'deployedBytecode')
      return registerAbi(artifact.abi)
    },
    methodName(selector: string): string | undefined {
      const key = selector.toLowerCase()
      return registered.get(key) ?? builtInMethodName(key)
    },
    signatures: () => [...registered.values()],
    registerSignatures(signatures) {
      for (const s of signatures) registered.set(selectorOf(s), s)
    },
  }
}
