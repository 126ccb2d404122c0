/**
 * The warp message a transaction gave rise to, as an aggregation request: what the data API's
 * `GET /v1/signatureAggregator/{network}/aggregateSignatures/{txHash}` has the aggregator sign
 * ("Aggregated Signatures for a P-Chain L1 related Warp Message"), through the same
 * {@link SignatureAggregator.aggregate} as every other request.
 *
 * - A P-chain tx (cb58 id): the ACP-77 message the P-chain signs because of it —
 *   `ConvertSubnetToL1Tx` → `SubnetToL1ConversionMessage` (justified by the subnet id);
 *   `RegisterL1ValidatorTx` → `L1ValidatorRegistrationMessage(validationID, true)` while the
 *   validator exists, `false` once it is gone (justified by the RegisterL1Validator message);
 *   `SetL1ValidatorWeightTx` → the `L1ValidatorWeightMessage` acknowledging its nonce and weight,
 *   or, for a removal (weight 0), `L1ValidatorRegistrationMessage(validationID, false)` justified
 *   by the registration (its RegisterL1Validator message, or its conversion's SubnetIDIndex).
 *   The L1's validators sign it (the signing subnet is the subnet the message concerns, as the
 *   L1 verifying it checks).
 * - An EVM tx hash (`0x`, on the C-chain or an L1): the first `sendWarpMessage` it made, signed by
 *   its chain's subnet (an extension: the hosted API takes P- and X-chain ids only).
 */
import { hexToBytes } from '@ethereumjs/util'
import { BaseError } from '../core/errors.js'
import { idFromString, idToString } from '../core/ids.js'
import { abiDecodeBytes } from '../evm/warp/abi.js'
import { parseAddressedCall, parseMessage, parseUnsignedMessage } from '../evm/warp/codec.js'
import { SEND_WARP_MESSAGE_TOPIC } from '../evm/warp/precompile.js'
import { WARP_ADDRESS } from '../evm/warp/predicate.js'
import type { PChainSignedTx } from '../platform/txs.js'
import { conversionValidationId, encodeL1ValidatorRegistration, encodeL1ValidatorWeight, encodeSubnetToL1Conversion, parseL1ValidatorWeight, parseRegisterL1Validator, registerValidationId } from '../platform/pchain/warpMessages.js'
import type { AggregateSignaturesRequest } from './aggregator.js'
import type { Network } from './network.js'
import { pchainWarpMessage } from './pchainWarp.js'

/** A transaction the network does not have (404), or one that made no warp message (400). */
export class TxWarpMessageError extends BaseError {
  override name = 'TxWarpMessageError'
  constructor(
    message: string,
    readonly status: 400 | 404,
  ) {
    super(message)
  }
}

const EVM_HASH = /^0x[0-9a-fA-F]{64}$/

/** The aggregation request for the warp message `txHash` gave rise to; throws {@link TxWarpMessageError}. */
export function warpRequestOfTx(network: Network, txHash: string): AggregateSignaturesRequest {
  if (EVM_HASH.test(txHash)) return evmTxRequest(network, txHash.toLowerCase())
  let id: string
  try {
    id = idToString(idFromString(txHash))
  } catch {
    throw new TxWarpMessageError(`Transaction ${txHash} not found`, 404)
  }
  const noMessage = (type: string) => new TxWarpMessageError(`Transaction ${txHash} (${type}) makes no P-Chain warp message: only ConvertSubnetToL1Tx, RegisterL1ValidatorTx and SetL1ValidatorWeightTx do`, 400)
  const stored = network.primary.pchain.state.getTx(id)
  if (!stored) {
    // The hosted operation takes X-chain ids too; none of them makes a P-chain message.
    const xTx = network.primary.xchain.getTx(id)
    throw xTx ? noMessage(`X-Chain ${xTx.tx.unsigned.type}`) : new TxWarpMessageError(`Transaction ${txHash} not found`, 404)
  }
  const tx = (stored.tx as PChainSignedTx).unsigned
  const state = network.primary.pchain.state
  switch (tx.type) {
    case 'ConvertSubnetToL1Tx': {
      const subnetId = idToString(tx.subnetId)
      const conversion = state.getSubnet(subnetId)?.conversion
      if (!conversion) throw noMessage(tx.type)
      return { message: pchainWarpMessage(network, encodeSubnetToL1Conversion(idFromString(conversion.conversionId))), justification: tx.subnetId, signingSubnetId: subnetId }
    }
    case 'RegisterL1ValidatorTx': {
      const register = parseAddressedCall(parseUnsignedMessage(signedMessageUnsigned(tx.message)).payload).payload
      const validationId = registerValidationId(register)
      const validator = state.getL1Validator(idToString(validationId))
      const subnetId = validator?.subnetId ?? idToString(parseRegisterL1Validator(register).subnetId)
      // Registered: the validation id says it all. Gone: the RegisterL1Validator message proves it can never be registered again.
      const justification = validator ? new Uint8Array(0) : registerJustification(register)
      return { message: pchainWarpMessage(network, encodeL1ValidatorRegistration(validationId, validator !== undefined)), justification, signingSubnetId: subnetId }
    }
    case 'SetL1ValidatorWeightTx': {
      const weight = parseL1ValidatorWeight(parseAddressedCall(parseUnsignedMessage(signedMessageUnsigned(tx.message)).payload).payload)
      const validator = state.getL1Validator(idToString(weight.validationId))
      // A removal (weight 0) is acknowledged by the registration message saying it is gone, as the manager completes a removal with.
      if (weight.weight === 0n) return removalRequest(network, weight.validationId)
      return {
        message: pchainWarpMessage(network, encodeL1ValidatorWeight(weight)),
        justification: new Uint8Array(0),
        // A removed validator's subnet is no longer known here: the L1 whose manager sent the weight change.
        ...(validator ? { signingSubnetId: validator.subnetId } : {}),
      }
    }
    default:
      throw noMessage(tx.type)
  }
}

/**
 * `L1ValidatorRegistration(validationID, false)` with the justification that proves it: the
 * RegisterL1Validator message that registered it, or the conversion that made it (SubnetIDIndex),
 * found among the P-chain's accepted txs.
 */
function removalRequest(network: Network, validationId: Uint8Array): AggregateSignaturesRequest {
  const id = idToString(validationId)
  const message = pchainWarpMessage(network, encodeL1ValidatorRegistration(validationId, false))
  for (const stored of network.primary.pchain.state.txs()) {
    const tx = (stored.tx as PChainSignedTx).unsigned
    if (tx.type === 'RegisterL1ValidatorTx') {
      const register = parseAddressedCall(parseUnsignedMessage(signedMessageUnsigned(tx.message)).payload).payload
      if (idToString(registerValidationId(register)) === id) return { message, justification: registerJustification(register), signingSubnetId: idToString(parseRegisterL1Validator(register).subnetId) }
    } else if (tx.type === 'ConvertSubnetToL1Tx') {
      const index = tx.validators.findIndex((_, i) => idToString(conversionValidationId(tx.subnetId, i)) === id)
      if (index >= 0) return { message, justification: conversionJustification(tx.subnetId, index), signingSubnetId: idToString(tx.subnetId) }
    }
  }
  // Not found: the P-chain's verifier refuses the request as the node would.
  return { message, justification: new Uint8Array(0) }
}

/** `L1ValidatorRegistrationJustification{convert_subnet_to_l1_tx_data: SubnetIDIndex{subnet_id, index}}` (protobuf fields 1 → 1, 2). */
function conversionJustification(subnetId: Uint8Array, index: number): Uint8Array {
  const inner = [0x0a, subnetId.length, ...subnetId, ...(index === 0 ? [] : [0x10, ...varint(index)])]
  return Uint8Array.from([0x0a, ...varint(inner.length), ...inner])
}

/** A protobuf varint. */
function varint(n: number): number[] {
  const out: number[] = []
  do {
    out.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0))
    n = Math.floor(n / 128)
  } while (n > 0)
  return out
}

/** The unsigned part of a signed warp message (the P-chain accepted it, so it parses). */
function signedMessageUnsigned(signed: Uint8Array): Uint8Array {
  return parseMessage(signed).unsignedBytes
}

/** `L1ValidatorRegistrationJustification{register_l1_validator_message}` (protobuf field 2, length-delimited). */
function registerJustification(register: Uint8Array): Uint8Array {
  return Uint8Array.from([0x12, ...varint(register.length), ...register])
}

function evmTxRequest(network: Network, hash: string): AggregateSignaturesRequest {
  for (const chain of network.chains) {
    const mined = chain.store.tx(hash as `0x${string}`)
    if (!mined) continue
    const log = mined.receipt.logs.find((l) => l.address === WARP_ADDRESS && l.topics[0] === SEND_WARP_MESSAGE_TOPIC)
    if (!log) throw new TxWarpMessageError(`Transaction ${hash} sent no warp message`, 400)
    return { message: abiDecodeBytes(hexToBytes(log.data as `0x${string}`)) }
  }
  throw new TxWarpMessageError(`Transaction ${hash} not found`, 404)
}
