#!/usr/bin/env node
// The ACP-99 benchmark (issue 16): a full validator registration through a validator manager
// contract, as a user's script runs it against a devnet over HTTP — the manager's
// initiateValidatorRegistration (viem, receipt), its warp message signed by the L1 through
// POST /aggregate-signatures, RegisterL1ValidatorTx built, signed and issued by avalanchejs, the
// P-chain's L1ValidatorRegistration signed through the aggregator, completeValidatorRegistration
// with it as the warp predicate (receipt) — in ms, p50 and p99 over `registrations` validators
// (fresh node identities, weight 1, keys and proofs made before the clock starts). Figures are
// measured, never asserted. Runs on the built dist/ (npm run build).
// `node bench/acp99.js` prints its own table; bench/run.js merges the figures into its table.
import { sha256 } from '@noble/hashes/sha2.js'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createPublicClient, createWalletClient, decodeAbiParameters, defineChain, encodePacked, http } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const now = () => performance.now()
const WARP = '0x0200000000000000000000000000000000000005'
const hex = (b) => `0x${Buffer.from(b).toString('hex')}`
const bytes = (h) => Uint8Array.from(Buffer.from(h.replace(/^0x/, ''), 'hex'))

/** subnet-EVM's predicate packing: the message, 0xff, zero padding to 32 bytes, as storage keys. */
function predicate(signed) {
  const b = bytes(signed)
  const padded = new Uint8Array(Math.ceil((b.length + 1) / 32) * 32)
  padded.set(b)
  padded[b.length] = 0xff
  return Array.from({ length: padded.length / 32 }, (_, i) => hex(padded.subarray(i * 32, i * 32 + 32)))
}

/** The P-chain's unsigned message (source 32 zero bytes, AddressedCall with an empty sender). */
function pchainMessage(networkId, payload) {
  const call = encodePacked(['uint16', 'uint32', 'uint32', 'uint32', 'bytes'], [0, 1, 0, (payload.length - 2) / 2, payload])
  return encodePacked(['uint16', 'uint32', 'bytes32', 'uint32', 'bytes'], [0, networkId, `0x${'00'.repeat(32)}`, (call.length - 2) / 2, call])
}

export async function acp99Bench({ registrations = 100, warmup = 5, log = () => {} } = {}) {
  const { startDevnet } = await import('../dist/index.js')
  const { createNodeIdentity } = await import('../dist/core/keys.js')
  const { Context, pvm, utils, secp256k1, addTxSignatures, L1Validator, PChainOwner, pvmSerial } = await import('@avalabs/avalanchejs')
  const manager = JSON.parse(readFileSync(join(root, 'test/fixtures/contracts/PoAValidatorManager.json'), 'utf8'))
  const account = mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: 1 })
  const AVAX = 1_000_000_000n

  const devnet = await startDevnet({ port: 0, nodes: 3 })
  try {
    const network = devnet.network
    const networkId = network.preset.networkId
    const post = async (path, body) => {
      const res = await fetch(`${devnet.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      const json = await res.json()
      if (res.status !== 200 || json.error) throw new Error(`${path}: ${JSON.stringify(json.error)}`)
      return json
    }
    const aggregate = async (body) => `0x${(await post('/aggregate-signatures', body))['signed-message']}`

    // The P-chain client, as avalanchejs' examples set it up.
    const key = bytes(network.devAccounts[1].privateKey)
    const addr = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(key))
    const context = await Context.getContextFromURI(devnet.url)
    const pvmApi = new pvm.PVMApi(devnet.url)
    const pAddr = utils.format('P', context.hrp, addr)
    const common = async () => ({ feeState: await pvmApi.getFeeState(), fromAddressesBytes: [addr], utxos: (await pvmApi.getUTXOs({ addresses: [pAddr] })).utxos })
    const issue = async (unsignedTx, all = false) => {
      if (all) {
        const signature = await secp256k1.sign(unsignedTx.toBytes(), key)
        for (let i = 0; i < unsignedTx.getCredentials().length; i++) unsignedTx.addSignatureAt(signature, i, 0)
      } else await addTxSignatures({ unsignedTx, privateKeys: [key] })
      return (await pvmApi.issueSignedTx(unsignedTx.getSignedTx())).txID
    }

    // A subnet, its subnet-EVM chain with the manager deployed, converted naming the manager.
    const { p } = network.wallets(1)
    const { subnetId } = p.createSubnet()
    const chainId = 7099
    const genesis = {
      config: { chainId, feeConfig: { gasLimit: 20_000_000, minBaseFee: 1_000_000_000, targetGas: 100_000_000, baseFeeChangeDenominator: 48, minBlockGasCost: 0, maxBlockGasCost: 10_000_000, targetBlockRate: 2, blockGasCostStep: 500_000 }, warpConfig: { blockTimestamp: 1607144400 } },
      alloc: { [account.address]: { balance: '0x52B7D2DCC80CD2E4000000' } }, gasLimit: '0x1312D00', timestamp: '0x5FCB13D0', difficulty: '0x0',
    }
    const { blockchainId } = p.createChain({ subnetId, name: 'acp99bench', vmId: 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy', genesis: JSON.stringify(genesis) })
    await network.startChainFromP(blockchainId)
    const chain = defineChain({ id: chainId, name: 'acp99bench', nativeCurrency: { name: 'T', symbol: 'T', decimals: 18 }, rpcUrls: { default: { http: [devnet.rpcUrl(blockchainId)] } } })
    const client = createPublicClient({ chain, transport: http() })
    const wallet = createWalletClient({ chain, account, transport: http() })
    const idHex = (id) => hex(utils.base58check.decode(id))
    const nodeIdHex = (nodeId) => hex(utils.base58check.decode(nodeId.replace(/^NodeID-/, '')))
    const address = (await client.getTransactionReceipt({ hash: await wallet.deployContract({ abi: manager.abi, bytecode: manager.bytecode, args: [idHex(subnetId)] }) })).contractAddress
    const call = async (functionName, args, signed) => client.getTransactionReceipt({
      hash: await wallet.writeContract({ address, abi: manager.abi, functionName, args, ...(signed ? { accessList: [{ address: WARP, storageKeys: predicate(signed) }] } : {}) }),
    })

    const owner = PChainOwner.fromNative([addr], 1)
    const initial = network.nodes.map((n) => n.identity).sort((a, b) => (nodeIdHex(a.nodeId) < nodeIdHex(b.nodeId) ? -1 : 1))
    const validators = initial.map((n) => L1Validator.fromNative(n.nodeId, 100n, AVAX, new pvmSerial.ProofOfPossession(bytes(n.blsPublicKey), bytes(n.proofOfPossession)), owner, owner))
    await issue(pvm.newConvertSubnetToL1Tx({ ...(await common()), subnetId, chainId: blockchainId, validators, subnetAuth: [0], address: bytes(address) }, context), true)
    const conversion = {
      subnetID: idHex(subnetId), validatorManagerBlockchainID: idHex(blockchainId), validatorManagerAddress: address,
      initialValidators: initial.map((n) => ({ nodeID: nodeIdHex(n.nodeId), blsPublicKey: n.blsPublicKey, weight: 100n })),
    }
    let packed = encodePacked(['uint16', 'bytes32', 'bytes32', 'uint32', 'address', 'uint32'], [0, conversion.subnetID, conversion.validatorManagerBlockchainID, 20, address, initial.length])
    for (const v of conversion.initialValidators) packed += encodePacked(['uint32', 'bytes', 'bytes', 'uint64'], [20, v.nodeID, v.blsPublicKey, v.weight]).slice(2)
    const conversionId = hex(sha256(bytes(packed)))
    const signedConversion = await aggregate({ message: pchainMessage(networkId, encodePacked(['uint16', 'uint32', 'bytes32'], [0, 0, conversionId])), justification: conversion.subnetID, 'signing-subnet-id': subnetId })
    await call('initializeValidatorSet', [conversion, 0], signedConversion)

    // Fresh validators: keys and proofs derived before the clock starts.
    let t = now()
    const fresh = Array.from({ length: warmup + registrations }, (_, i) => {
      const id = createNodeIdentity(sha256(new TextEncoder().encode(`bench/acp99/${i}`)))
      return { nodeID: nodeIdHex(id.nodeId), blsPublicKey: id.blsPublicKey, pop: id.proofOfPossession }
    })
    log(`acp99 bench: ${fresh.length} node identities in ${(now() - t).toFixed(0)} ms`)
    const pOwner = { threshold: 1, addresses: [hex(addr)] }

    const register = async (v) => {
      const initiated = await call('initiateValidatorRegistration', [v.nodeID, v.blsPublicKey, pOwner, pOwner, 1n])
      const log = initiated.logs.find((l) => l.address.toLowerCase() === WARP)
      const [unsigned] = decodeAbiParameters([{ type: 'bytes' }], log.data)
      const payload = `0x${unsigned.slice(2 + 2 * 76)}`
      const validationId = hex(sha256(bytes(payload)))
      const signed = await aggregate({ message: log.data })
      await issue(pvm.newRegisterL1ValidatorTx({ ...(await common()), balance: AVAX, blsSignature: bytes(v.pop), message: bytes(signed) }, context))
      const ack = await aggregate({ message: pchainMessage(networkId, encodePacked(['uint16', 'uint32', 'bytes32', 'bool'], [0, 2, validationId, true])), 'signing-subnet-id': subnetId })
      const completed = await call('completeValidatorRegistration', [0], ack)
      if (completed.status !== 'success') throw new Error(`completeValidatorRegistration reverted for ${validationId}`)
    }
    for (const v of fresh.slice(0, warmup)) await register(v)
    const samples = []
    t = now()
    for (const v of fresh.slice(warmup)) {
      const s = now()
      await register(v)
      samples.push(now() - s)
    }
    log(`acp99 bench: ${registrations} registrations in ${(now() - t).toFixed(0)} ms; ${network.validators.current(subnetId).length} validators on the L1`)
    samples.sort((a, b) => a - b)
    const pct = (q) => samples[Math.min(samples.length - 1, Math.floor((q / 100) * samples.length))]
    return { acp99_registrationP50Ms: +pct(50).toFixed(3), acp99_registrationP99Ms: +pct(99).toFixed(3), acp99_registrations: samples.length }
  } finally {
    await devnet.close()
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const results = await acp99Bench({ log: (m) => console.log(m) })
  console.table(Object.entries(results).map(([metric, value]) => ({ metric, value })))
}
