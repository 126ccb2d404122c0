/**
 * ACP-99 validator management from a contract, as a user drives it against a devnet over HTTP:
 * viem for the L1 (the PoAValidatorManager fixture and its warp messages), @avalabs/avalanchejs
 * for the P-chain txs, the node's `/aggregate-signatures` for the signatures, and the messages'
 * bytes packed here from ACP-77 (not with l1sim's own codec, so the two are checked against each
 * other).
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { createPublicClient, createWalletClient, decodeAbiParameters, defineChain, encodePacked, http, type Account, type Chain, type Hex, type PublicClient, type Transport, type WalletClient } from 'viem'
import { PoAValidatorManager } from '../fixtures/contracts/index.js'
import { alice, testGenesis } from '../l1/helpers.js'
import { AVAX, L1Validator, PChainOwner, common, pClient, pvm, pvmSerial, signAllAndIssue, signAndIssue, utils, type PClient } from '../api/node/pchain.js'
import { call } from '../api/node/helpers.js'
import type { Devnet } from '../../src/index.js'

export const WARP = '0x0200000000000000000000000000000000000005' as const
const SUBNET_EVM = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy'
const DURANGO_LOCAL = 1607144400

export const hex = (b: Uint8Array): Hex => `0x${Buffer.from(b).toString('hex')}`
export const bytes = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h.replace(/^0x/, ''), 'hex'))
/** cb58 id → 32 bytes as hex. */
export const idHex = (id: string): Hex => hex(utils.base58check.decode(id))
/** `NodeID-…` → its 20 bytes as hex. */
export const nodeIdHex = (nodeId: string): Hex => hex(utils.base58check.decode(nodeId.replace(/^NodeID-/, '')))

/** The P-chain's unsigned warp message carrying `payload` (ACP-77): source chain 32 zero bytes, AddressedCall with an empty sender. */
export function pchainMessage(networkId: number, payload: Hex): Hex {
  const call = encodePacked(['uint16', 'uint32', 'uint32', 'uint32', 'bytes'], [0, 1, 0, (payload.length - 2) / 2, payload])
  return encodePacked(['uint16', 'uint32', 'bytes32', 'uint32', 'bytes'], [0, networkId, `0x${'00'.repeat(32)}`, (call.length - 2) / 2, call])
}
export const conversionPayload = (conversionId: Hex) => encodePacked(['uint16', 'uint32', 'bytes32'], [0, 0, conversionId])
export const registrationPayload = (validationId: Hex, registered: boolean) => encodePacked(['uint16', 'uint32', 'bytes32', 'bool'], [0, 2, validationId, registered])
export const weightPayload = (validationId: Hex, nonce: bigint, weight: bigint) => encodePacked(['uint16', 'uint32', 'bytes32', 'uint64', 'uint64'], [0, 3, validationId, nonce, weight])
/** `L1ValidatorRegistrationJustification` (protobuf) with field 2, the RegisterL1Validator message (length < 2^14). */
export function registerJustification(registerMessage: Hex): Hex {
  const n = (registerMessage.length - 2) / 2
  const varint = n < 128 ? [n] : [(n & 0x7f) | 0x80, n >> 7]
  return `0x12${Buffer.from(varint).toString('hex')}${registerMessage.slice(2)}`
}

export type InitialValidator = { nodeID: Hex; blsPublicKey: Hex; weight: bigint }
export type ConversionData = { subnetID: Hex; validatorManagerBlockchainID: Hex; validatorManagerAddress: Hex; initialValidators: InitialValidator[] }

/** The conversion id (ACP-77): sha256 of the packed SubnetToL1ConversionData. */
export function conversionId(d: ConversionData): Hex {
  let packed = encodePacked(['uint16', 'bytes32', 'bytes32', 'uint32', 'address', 'uint32'], [0, d.subnetID, d.validatorManagerBlockchainID, 20, d.validatorManagerAddress, d.initialValidators.length])
  for (const v of d.initialValidators) packed = `${packed}${encodePacked(['uint32', 'bytes', 'bytes', 'uint64'], [20, v.nodeID, v.blsPublicKey, v.weight]).slice(2)}` as Hex
  return hex(sha256(bytes(packed)))
}

/** subnet-EVM's predicate packing: the message, a 0xff delimiter, zero padding to 32 bytes, as storage keys. */
export function predicate(signed: Hex): Hex[] {
  const b = bytes(signed)
  const padded = new Uint8Array(Math.ceil((b.length + 1) / 32) * 32)
  padded.set(b)
  padded[b.length] = 0xff
  return Array.from({ length: padded.length / 32 }, (_, i) => hex(padded.subarray(i * 32, i * 32 + 32)))
}

/** A node's `info.getNodeID`: id and BLS key with proof of possession. */
export async function nodeInfo(url: string): Promise<{ nodeID: string; nodePOP: { publicKey: Hex; proofOfPossession: Hex } }> {
  return (await call(url, '/ext/info', 'info.getNodeID', {})).json.result
}

/** POST `/aggregate-signatures` on node 0; the signed message, or throws the aggregator's `error`. */
export async function aggregate(devnet: Devnet, body: { message: Hex; justification?: Hex; 'signing-subnet-id'?: string; 'quorum-percentage'?: number }): Promise<Hex> {
  const res = await fetch(`${devnet.url}/aggregate-signatures`, { method: 'POST', body: JSON.stringify(body) })
  const json = (await res.json()) as { 'signed-message'?: string; error?: string }
  if (res.status !== 200) throw new Error(json.error)
  return `0x${json['signed-message']}`
}

/** An L1 managed by a PoAValidatorManager: its ids, clients (alice signs) and the conversion data the P-chain hashed. */
export type Acp99L1 = {
  c: PClient
  subnetId: string
  blockchainId: string
  chain: Chain
  client: PublicClient<Transport, Chain>
  wallet: WalletClient<Transport, Chain, Account>
  manager: Hex
  conversion: ConversionData
  networkId: number
}

/**
 * A subnet with a subnet-EVM chain (warp from genesis, chain id `chainId`), the manager deployed on
 * it by alice, and the subnet converted by avalanchejs with nodes `initial` (weight 100 each)
 * naming the manager; the manager is not initialized yet.
 */
export async function acp99L1(devnet: Devnet, account: number, options: { chainId: number; initial: number[]; name: string }): Promise<Acp99L1> {
  const network = devnet.network
  const c = await pClient(devnet.url, network.devAccounts[account]!.privateKey)
  const { p } = network.wallets(account)!
  const { subnetId } = p.createSubnet()
  const { blockchainId } = p.createChain({ subnetId, name: options.name, vmId: SUBNET_EVM, genesis: JSON.stringify(testGenesis({ chainId: options.chainId, warpConfig: { blockTimestamp: DURANGO_LOCAL } })) })
  await network.startChainFromP(blockchainId)
  const chain = defineChain({ id: options.chainId, name: options.name, nativeCurrency: { name: 'T', symbol: 'T', decimals: 18 }, rpcUrls: { default: { http: [devnet.rpcUrl(blockchainId)] } } })
  const client = createPublicClient({ chain, transport: http() }) as PublicClient<Transport, Chain>
  const wallet = createWalletClient({ chain, account: alice, transport: http() })
  const deployHash = await wallet.deployContract({ abi: PoAValidatorManager.abi, bytecode: PoAValidatorManager.bytecode, args: [idHex(subnetId)] })
  const manager = (await client.getTransactionReceipt({ hash: deployHash })).contractAddress!

  const owner = PChainOwner.fromNative([c.addr], 1)
  const infos = (await Promise.all(options.initial.map((i) => nodeInfo(devnet.nodes[i]!.url)))).sort((a, b) => (nodeIdHex(a.nodeID) < nodeIdHex(b.nodeID) ? -1 : 1))
  const validators = infos.map((n) => L1Validator.fromNative(n.nodeID, 100n, AVAX, new pvmSerial.ProofOfPossession(bytes(n.nodePOP.publicKey), bytes(n.nodePOP.proofOfPossession)), owner, owner))
  const tx = pvm.newConvertSubnetToL1Tx({ ...(await common(c)), subnetId, chainId: blockchainId, validators, subnetAuth: [0], address: bytes(manager) }, c.context)
  await signAllAndIssue(c, tx)
  const conversion: ConversionData = {
    subnetID: idHex(subnetId),
    validatorManagerBlockchainID: idHex(blockchainId),
    validatorManagerAddress: manager,
    initialValidators: infos.map((n) => ({ nodeID: nodeIdHex(n.nodeID), blsPublicKey: n.nodePOP.publicKey, weight: 100n })),
  }
  return { c, subnetId, blockchainId, chain, client, wallet, manager, conversion, networkId: network.preset.networkId }
}

/** A manager call by alice (with `signed` as its warp predicate); its receipt. */
export async function managerCall(l1: Acp99L1, functionName: string, args: readonly unknown[], signed?: Hex) {
  const hash = await l1.wallet.writeContract({
    address: l1.manager, abi: PoAValidatorManager.abi, functionName: functionName as never, args: args as never,
    ...(signed ? { accessList: [{ address: WARP, storageKeys: predicate(signed) }] } : {}),
  })
  return l1.client.getTransactionReceipt({ hash })
}

/** The SendWarpMessage log's data of a receipt (what a relayer hands the aggregator) and the unsigned message in it. */
export function sentWarp(receipt: { logs: readonly { address: string; data: Hex }[] }): { data: Hex; unsigned: Hex; payload: Hex } {
  const log = receipt.logs.find((l) => l.address.toLowerCase() === WARP)!
  const [unsigned] = decodeAbiParameters([{ type: 'bytes' }], log.data)
  // unsigned: codec 2, network 4, source 32, length 4, AddressedCall: codec 2, type 4, address length 4 + 20, payload length 4.
  return { data: log.data, unsigned, payload: `0x${unsigned.slice(2 + 2 * (2 + 4 + 32 + 4 + 2 + 4 + 4 + 20 + 4))}` }
}

/** The P-chain message `payload`, signed by the L1's validators through the aggregator. */
export const signedByL1 = (devnet: Devnet, l1: Acp99L1, payload: Hex, justification: Hex) =>
  aggregate(devnet, { message: pchainMessage(l1.networkId, payload), justification, 'signing-subnet-id': l1.subnetId })

export const initializeValidatorSet = async (devnet: Devnet, l1: Acp99L1) => {
  const signed = await signedByL1(devnet, l1, conversionPayload(conversionId(l1.conversion)), idHex(l1.subnetId))
  return managerCall(l1, 'initializeValidatorSet', [l1.conversion, 0], signed)
}

export const registerTx = async (c: PClient, signed: Hex, pop: Hex) =>
  signAndIssue(c, pvm.newRegisterL1ValidatorTx({ ...(await common(c)), balance: AVAX, blsSignature: bytes(pop), message: bytes(signed) }, c.context))
export const weightTx = async (c: PClient, signed: Hex) => signAndIssue(c, pvm.newSetL1ValidatorWeightTx({ ...(await common(c)), message: bytes(signed) }, c.context))

/** A P-chain address as the manager's PChainOwner takes it. */
export const ownerOf = (c: PClient) => ({ threshold: 1, addresses: [hex(c.addr)] })

/**
 * The whole registration of node `node` with `weight`: the manager's call, its message signed by
 * the L1 through the aggregator, RegisterL1ValidatorTx by avalanchejs, the P-chain's signed
 * registration, the completion. Returns the validation id and the RegisterL1Validator message.
 */
export async function registerValidator(devnet: Devnet, l1: Acp99L1, node: number, weight: bigint) {
  const info = await nodeInfo(devnet.nodes[node]!.url)
  const initiated = await managerCall(l1, 'initiateValidatorRegistration', [nodeIdHex(info.nodeID), info.nodePOP.publicKey, ownerOf(l1.c), ownerOf(l1.c), weight])
  const sent = sentWarp(initiated)
  const validationId = hex(sha256(bytes(sent.payload)))
  await registerTx(l1.c, await aggregate(devnet, { message: sent.data }), info.nodePOP.proofOfPossession)
  // Registered: no justification, as avalanche-cli asks (the P-chain checks the validation exists).
  const ack = await signedByL1(devnet, l1, registrationPayload(validationId, true), '0x')
  const completed = await managerCall(l1, 'completeValidatorRegistration', [0], ack)
  return { validationId, registerMessage: sent.payload, nodeID: info.nodeID, initiated, completed }
}

/** A weight change through the manager and the P-chain, acknowledged; returns the nonce used. */
export async function changeWeight(devnet: Devnet, l1: Acp99L1, validationId: Hex, weight: bigint) {
  const sent = sentWarp(await managerCall(l1, 'initiateValidatorWeightUpdate', [validationId, weight]))
  await weightTx(l1.c, await aggregate(devnet, { message: sent.data }))
  const nonce = BigInt(`0x${sent.payload.slice(2 + 2 * 38, 2 + 2 * 46)}`)
  const ack = await signedByL1(devnet, l1, weightPayload(validationId, nonce, weight), '0x')
  return { nonce, completed: await managerCall(l1, 'completeValidatorWeightUpdate', [0], ack) }
}

/** Removal: weight 0 through the P-chain, then its L1ValidatorRegistration(false) justified by the RegisterL1Validator message. */
export async function removeValidator(devnet: Devnet, l1: Acp99L1, validationId: Hex, registerMessage: Hex) {
  const sent = sentWarp(await managerCall(l1, 'initiateValidatorRemoval', [validationId]))
  await weightTx(l1.c, await aggregate(devnet, { message: sent.data }))
  const ack = await signedByL1(devnet, l1, registrationPayload(validationId, false), registerJustification(registerMessage))
  return managerCall(l1, 'completeValidatorRemoval', [0], ack)
}
