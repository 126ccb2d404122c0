import { sha256 } from '@noble/hashes/sha2.js'
import { describe, expect, it } from 'vitest'
import { cb58Encode } from '../../../src/core/cb58.js'
import { hexToBytes } from '../../../src/core/hex.js'
import { PRIMARY_NETWORK_ID, idFromString } from '../../../src/core/ids.js'
import { DEFAULT_MNEMONIC, createNodeIdentity, deriveDevAccounts } from '../../../src/core/keys.js'
import { canonicalValidatorSet, verifyWarpMessage } from '../../../src/evm/warp/signature.js'
import type { ValidatorEntry } from '../../../src/network/validators.js'
import { NETWORK_PRESETS } from '../../../src/network/presets.js'
import { SharedMemory } from '../../../src/platform/atomic.js'
import { decodeUtxo, encodeSignedTx, encodeUtxo, txId, utxoId } from '../../../src/platform/codec.js'
import { PChainAtomicMemory, sharedMemoryKey } from '../../../src/platform/pchain/atomicAdapter.js'
import { authenticate } from '../../../src/platform/pchain/auth.js'
import { PChain, PChainTxError, pchainConfig } from '../../../src/platform/pchain/index.js'
import { PWallet, signPChainTx } from '../../../src/platform/pchain/wallet.js'
import { addressFromPrivateKey } from '../../../src/platform/secp256k1fx.js'
import type { PChainSignedTx, Utxo } from '../../../src/platform/txs.js'
import { showId } from '../../../src/platform/txs.js'
import { CChainAtomic } from '../../../src/platform/xchain/cchainAtomic.js'
import { X2C_RATE } from '../../../src/platform/xchain/cAtomicVerify.js'
import { XChain } from '../../../src/platform/xchain/chain.js'
import { Keychain, XWallet, devAccountAllocations } from '../../../src/platform/xchain/wallet.js'
import { FakeEvm } from '../xchain/helpers.js'

const preset = NETWORK_PRESETS.local
const AVAX_ID = preset.avaxAssetId
const AVAX = 1_000_000_000n
const DAY = 86_400
const T0 = 1_767_225_600
const FUNDS = 1_000_000n * AVAX
const LOCKED = 5_000n * AVAX
const LOCKTIME = BigInt(T0 + 365 * DAY)
const GENESIS = sha256(new TextEncoder().encode('p-genesis'))
const MANAGER = new Uint8Array(20).fill(0xee)

const accounts = deriveDevAccounts({ mnemonic: DEFAULT_MNEMONIC, count: 3 })
const keys = accounts.map((a) => hexToBytes(a.privateKey))
const addrs = keys.map((k) => addressFromPrivateKey(k))
const node = (name: string) => createNodeIdentity(sha256(new TextEncoder().encode(name)))
/** The sorted validation ids of a pushed set's active validators (the set also holds inactive L1 validators). */
const activeIds = (set: readonly ValidatorEntry[] | undefined) => (set ?? []).filter((e) => e.isActive !== false).map((e) => e.validationId).sort()

function setup() {
  const sharedMemory = new SharedMemory()
  const sets = new Map<string, readonly ValidatorEntry[]>()
  const genesisUtxos: Utxo[] = addrs.map((a, i) => ({
    txId: GENESIS, outputIndex: i, assetId: idFromString(AVAX_ID),
    output: { type: 'TransferOutput', amount: FUNDS, owners: { locktime: 0n, threshold: 1, addrs: [a] } },
  }))
  // account 2 also holds stakeable-locked AVAX (as genesis allocations do)
  genesisUtxos.push({
    txId: GENESIS, outputIndex: 3, assetId: idFromString(AVAX_ID),
    output: { type: 'StakeableLockOut', locktime: LOCKTIME, output: { type: 'TransferOutput', amount: LOCKED, owners: { locktime: 0n, threshold: 1, addrs: [addrs[2]!] } } },
  })
  const chain = new PChain({
    config: pchainConfig('local', { avaxAssetId: AVAX_ID }),
    genesisTimestamp: T0,
    initialSupply: 360_000_000n * AVAX,
    genesis: { utxos: genesisUtxos },
    authenticate,
    atomic: new PChainAtomicMemory({ sharedMemory }),
    listener: { set: (id, entries) => sets.set(id, entries) },
  })
  const keychains = keys.map((k) => new Keychain([k]))
  const wallets = keychains.map((kc) => new PWallet(chain, kc, { sharedMemory }))
  return { chain, sharedMemory, sets, keychains, wallets }
}

const amountAt = (chain: PChain, id: string, index: number) => {
  const out = chain.getUtxo(id, index)?.utxo.output
  return out?.type === 'TransferOutput' ? out.amount : out?.type === 'StakeableLockOut' ? out.output.amount : undefined
}

function refusal(f: () => unknown): PChainTxError {
  try {
    f()
  } catch (err) {
    if (err instanceof PChainTxError) return err
    throw err
  }
  throw new Error('expected a refusal')
}

describe('authenticate (real secp256k1 signatures)', () => {
  it('gives the codec tx id and the recovered signer of every signature', () => {
    const { wallets } = setup()
    const tx = wallets[0]!.buildSend([{ address: addrs[1]!, amount: AVAX }])
    const auth = authenticate(tx)
    expect(showId(auth.txId)).toBe(txId(encodeSignedTx('P', tx)))
    expect(auth.signers).toEqual([[addrs[0]]])
  })
})

describe('PWallet: primary network lifecycle with real signatures', () => {
  it('adds a validator and a delegator, pays rewards at end time and returns the stake', () => {
    const { chain, sets, wallets } = setup()
    const [wa, wb] = wallets as [PWallet, PWallet, PWallet]
    const n1 = node('node-1')
    const stake = 2_000n * AVAX
    const before = wa.balance()
    const v = wa.addValidator({ node: n1, stake, end: T0 + 30 * DAY, delegationFee: 100_000 })
    expect(v.height).toBe(1)
    expect(v.fee).toBeGreaterThan(0n)
    expect(v.fee).toBe(chain.fee(v.tx.unsigned))
    expect(v.txId).toBe(txId(encodeSignedTx('P', v.tx)))
    expect(wa.balance()).toBe(before - stake - v.fee)
    expect(chain.validationStatus(v.txId)).toBe('active')
    const staker = chain.state.getCurrentValidator(PRIMARY_NETWORK_ID, n1.nodeId)!
    expect(staker.blsPublicKey).toBe(n1.blsPublicKey)
    expect(sets.get(PRIMARY_NETWORK_ID)?.map((e) => [e.nodeId, e.weight])).toEqual([[n1.nodeId, stake]])

    const dStake = 100n * AVAX
    const bBefore = wb.balance()
    const d = wb.addDelegator({ nodeId: n1.nodeId, stake: dStake, end: T0 + 20 * DAY })
    expect(d.height).toBe(2)
    expect(wb.balance()).toBe(bBefore - dStake - d.fee)
    expect(sets.get(PRIMARY_NETWORK_ID)?.map((e) => e.weight)).toEqual([stake + dStake])
    const delegator = [...chain.state.d.currentDelegators.values()][0]!

    chain.advanceTo(T0 + 31 * DAY)
    expect(chain.validationStatus(v.txId)).toBe('completed')
    expect(chain.validationStatus(d.txId)).toBe('completed')
    expect(sets.get(PRIMARY_NETWORK_ID)).toEqual([])
    // stake back at len(outs), then the rewards
    const vOuts = (v.tx.unsigned as { base: { outputs: unknown[] } }).base.outputs.length
    const dOuts = (d.tx.unsigned as { base: { outputs: unknown[] } }).base.outputs.length
    expect(amountAt(chain, v.txId, vOuts)).toBe(stake)
    expect(amountAt(chain, v.txId, vOuts + 1)).toBe(staker.potentialReward)
    expect(amountAt(chain, d.txId, dOuts)).toBe(dStake)
    const delegatorReward = amountAt(chain, d.txId, dOuts + 1)!
    const delegateeReward = amountAt(chain, v.txId, vOuts + 2)!
    expect(delegatorReward + delegateeReward).toBe(delegator.potentialReward)
    expect(chain.getUtxo(d.txId, dOuts + 1)?.reward).toBe(true)
    expect(wa.balance()).toBe(before - v.fee + staker.potentialReward + delegateeReward)
    expect(wb.balance()).toBe(bBefore - d.fee + delegatorReward)
    // the spent genesis UTXO records who consumed it
    expect(chain.state.d.spent.get(`${showId(GENESIS)}:0`)?.consumed).toMatchObject({ txId: v.txId, height: 1 })
  })

  it('stakes stakeable-locked funds first, keeping the remainder and the returned stake locked', () => {
    const { chain, wallets } = setup()
    const wc = wallets[2]!
    const n2 = node('node-2')
    const stake = 3_000n * AVAX
    const before = wc.balance()
    const v = wc.addValidator({ node: n2, stake, end: T0 + 30 * DAY })
    const tx = v.tx.unsigned
    if (tx.type !== 'AddPermissionlessValidatorTx') throw new Error('wrong type')
    expect(tx.stakeOuts.map((o) => o.output)).toEqual([
      { type: 'StakeableLockOut', locktime: LOCKTIME, output: { type: 'TransferOutput', amount: stake, owners: { locktime: 0n, threshold: 1, addrs: [addrs[2]] } } },
    ])
    expect(tx.base.inputs.map((i) => i.input.type).sort()).toEqual(['StakeableLockIn', 'TransferInput'])
    expect(tx.base.outputs.find((o) => o.output.type === 'StakeableLockOut')?.output).toMatchObject({ locktime: LOCKTIME, output: { amount: LOCKED - stake } })
    // only the fee came from unlocked funds
    expect(wc.balance()).toBe(before - v.fee)
    chain.advanceTo(T0 + 31 * DAY)
    const returned = chain.getUtxo(v.txId, tx.base.outputs.length)!.utxo.output
    expect(returned).toMatchObject({ type: 'StakeableLockOut', locktime: LOCKTIME, output: { amount: stake } })
  })

  it('adds, removes and re-owns a permissioned subnet validator', () => {
    const { chain, wallets } = setup()
    const [wa, wb] = wallets as [PWallet, PWallet, PWallet]
    const n1 = node('node-1')
    wa.addValidator({ node: n1, stake: 2_000n * AVAX, end: T0 + 30 * DAY })
    const { subnetId } = wa.createSubnet()
    const add = wa.addSubnetValidator({ subnetId, nodeId: n1.nodeId, weight: 10n, end: T0 + 20 * DAY })
    expect(chain.validationStatus(add.txId)).toBe('active')
    const rm = wa.removeSubnetValidator({ subnetId, nodeId: n1.nodeId })
    expect(chain.validationStatus(add.txId)).toBe('removed')
    expect(rm.height).toBe(add.height + 1)
    wa.transferSubnetOwnership({ subnetId, owner: { addresses: [addrs[1]!] } })
    expect(() => wa.buildCreateChain({ subnetId, name: 'x', vmId: new Uint8Array(32), genesis: '{}' })).toThrow(`the keychain cannot sign for the owner of subnet ${subnetId}`)
    const c = wb.createChain({ subnetId, name: 'x', vmId: new Uint8Array(32), genesis: '{}' })
    expect(chain.state.getBlockchain(c.blockchainId)).toMatchObject({ subnetId, name: 'x' })
  })
})

describe('PWallet: L1 with real signatures', () => {
  it('creates a subnet and chain, converts with three validators, runs one dry, tops it up, re-weights, registers and disables', () => {
    const { chain, sets, wallets } = setup()
    const wa = wallets[0]!
    const { subnetId } = wa.createSubnet()
    const { blockchainId } = wa.createChain({ subnetId, name: 'l1', vmId: new Uint8Array(32).fill(1), genesis: '{"config":{}}' })
    const nodes = [node('l1-a'), node('l1-b'), node('l1-c')]
    const conv = wa.convertSubnetToL1({
      subnetId, chainId: blockchainId, address: MANAGER,
      validators: nodes.map((n, i) => ({ node: n, weight: 100n, balance: i === 0 ? 1000n : AVAX })),
    })
    const vid = (n: { nodeId: string }) => conv.validators.find((v) => v.nodeId === n.nodeId)!.validationId
    const [va, vb, vc] = nodes.map(vid) as [string, string, string]
    expect(chain.state.getSubnet(subnetId)?.conversion).toMatchObject({ chainId: blockchainId })
    expect(sets.get(subnetId)?.map((e) => e.validationId).sort()).toEqual([va, vb, vc].sort())
    expect(chain.state.getL1Validator(va)?.publicKey).toBe(nodes[0]!.blsPublicKey)

    // 1 nAVAX/s at 3 active validators: 1000 nAVAX lasts 1000 s
    chain.advanceTo(chain.timestamp + 1001)
    expect(chain.state.getL1Validator(va)!.endAccumulatedFee).toBe(0n)
    expect(activeIds(sets.get(subnetId))).toEqual([vb, vc].sort())
    expect(sets.get(subnetId)?.find((e) => e.validationId === va)?.isActive).toBe(false)

    wa.increaseL1ValidatorBalance({ validationId: va, amount: 5000n })
    expect(chain.l1ValidatorBalance(chain.state.getL1Validator(va)!)).toBe(5000n)
    expect(activeIds(sets.get(subnetId))).toHaveLength(3)

    // re-weight with a warp message signed by the L1's validators
    const w = wa.setL1ValidatorWeight({ validationId: vb, weight: 250n, warpSigners: nodes })
    expect(chain.state.getL1Validator(vb)).toMatchObject({ weight: 250n, minNonce: 1n })
    expect(sets.get(subnetId)?.find((e) => e.validationId === vb)?.weight).toBe(250n)
    const message = (w.tx.unsigned as { message: Uint8Array }).message
    const l1Set = canonicalValidatorSet([...sets.get(subnetId)!].map((e) => (e.validationId === vb ? { ...e, weight: 100n } : e)))
    expect(verifyWarpMessage({ message, networkId: preset.networkId, validators: l1Set })).toBeUndefined()
    // the same nonce again is stale
    const before = chain.serialize()
    expect(() => wa.setL1ValidatorWeight({ validationId: vb, weight: 300n, nonce: 0n, warpSigners: nodes })).toThrow('warp message contains stale nonce 0 must be at least 1')
    // unsigned, or signed by one validator of three: under the 67% quorum of the L1's weight (450)
    expect(() => wa.setL1ValidatorWeight({ validationId: vb, weight: 300n })).toThrow('failed verification: failed verifying warp messages: signature weight is insufficient: 67*450 > 100*0')
    expect(() => wa.setL1ValidatorWeight({ validationId: vb, weight: 300n, warpSigners: [nodes[1]!] })).toThrow('failed verifying warp messages: signature weight is insufficient: 67*450 > 100*250')
    expect(chain.serialize()).toBe(before)

    // register a fourth validator through the manager
    const nd = node('l1-d')
    const reg = wa.registerL1Validator({ subnetId, node: nd, weight: 50n, balance: AVAX, warpSigners: nodes })
    expect(chain.state.getL1Validator(reg.validationId)).toMatchObject({ nodeId: nd.nodeId, weight: 50n, publicKey: nd.blsPublicKey })
    expect(sets.get(subnetId)).toHaveLength(4)

    // disable vc: its remaining balance is refunded to its owner
    const balanceC = chain.l1ValidatorBalance(chain.state.getL1Validator(vc)!)
    const dis = wa.disableL1Validator({ validationId: vc })
    expect(chain.state.getL1Validator(vc)!.endAccumulatedFee).toBe(0n)
    const outs = (dis.tx.unsigned as { base: { outputs: unknown[] } }).base.outputs.length
    expect(chain.getUtxo(dis.txId, outs)?.utxo.output).toMatchObject({ amount: balanceC, owners: { addrs: [addrs[0]] } })
    expect(activeIds(sets.get(subnetId))).not.toContain(vc)
    expect(activeIds(sets.get(subnetId))).toHaveLength(3)
    expect(sets.get(subnetId)?.find((e) => e.validationId === vc)?.isActive).toBe(false)
  })
})

describe('PWallet: transfers through shared memory', () => {
  it('P → X → P and P → C → P with consistent balances and shared memory', () => {
    const { chain, sharedMemory, keychains, wallets } = setup()
    const pw = wallets[0]!
    const clock = { now: () => chain.timestamp }
    const x = new XChain({ clock, sharedMemory, genesis: devAccountAllocations(accounts, FUNDS) })
    const xw = new XWallet(x, keychains[0]!)
    const A = addrs[0]!

    // P → X
    const p0 = pw.balance()
    const exp = pw.exportTo('X', { to: A, amount: 10n * AVAX })
    expect(pw.balance()).toBe(p0 - 10n * AVAX - exp.fee)
    const elements = sharedMemory.list(preset.pChainId, preset.xChainId)
    expect(elements).toHaveLength(1)
    const outs = (exp.tx.unsigned as { base: { outputs: unknown[] } }).base.outputs.length
    expect(elements[0]!.key).toEqual(utxoId(idFromString(exp.txId), outs))
    expect(elements[0]!.traits).toEqual([A])
    expect(decodeUtxo('X', elements[0]!.value).output).toMatchObject({ type: 'TransferOutput', amount: 10n * AVAX })
    const x0 = x.balanceOf(A)
    x.issueTx(xw.import({ sourceChain: preset.pChainId }))
    expect(x.balanceOf(A)).toBe(x0 + 10n * AVAX - x.txFee)
    expect(sharedMemory.list(preset.pChainId, preset.xChainId)).toEqual([])

    // X → P
    x.issueTx(xw.export({ destinationChain: preset.pChainId, to: A, amount: 5n * AVAX }))
    const p1 = pw.balance()
    const imp = pw.importFrom('X')
    expect(pw.balance()).toBe(p1 + 5n * AVAX - imp.fee)
    expect(sharedMemory.list(preset.xChainId, preset.pChainId)).toEqual([])
    expect(() => pw.importFrom('X')).toThrow('no spendable funds were found')

    // P → C
    const evm = new FakeEvm()
    const c = new CChainAtomic({ sharedMemory, evm, clock })
    const eth = hexToBytes(accounts[0]!.address.toLowerCase() as `0x${string}`)
    pw.exportTo('C', { to: A, amount: 3n * AVAX })
    const cImport = c.issueTx(c.buildImportTx({ sourceChain: preset.pChainId, to: eth, keychain: keychains[0]! }))
    expect(evm.getBalance(eth)).toBe((3n * AVAX - cImport.burned) * X2C_RATE)

    // C → P
    c.issueTx(c.buildExportTx({ destinationChain: preset.pChainId, to: A, amount: AVAX, privateKey: keys[0]! }))
    const p2 = pw.balance()
    const imp2 = pw.importFrom('C')
    expect(pw.balance()).toBe(p2 + AVAX - imp2.fee)
    for (const [s, d] of [[preset.pChainId, preset.cChainId], [preset.cChainId, preset.pChainId]] as const) expect(sharedMemory.list(s, d)).toEqual([])
  })

  it('the adapter keys UTXOs as shared memory does and refuses chains off the primary network', () => {
    const { chain, sharedMemory, wallets } = setup()
    const atomic = new PChainAtomicMemory({ sharedMemory })
    const u: Utxo = { txId: GENESIS, outputIndex: 7, assetId: idFromString(AVAX_ID), output: { type: 'TransferOutput', amount: 5n, owners: { locktime: 0n, threshold: 1, addrs: [addrs[1]!] } } }
    expect(sharedMemoryKey(`${showId(GENESIS)}:7`)).toEqual(utxoId(GENESIS, 7))
    atomic.export(preset.xChainId, [u])
    expect(sharedMemory.list(preset.pChainId, preset.xChainId)).toEqual([{ key: utxoId(GENESIS, 7), value: encodeUtxo('P', u), traits: [addrs[1]] }])
    // the X-chain's export direction is what P imports from
    sharedMemory.put(preset.xChainId, preset.pChainId, [{ key: utxoId(GENESIS, 8), value: encodeUtxo('X', { ...u, outputIndex: 8 }), traits: [addrs[1]!] }])
    expect(atomic.get(preset.xChainId, [`${showId(GENESIS)}:8`])).toEqual([{ ...u, outputIndex: 8 }])
    expect(() => atomic.get(preset.xChainId, [`${showId(GENESIS)}:9`])).toThrow('not found')
    const before = chain.serialize()
    const elsewhere = showId(sha256(new TextEncoder().encode('some-l1-chain')))
    expect(() => wallets[0]!.exportTo(elsewhere, { to: addrs[0]!, amount: AVAX })).toThrow(`failed to get subnet of "${elsewhere}": not found`)
    expect(() => wallets[0]!.exportTo(preset.pChainId, { to: addrs[0]!, amount: AVAX })).toThrow('same chainID')
    expect(chain.serialize()).toBe(before)
  })
})

describe('PWallet: refusals with real signatures', () => {
  it('a credential signed by the wrong key is refused with the real message and changes nothing', () => {
    const { chain, wallets } = setup()
    const good = wallets[0]!.buildSend([{ address: addrs[1]!, amount: AVAX }])
    const forged: PChainSignedTx = signPChainTx(good.unsigned, [[keys[1]!]])
    const before = chain.serialize()
    const err = refusal(() => chain.issueTx(forged))
    expect(err.message).toBe(`failed to verify transfer: wrong signature: expected signature from ${cb58Encode(addrs[0]!)} but got from ${cb58Encode(addrs[1]!)}`)
    expect(chain.serialize()).toBe(before)
    // a signature that recovers nothing
    const broken: PChainSignedTx = { unsigned: good.unsigned, credentials: [{ sigs: [good.credentials[0]!.sigs[0]!.slice()] }] }
    broken.credentials[0]!.sigs[0]![64] = 9
    expect(refusal(() => chain.issueTx(broken)).message).toBe('failed to verify transfer: invalid signature')
    expect(chain.serialize()).toBe(before)
    // the honest tx goes through
    expect(chain.issueTx(good).txId).toBe(txId(encodeSignedTx('P', good)))
  })

  it('subnet authorization by a key that does not own the subnet is refused', () => {
    const { chain, wallets } = setup()
    const { subnetId } = wallets[0]!.createSubnet()
    const good = wallets[0]!.buildCreateChain({ subnetId, name: 'x', vmId: new Uint8Array(32), genesis: '{}' })
    const forged = signPChainTx(good.unsigned, [[keys[0]!], [keys[2]!]])
    const before = chain.serialize()
    expect(refusal(() => chain.issueTx(forged)).message).toBe(`unauthorized modification: wrong signature: expected signature from ${cb58Encode(addrs[0]!)} but got from ${cb58Encode(addrs[2]!)}`)
    expect(chain.serialize()).toBe(before)
  })
})
