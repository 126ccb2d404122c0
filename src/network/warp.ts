import { hexToBytes } from '@ethereumjs/util'
import { InvalidArgumentError, NotFoundError } from '../core/errors.js'
import { bytesToHex, type Hex } from '../core/hex.js'
import { idFromString, idToString, PRIMARY_NETWORK_ID } from '../core/ids.js'
import { abiDecodeBytes } from '../evm/warp/abi.js'
import { encodeHashPayload, encodeMessage, encodeUnsignedMessage, messageId as computeMessageId, parseUnsignedMessage } from '../evm/warp/codec.js'
import { SEND_WARP_MESSAGE_TOPIC } from '../evm/warp/precompile.js'
import { WARP_ADDRESS } from '../evm/warp/predicate.js'
import { signMessage } from '../evm/warp/signature.js'
import type { Network } from './network.js'
import { hexToBlsKey } from './validators.js'

export type SignWarpOptions = {
  /** Node indexes that sign; every simulated validator of the source subnet by default. */
  signers?: number[]
  /** Sign with this subnet's validators instead of the source chain's (warp_getMessageAggregateSignature's subnetID). */
  subnetId?: string
  /**
   * The chain (alias or blockchain id) that will verify the message: its validators sign when it
   * checks messages from the primary network against its own (an L1 without
   * `requirePrimaryNetworkSigners`), as a relayer asks them. Ignored when `subnetId` is given.
   */
  destination?: string
}

/**
 * A warp message the C-chain or an L1 sent (`sendWarpMessage`), by message id: the unsigned
 * message bytes as the `SendWarpMessage` log carries them, read from accepted blocks (so a revert
 * forgets it).
 */
export function findWarpMessage(network: Network, id: Hex | Uint8Array): Uint8Array | undefined {
  const wanted = (typeof id === 'string' ? id : bytesToHex(id)).toLowerCase()
  for (const chain of network.chains) {
    const store = chain.store
    for (let n = store.height; n >= 0n; n--) {
      const block = store.byNumber(n)
      for (const tx of block?.txs ?? [])
        for (const log of tx.receipt.logs)
          if (log.address === WARP_ADDRESS && log.topics[0] === SEND_WARP_MESSAGE_TOPIC && log.topics[2] === wanted)
            return abiDecodeBytes(hexToBytes(log.data))
    }
  }
  return undefined
}

/**
 * Signs an unsigned warp message with the BLS keys of the source chain's validators, as
 * validators answer signature requests, and aggregates: the signed message a relayer puts in the
 * destination transaction's access list. The source chain's subnet decides the signers (the
 * primary network for C, X and P).
 */
export function signWarpMessage(network: Network, unsigned: Uint8Array, options: SignWarpOptions = {}): Uint8Array {
  const message = parseUnsignedMessage(unsigned)
  if (message.networkId !== network.preset.networkId)
    throw new InvalidArgumentError(`warp message is for network ${message.networkId}, not ${network.preset.networkId}`)
  const source = idToString(message.sourceChainId)
  // A chain the P-chain created belongs to its subnet even before its VM runs here.
  const subnetId =
    options.subnetId ??
    (options.destination !== undefined ? destinationSubnet(network, options.destination, message.sourceChainId) : undefined) ??
    network.l1(source)?.subnetId ??
    network.primary.pchain.state.getBlockchain(source)?.subnetId ??
    (network.chainIsPrimary(source) ? PRIMARY_NETWORK_ID : undefined)
  if (subnetId === undefined) throw new NotFoundError(`unknown source chain ${source}`)
  const validators = network.validators.get(subnetId)
  const set = network.validators.canonical(subnetId)
  const byNodeId = new Map(network.nodes.map((n) => [n.nodeId, n]))
  const chosen = options.signers
    ? options.signers.map((index) => {
        const node = network.nodes[index]
        if (!node) throw new InvalidArgumentError(`node ${index} does not exist`)
        if (!validators.some((v) => v.nodeId === node.nodeId)) throw new InvalidArgumentError(`node ${index} (${node.nodeId}) does not validate subnet ${subnetId}`)
        return node
      })
    : validators.flatMap((v) => byNodeId.get(v.nodeId) ?? [])
  const signature = signMessage(unsigned, chosen.map((n) => ({ blsSecretKey: n.identity.blsSecretKey, blsPublicKeyBytes: hexToBlsKey(n.identity.blsPublicKey) })), set)
  return encodeMessage(unsigned, signature)
}

/** The subnet `destination` checks a message from `sourceChainId` against, at its head's time. */
/** The subnet whose validators `destination` checks a message from `sourceChainId` against (undefined while its warp is off). */
export function destinationSubnet(network: Network, destination: string, sourceChainId: Uint8Array): string | undefined {
  const chain = network.chain(destination)
  if (!chain) throw new NotFoundError(`unknown chain ${destination}`)
  const warp = chain === network.cChain ? network.cWarp : network.l1(destination)?.rules.warp
  const subnet = warp?.signingSubnet(sourceChainId, chain.head.block.header.timestamp)
  return subnet && idToString(subnet)
}

/**
 * The unsigned warp message of an accepted block of the C-chain or an L1 (a `Hash` payload of the
 * block hash), which validators sign for `getVerifiedWarpBlockHash`. Throws when the chain has no
 * such block.
 */
export function warpBlockHashMessage(network: Network, chain: string, blockHash: Hex | Uint8Array): Uint8Array {
  const l1 = network.l1(chain)
  const evm = l1?.chain ?? network.chain(chain)
  if (!evm) throw new NotFoundError(`unknown chain ${chain}`)
  const sourceChainId = l1 ? l1.blockchainIdBytes : idFromString(network.preset.cChainId)
  const hash = typeof blockHash === 'string' ? hexToBytes(blockHash) : blockHash
  if (!evm.store.byHash(bytesToHex(hash))) throw new NotFoundError(`block ${bytesToHex(hash)} is not accepted on ${l1?.name ?? 'C'}`)
  return encodeUnsignedMessage({ networkId: network.preset.networkId, sourceChainId, payload: encodeHashPayload(hash) })
}

/** The id of an unsigned message (sha256 of its bytes). */
export function warpMessageId(unsigned: Uint8Array): Hex {
  return bytesToHex(computeMessageId(unsigned))
}
