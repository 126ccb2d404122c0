import { InvalidArgumentError } from '../../core/errors.js'
import { hexToBytes, type Hex } from '../../core/hex.js'
import {
  ERR_OUT_OF_GAS,
  ERR_WRITE_PROTECTION,
  PrecompileError,
  type PrecompileCall,
  type PrecompileResult,
  type StatefulPrecompile,
} from '../precompiles/types.js'
import {
  AbiDecodeError,
  abiBool,
  abiBytesTail,
  abiDecodeBytes,
  abiDecodeUint32,
  abiEncodeBytes,
  abiLeftPad,
  abiWord,
  concat,
} from './abi.js'
import {
  encodeAddressedCall,
  encodeUnsignedMessage,
  messageId,
  parseAddressedCall,
  parseHashPayload,
  parseMessage,
  WarpError,
  type SignedMessage,
} from './codec.js'
import { unpackPredicate, WARP_ADDRESS, warpGasConfig, type WarpPredicate } from './predicate.js'

/**
 * The warp precompile (`precompile/contracts/warp/contract.go`, `contract_warp_handler.go`) at
 * {@link WARP_ADDRESS}: sendWarpMessage, getBlockchainID, getVerifiedWarpMessage,
 * getVerifiedWarpBlockHash, with subnet-EVM's gas, ABI encodings and error texts.
 */

export { WARP_ADDRESS }

/** Function selectors of `IWarpMessenger`. */
export const WARP_SELECTORS = Object.freeze({
  /** sendWarpMessage(bytes) */
  sendWarpMessage: '0xee5b48eb',
  /** getVerifiedWarpMessage(uint32) */
  getVerifiedWarpMessage: '0x6f825350',
  /** getVerifiedWarpBlockHash(uint32) */
  getVerifiedWarpBlockHash: '0xce7f5929',
  /** getBlockchainID() */
  getBlockchainID: '0x4213cf78',
} as const satisfies Record<string, Hex>)

/** topic0 of `SendWarpMessage(address indexed sender, bytes32 indexed messageID, bytes message)`. */
export const SEND_WARP_MESSAGE_TOPIC: Hex = '0x56600c567728a800c0aa927500f831cb451df66a7af570eb4df4dfbf4674887d'

const MAX_INT32 = 0x7fffffff

export type WarpPrecompileContext = {
  networkId: number
  /** This chain's 32-byte blockchain id: `getBlockchainID()` and the source of sent messages. */
  blockchainId: Uint8Array
  /**
   * The i-th access-list tuple with the warp address of the running transaction, and whether its
   * predicate verified (see `verifyPredicates`); undefined past the last one.
   */
  getPredicate(index: number): WarpPredicate | undefined
}

/** `(WarpMessage{sourceChainID, originSenderAddress, payload}, valid)` as the ABI returns it. */
export function encodeGetVerifiedWarpMessageOutput(
  message: { sourceChainId: Uint8Array; originSenderAddress: Uint8Array; payload: Uint8Array },
  valid: boolean,
): Uint8Array {
  // Head: offset of the dynamic tuple, bool. Tuple: bytes32, address, offset of payload (3 words), payload.
  return concat(
    abiWord(64n),
    abiBool(valid),
    abiLeftPad(message.sourceChainId),
    abiLeftPad(message.originSenderAddress),
    abiWord(96n),
    abiBytesTail(message.payload),
  )
}

/** `(WarpBlockHash{sourceChainID, blockHash}, valid)`: a static tuple, three words. */
export function encodeGetVerifiedWarpBlockHashOutput(
  blockHash: { sourceChainId: Uint8Array; blockHash: Uint8Array },
  valid: boolean,
): Uint8Array {
  return concat(abiLeftPad(blockHash.sourceChainId), abiLeftPad(blockHash.blockHash), abiBool(valid))
}

const INVALID_MESSAGE_OUTPUT = encodeGetVerifiedWarpMessageOutput(
  { sourceChainId: new Uint8Array(32), originSenderAddress: new Uint8Array(20), payload: new Uint8Array(0) },
  false,
)
const INVALID_BLOCK_HASH_OUTPUT = encodeGetVerifiedWarpBlockHashOutput(
  { sourceChainId: new Uint8Array(32), blockHash: new Uint8Array(32) },
  false,
)

/** Thrown inside a handler: becomes a non-revert error (all gas consumed, no data). */
class Failure extends Error {}

class Gas {
  constructor(public left: bigint) {}
  use(amount: bigint): void {
    if (this.left < amount) throw new Failure(ERR_OUT_OF_GAS)
    this.left -= amount
  }
}

type Handler = (call: PrecompileCall, input: Uint8Array, gas: Gas) => Uint8Array

/** Creates the precompile for one chain. */
export function createWarpPrecompile(ctx: WarpPrecompileContext): StatefulPrecompile {
  if (ctx.blockchainId.length !== 32)
    throw new InvalidArgumentError(`blockchainId must be 32 bytes but got ${ctx.blockchainId.length}`)
  const blockchainId = ctx.blockchainId.slice()

  const sendWarpMessage: Handler = (call, input, gas) => {
    const config = warpGasConfig(call.rules.isGranite)
    gas.use(config.sendWarpMessageBase)
    // Charged on the whole ABI input before decoding it, as a buffer against its variable size.
    gas.use(config.perWarpMessageByte * BigInt(input.length))
    if (call.readOnly) throw new Failure(ERR_WRITE_PROTECTION)
    let payload: Uint8Array
    try {
      payload = abiDecodeBytes(input)
    } catch (error) {
      throw failure('invalid sendWarpMessage input', error)
    }
    const sender = hexToBytes(call.caller)
    let addressedCall: Uint8Array
    try {
      addressedCall = encodeAddressedCall(sender, payload)
    } catch (error) {
      throw failure(undefined, error)
    }
    const unsignedBytes = encodeUnsignedMessage({ networkId: ctx.networkId, sourceChainId: blockchainId, payload: addressedCall })
    const id = messageId(unsignedBytes)
    call.log([hexToBytes(SEND_WARP_MESSAGE_TOPIC), abiLeftPad(sender), id], abiEncodeBytes(unsignedBytes))
    return id
  }

  const getBlockchainId: Handler = (call, _input, gas) => {
    gas.use(warpGasConfig(call.rules.isGranite).getBlockchainId)
    return blockchainId.slice()
  }

  const readVerified =
    (invalidOutput: Uint8Array, handle: (message: SignedMessage) => Uint8Array): Handler =>
    (call, input, gas) => {
      const config = warpGasConfig(call.rules.isGranite)
      gas.use(config.getVerifiedWarpMessageBase)
      let index: number
      try {
        index = abiDecodeUint32(input)
      } catch (error) {
        throw failure('invalid index to specify warp message', error)
      }
      if (index > MAX_INT32) throw new Failure('invalid index to specify warp message: larger than MaxInt32')
      const predicate = ctx.getPredicate(index)
      if (!predicate || !predicate.valid) return invalidOutput.slice()
      // Charged on every read, on top of the intrinsic gas the predicate already paid.
      gas.use(config.perWarpMessageChunk * BigInt(Math.ceil(predicate.bytes.length / 32)))
      let bytes: Uint8Array
      try {
        bytes = unpackPredicate(padToChunks(predicate.bytes))
      } catch (error) {
        throw failure('cannot unpack predicate bytes', error)
      }
      let message: SignedMessage
      try {
        message = parseMessage(bytes)
      } catch (error) {
        throw failure('cannot unpack warp message', error)
      }
      return handle(message)
    }

  const getVerifiedWarpMessage = readVerified(INVALID_MESSAGE_OUTPUT, (message) => {
    let call
    try {
      call = parseAddressedCall(message.unsigned.payload)
    } catch (error) {
      throw failure('cannot unpack addressed payload', error)
    }
    return encodeGetVerifiedWarpMessageOutput(
      {
        sourceChainId: message.unsigned.sourceChainId,
        originSenderAddress: bytesToAddress(call.sourceAddress),
        payload: call.payload,
      },
      true,
    )
  })

  const getVerifiedWarpBlockHash = readVerified(INVALID_BLOCK_HASH_OUTPUT, (message) => {
    let hash
    try {
      hash = parseHashPayload(message.unsigned.payload)
    } catch (error) {
      throw failure('cannot unpack block hash payload', error)
    }
    return encodeGetVerifiedWarpBlockHashOutput({ sourceChainId: message.unsigned.sourceChainId, blockHash: hash.hash }, true)
  })

  const handlers = new Map<string, Handler>([
    [WARP_SELECTORS.sendWarpMessage, sendWarpMessage],
    [WARP_SELECTORS.getBlockchainID, getBlockchainId],
    [WARP_SELECTORS.getVerifiedWarpMessage, getVerifiedWarpMessage],
    [WARP_SELECTORS.getVerifiedWarpBlockHash, getVerifiedWarpBlockHash],
  ])

  return async (call: PrecompileCall): Promise<PrecompileResult> => {
    const { input } = call
    if (input.length < 4) return failed(`missing function selector to precompile - input length (${input.length})`)
    const selector = `0x${Buffer.from(input.subarray(0, 4)).toString('hex')}`
    const handler = handlers.get(selector)
    if (!handler) return failed(`invalid function selector: ${selector}`)
    const gas = new Gas(call.gas)
    try {
      const returnData = handler(call, input.subarray(4), gas)
      return { returnData, gasLeft: gas.left }
    } catch (error) {
      if (error instanceof Failure) return failed(error.message)
      throw error
    }
  }
}

function failed(message: string): PrecompileResult {
  return { returnData: new Uint8Array(0), gasLeft: 0n, error: new PrecompileError(message) }
}

/** Wraps a decoding error as Go's `fmt.Errorf("%w: %w", prefix, err)`; other errors are bugs and propagate. */
function failure(prefix: string | undefined, error: unknown): Failure {
  if (error instanceof WarpError || error instanceof AbiDecodeError)
    return new Failure(prefix === undefined ? error.message : `${prefix}: ${error.message}`)
  throw error
}

function padToChunks(bytes: Uint8Array): Uint8Array {
  if (bytes.length % 32 === 0) return bytes
  const out = new Uint8Array(Math.ceil(bytes.length / 32) * 32)
  out.set(bytes)
  return out
}

/** `common.BytesToAddress`: the last 20 bytes, left-padded when shorter. */
function bytesToAddress(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(20)
  const tail = bytes.subarray(Math.max(0, bytes.length - 20))
  out.set(tail, 20 - tail.length)
  return out
}
