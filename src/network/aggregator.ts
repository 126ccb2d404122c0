/**
 * The signature aggregator, as ava-labs' `signature-aggregator` (icm-services) runs it: it asks the
 * signing subnet's connected validators to sign an unsigned warp message (ACP-118, with an
 * optional justification) and aggregates the BLS signatures once a quorum of stake signed. The
 * simulated validators sign only what one of the network's message sources vouches for, so a
 * message the network never produced gets no signature, as real validators refuse it.
 */
import { BaseError } from '../core/errors.js'
import { idFromString, idToString, PRIMARY_NETWORK_ID } from '../core/ids.js'
import { abiDecodeBytes } from '../evm/warp/abi.js'
import { encodeMessage, messageId, parsePayload, parseUnsignedMessage, type UnsignedMessage } from '../evm/warp/codec.js'
import { signMessage } from '../evm/warp/signature.js'
import type { Network } from './network.js'
import { findWarpMessage } from './warp.js'
import { PChainWarpRefusal, verifyPChainWarpRequest } from './pchainWarp.js'
import { hexToBlsKey } from './validators.js'

/** icm-services' `DefaultQuorumPercentage`. */
export const DEFAULT_QUORUM_PERCENTAGE = 67

/**
 * Whether the network's validators sign a message: `true` they sign, `false` they refuse (a
 * refusal wins over another source's `true`), and `undefined` when the message is not this
 * source's to judge. A chain that produces warp messages
 * (an L1's or the C-chain's `sendWarpMessage`, the P-chain's ACP-77 messages) is one source.
 */
export type WarpMessageSource = (unsigned: UnsignedMessage & { bytes: Uint8Array }, justification: Uint8Array) => boolean | undefined

export type AggregateSignaturesRequest = {
  /** The unsigned message, or a `SendWarpMessage` log's data (its ABI-encoded `bytes`): bytes, or hex with `0x` optional. */
  message: Uint8Array | string
  /** The ACP-118 justification validators get with the request: bytes, or hex with `0x` optional. */
  justification?: Uint8Array | string
  /** The subnet whose validators sign (cb58 or `0x` hex); the source chain's subnet by default. */
  signingSubnetId?: string
  /** 1..100: the share of the signing subnet's stake that must sign; 67 when 0 or absent. */
  quorumPercentage?: number
}

/**
 * A refusal, worded as icm-services words it (`status` the HTTP status its API answers, 400 for
 * a request it cannot read, 500 for an aggregation that failed).
 */
export class AggregationError extends BaseError {
  override name = 'AggregationError'
  constructor(
    message: string,
    readonly status: 400 | 500,
  ) {
    super(message)
  }
}

export type SignatureAggregator = {
  /** Adds a chain's message source (validators sign what any source vouches for). */
  addSource(source: WarpMessageSource): void
  /**
   * Aggregates a quorum of signatures; throws {@link AggregationError}. Returns the signed message
   * bytes. `subnetOf` replaces the P-chain lookup of a chain's subnet (another network's
   * aggregator knows none of this network's chains).
   */
  aggregate(request: AggregateSignaturesRequest, options?: { subnetOf?: (chainId: string) => string | undefined }): Uint8Array
}

/**
 * The network's aggregator, with the L1s' (and C-chain's) sent messages and accepted block hashes
 * as sources, and the P-chain's ACP-77 messages as its validators sign them (`pchainWarp.ts`).
 */
export function createSignatureAggregator(network: Network): SignatureAggregator {
  const sources: WarpMessageSource[] = [(message) => sentOrAcceptedBlock(network, message), (message, justification) => pchainVouches(network, message, justification)]
  return {
    addSource: (source) => void sources.push(source),
    aggregate(request, options = {}) {
      // The checks in the order icm-services' handler makes them, so the first failing one answers.
      const unsigned = unpackWarpMessage(decodeHexField(request.message, 'Could not decode message'))
      const justification = decodeHexField(request.justification ?? '', 'Could not decode justification')
      if (isEmptyOrZeroes(unsigned.bytes) && isEmptyOrZeroes(justification)) throw new AggregationError('Must provide either message or justification', 400)
      const quorum = request.quorumPercentage || DEFAULT_QUORUM_PERCENTAGE
      if (!Number.isInteger(quorum) || quorum < 0 || quorum > 100) throw new AggregationError('Invalid quorum number', 400)
      const signingSubnet = request.signingSubnetId ? parseSubnetId(request.signingSubnetId) : undefined
      const fail = (error: string) => new AggregationError(`failed to aggregate signatures. error: ${error}`, 500)
      const source = idToString(unsigned.sourceChainId)
      const subnetOf = options.subnetOf ?? ((chain: string) => network.l1(chain)?.subnetId ?? (network.chainIsPrimary(chain) ? PRIMARY_NETWORK_ID : undefined))
      const sourceSubnet = subnetOf(source)
      if (sourceSubnet === undefined) throw fail(`source blockchain not found for chain ID ${source}`)
      const subnetId = signingSubnet ?? sourceSubnet
      const validators = network.validators.get(subnetId)
      const set = network.validators.canonical(subnetId)
      // The validators it can ask: simulated nodes, connected, with a BLS key (a keyless one only adds to the total weight).
      const nodes = validators.flatMap((v) => {
        const index = network.nodes.findIndex((n) => n.nodeId === v.nodeId)
        return index < 0 || !v.blsPublicKey || network.faults.isDisconnected(index) ? [] : [{ index, node: network.nodes[index]!, weight: BigInt(v.weight) }]
      })
      // The aggregator first connects to the set; it gives up when the connected stake is short.
      const connected = nodes.reduce((sum, n) => sum + n.weight, 0n)
      if (!meetsQuorum(connected, set.totalWeight, quorum)) throw fail('failed to connect to a threshold of stake')
      // Validators sign a message of their own network that a source vouches for and none refuses.
      const verdicts = unsigned.networkId === network.preset.networkId ? sources.map((s) => s(unsigned, justification)) : [false]
      const vouched = verdicts.includes(true) && !verdicts.includes(false)
      const signers = vouched ? nodes.filter((n) => !network.faults.withholdsWarpSignatures(n.index)) : []
      const weight = signers.reduce((sum, n) => sum + n.weight, 0n)
      if (signers.length === 0 || !meetsQuorum(weight, set.totalWeight, quorum)) throw fail('failed to collect a threshold of signatures')
      return encodeMessage(unsigned.bytes, signMessage(unsigned.bytes, signers.map((n) => ({ blsSecretKey: n.node.identity.blsSecretKey, blsPublicKeyBytes: hexToBlsKey(n.node.identity.blsPublicKey) })), set))
    },
  }
}

/** `utils.UnpackWarpMessage`: a `SendWarpMessage` log's data first, else a standalone unsigned message. */
function unpackWarpMessage(bytes: Uint8Array): UnsignedMessage & { bytes: Uint8Array } {
  for (const candidate of [() => abiDecodeBytes(bytes), () => bytes]) {
    try {
      const inner = candidate()
      return { ...parseUnsignedMessage(inner), bytes: inner }
    } catch {
      // Not this form; try the next.
    }
  }
  throw new AggregationError('Error unpacking warp message', 400)
}

/** `utils.HexOrCB58ToID`: `0x` hex of 32 bytes, otherwise cb58. */
function parseSubnetId(text: string): string {
  try {
    if (text.startsWith('0x')) {
      const bytes = decodeGoHex(text.slice(2))
      if (bytes?.length !== 32) throw new Error('not an id')
      return idToString(bytes)
    }
    return idToString(idFromString(text))
  } catch {
    throw new AggregationError('Error parsing signing subnet ID', 400)
  }
}

/** Bytes as given; hex (`0x` optional) decoded as the handler decodes it, refused with `refusal`. */
function decodeHexField(value: Uint8Array | string, refusal: string): Uint8Array {
  if (typeof value !== 'string') return value
  const bytes = decodeGoHex(value.startsWith('0x') ? value.slice(2) : value)
  if (bytes === undefined) throw new AggregationError(refusal, 400)
  return bytes
}

/** Go's `hex.DecodeString`: even length, hex digits only; undefined otherwise. */
function decodeGoHex(text: string): Uint8Array | undefined {
  if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) return undefined
  return Uint8Array.from(Buffer.from(text, 'hex'))
}

function isEmptyOrZeroes(bytes: Uint8Array): boolean {
  return bytes.every((b) => b === 0)
}

/** `utils.CheckStakeWeightExceedsThreshold`: weight ≥ ⌈total · quorum / 100⌉. */
function meetsQuorum(weight: bigint, total: bigint, quorum: number): boolean {
  return weight * 100n >= total * BigInt(quorum)
}

/** subnet-EVM's (and coreth's) warp backend signs messages its chain sent and hashes of its accepted blocks. */
function sentOrAcceptedBlock(network: Network, message: UnsignedMessage & { bytes: Uint8Array }): boolean | undefined {
  const payload = (() => {
    try {
      return parsePayload(message.payload)
    } catch {
      return undefined
    }
  })()
  if (payload && 'hash' in payload) {
    const chain = network.chain(idToString(message.sourceChainId))
    return chain ? chain.store.byHash(`0x${Buffer.from(payload.hash).toString('hex')}`) !== undefined : undefined
  }
  const sent = findWarpMessage(network, messageId(message.bytes))
  return sent !== undefined && Buffer.from(sent).equals(Buffer.from(message.bytes)) ? true : undefined
}

/**
 * A P-chain-sourced message (source chain 32 zero bytes): vouched for when the P-chain's ACP-118
 * rules sign it for this justification, refused when they refuse it; other sources' messages are
 * not its to judge.
 */
function pchainVouches(network: Network, message: UnsignedMessage & { bytes: Uint8Array }, justification: Uint8Array): boolean | undefined {
  if (!message.sourceChainId.every((b) => b === 0)) return undefined
  try {
    verifyPChainWarpRequest(network, message.bytes, justification)
    return true
  } catch (error) {
    if (error instanceof PChainWarpRefusal) return false
    throw error
  }
}
