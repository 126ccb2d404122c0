import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { InvalidStateError } from '../core/errors.js'
import type { Hex } from '../core/hex.js'
import { idFromString, idToString, nodeIdToString } from '../core/ids.js'
import { abiDecodeBytes } from '../evm/warp/abi.js'
import { parseAddressedCall, parseUnsignedMessage } from '../evm/warp/codec.js'
import { packPredicateHex, WARP_ADDRESS } from '../evm/warp/predicate.js'
import { SEND_WARP_MESSAGE_TOPIC } from '../evm/warp/precompile.js'
import { encodeRegistrationJustification, pchainWarpMessage } from '../network/pchainWarp.js'
import { encodeL1ValidatorRegistration, encodeL1ValidatorWeight, encodeSubnetToL1Conversion, parsePChainWarpPayload, registerValidationId } from '../platform/pchain/warpMessages.js'
import type { ScenarioContext, Receipt } from './context.js'
import type { StepBodies } from './document.js'
import type { Ref } from './values.js'

/**
 * The steps that carry ACP-77 messages between an L1's validator manager contract and the
 * P-chain, as a user's relayer script does: `convertSubnetToL1` (naming the manager),
 * `toPChain` (a manager's warp message signed by its L1 through the network's signature
 * aggregator, carried by the P-chain tx it asks for) and `fromPChain` (the P-chain's signed
 * message delivered to a contract method as its warp predicate).
 */

type ConvertSpec = { chain: string; manager: Hex | Ref; validators: readonly { name?: string; node: number | 'new'; weight: number; balance: bigint }[] }

/**
 * ConvertSubnetToL1Tx by the subnet's owner, naming `manager` on `chain`: the validators' names
 * become validation refs, and the tx's SubnetToL1ConversionData is kept for `conversion:<subnet>`.
 */
export function convertSubnet(ctx: ScenarioContext, subnetName: string, c: ConvertSpec): void {
  const spec = ctx.scenario.subnets?.find((s) => s.name === subnetName)
  const subnetId = ctx.refs.subnets[subnetName]
  if (!spec || !subnetId) throw new InvalidStateError(`subnet ${subnetName} was not created`)
  const { p } = ctx.wallets(spec.owner)
  const signers = c.validators.map((v) => ctx.signer(v.node))
  const r = p.convertSubnetToL1({
    subnetId,
    chainId: ctx.refs.chains[c.chain]!,
    address: ctx.address(c.manager),
    validators: c.validators.map((v, j) => ({ node: signers[j]!, weight: BigInt(v.weight), balance: v.balance })),
  })
  c.validators.forEach((v, j) => {
    if (v.name) ctx.refs.validations[v.name] = r.validators.find((x) => x.nodeId === signers[j]!.nodeId)!.validationId
  })
  r.validators.forEach((v, index) => ctx.justifications.set(v.validationId, { kind: 'conversion', subnetId: idFromString(subnetId), index }))
  const tx = r.tx.unsigned
  if (tx.type !== 'ConvertSubnetToL1Tx') return
  ctx.conversions.set(subnetName, [
    bytesToHex(tx.subnetId),
    bytesToHex(tx.chainId),
    bytesToHex(tx.address),
    tx.validators.map((v) => [bytesToHex(v.nodeId), bytesToHex(v.signer.publicKey), v.weight]),
  ])
}

/** The SendWarpMessage log of the transaction step `stepName` sent. */
export async function sentWarpLog(ctx: ScenarioContext, stepName: string): Promise<{ data: Hex }> {
  const source = ctx.refs.txs[stepName]
  if (!source) throw new InvalidStateError(`step ${stepName} sent no transaction`)
  const receipt = (await ctx.provider(ctx.chain(source.chain)).request({ method: 'eth_getTransactionReceipt', params: [source.hash] })) as Receipt
  const log = receipt.logs.find((l) => l.address.toLowerCase() === WARP_ADDRESS && l.topics[0] === SEND_WARP_MESSAGE_TOPIC)
  if (!log) throw new InvalidStateError(`step ${stepName} sent no warp message`)
  return log
}

/**
 * `toPChain`: the manager's message, signed by its L1's validators through the aggregator (faults
 * apply), issued in a RegisterL1ValidatorTx (with `balance` and the proof of possession of the
 * network node it registers; `validation` names the validation id) or a SetL1ValidatorWeightTx.
 */
export async function carryToPChain(ctx: ScenarioContext, b: StepBodies['toPChain']): Promise<void> {
  const log = await sentWarpLog(ctx, b.message.name)
  const signed = ctx.network.aggregateSignatures({ message: log.data })
  const raw = parseAddressedCall(parseUnsignedMessage(abiDecodeBytes(hexToBytes(log.data))).payload).payload
  const payload = parsePChainWarpPayload(raw)
  let proofOfPossession: Uint8Array | undefined
  if (payload.type === 'RegisterL1Validator') {
    const nodeId = nodeIdToString(payload.nodeId)
    const node = ctx.network.nodes.find((n) => n.nodeId === nodeId)
    if (!node) throw new InvalidStateError(`the registration names ${nodeId}, not a node of this network: its proof of possession is unknown`)
    proofOfPossession = hexToBytes(node.identity.proofOfPossession)
    const validationId = idToString(registerValidationId(raw))
    ctx.justifications.set(validationId, { kind: 'register', message: raw })
    if (b.validation) ctx.refs.validations[b.validation] = validationId
  } else if (b.validation) throw new InvalidStateError(`validation names a registration, but step ${b.message.name} sent a ${payload.type} message`)
  ctx.wallets(b.account).p.carryWarpMessage({ message: signed, ...(b.balance !== undefined ? { balance: b.balance } : {}), ...(proofOfPossession ? { proofOfPossession } : {}) })
}

/**
 * `fromPChain`: the P-chain's ACP-77 message — the subnet's conversion, a validation registered,
 * removed (or expired), or its current weight acknowledged — with the justification the P-chain's
 * validators ask for, signed by the destination chain's subnet through the aggregator, then
 * `method` called with it as the warp predicate (index 0).
 */
export async function deliverFromPChain(ctx: ScenarioContext, b: StepBodies['fromPChain'], label: string | undefined): Promise<void> {
  const network = ctx.network
  const state = network.primary.pchain.state
  const m = b.message
  const validationId = (ref: Ref) => {
    const id = ctx.refs.validations[ref.name]
    if (!id) throw new InvalidStateError(`validation ${ref.name} is not known yet`)
    return id
  }
  let payload: Uint8Array
  let justification: Uint8Array = new Uint8Array(0)
  if (m.kind === 'conversion') {
    const subnetId = ctx.refs.subnets[m.body.name]!
    const conversion = state.getSubnet(subnetId)?.conversion
    if (!conversion) throw new InvalidStateError(`subnet ${m.body.name} has not been converted`)
    payload = encodeSubnetToL1Conversion(idFromString(conversion.conversionId))
    justification = idFromString(subnetId)
  } else if (m.kind === 'weight') {
    const id = validationId(m.body)
    const v = state.getL1Validator(id)
    if (!v) throw new InvalidStateError(`validation ${m.body.name} is not an L1 validator`)
    payload = encodeL1ValidatorWeight({ validationId: idFromString(id), nonce: v.minNonce - 1n, weight: v.weight })
  } else {
    const id = validationId(m.body)
    const registered = m.kind === 'registration'
    payload = encodeL1ValidatorRegistration(idFromString(id), registered)
    const preimage = ctx.justifications.get(id)
    // Registered: no justification (the P-chain checks the validation exists), as avalanche-cli asks.
    if (!registered && preimage) justification = encodeRegistrationJustification(preimage)
    else if (!registered) throw new InvalidStateError(`validation ${m.body.name} was not registered by this scenario: no justification for its removal`)
  }
  const destination = ctx.contractChain(b.to, undefined)
  const blockchainId = ctx.refs.chains[ctx.refs.contracts[b.to.name]!.chain]!
  const subnetId = network.l1(blockchainId)?.subnetId ?? state.getBlockchain(blockchainId)?.subnetId
  const signed = network.aggregateSignatures({ message: pchainWarpMessage(network, payload), justification, ...(subnetId ? { signingSubnetId: subnetId } : {}) })
  const { data } = ctx.encodeCall(b.to, b.method, b.args)
  await ctx.send(destination, { from: ctx.from(b.from), to: ctx.address(b.to), data, accessList: [{ address: WARP_ADDRESS as Hex, storageKeys: packPredicateHex(signed) }] }, label)
}
