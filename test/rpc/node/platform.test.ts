import { sha256 } from '@noble/hashes/sha2.js'
import { describe, expect, it } from 'vitest'
import { formatAddress } from '../../../src/core/address.js'
import { cb58Encode } from '../../../src/core/cb58.js'
import { bytesToHex } from '../../../src/core/hex.js'
import { EMPTY_ID, PRIMARY_NETWORK_ID, idToString } from '../../../src/core/ids.js'
import { SharedMemory } from '../../../src/platform/atomic.js'
import { encodeSignedTx, encodeUtxo, utxoId } from '../../../src/platform/codec.js'
import { PChain, pchainConfig, type PChain as PChainType } from '../../../src/platform/pchain/index.js'
import { showId, showNodeId, type PChainSignedTx, type Utxo } from '../../../src/platform/txs.js'
import { createNodeDispatcher } from '../../../src/rpc/node/dispatcher.js'
import { encodeGoJson } from '../../../src/rpc/node/goJson.js'
import { INVALID_ARGUMENT_MESSAGE } from '../../../src/rpc/node/types.js'
import { platformService, type PlatformContext } from '../../../src/rpc/node/platform/index.js'
import { AVAX, AVAX_ID, DAY, GENESIS_TX, MemAtomic, T0, addr, avaxId, fakeAuth, idOf, nodeId, owners, spend } from '../../platform/pchain/helpers.js'

const A = addr(1)
const B = addr(2)
const LOCKED = addr(4)
const EMPTY = addr(9)
const MANAGER = new Uint8Array(20).fill(0xee)
const X_CHAIN = idToString(sha256(new TextEncoder().encode('x-chain')))
const SECP_FX = 'spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ'
const pAddr = (a: Uint8Array) => formatAddress('P', 'local', a)
const xAddr = (a: Uint8Array) => formatAddress('X', 'local', a)
const pop = { type: 'ProofOfPossession' as const, publicKey: new Uint8Array(48).fill(9), signature: new Uint8Array(96).fill(5) }
const withChecksum = (b: Uint8Array) => bytesToHex(new Uint8Array([...b, ...sha256(b).subarray(28)]))

const transfer = (amount: bigint, to: Uint8Array, locktime = 0n) => ({ type: 'TransferOutput' as const, amount, owners: { locktime, threshold: 1, addrs: [to] } })

/** Genesis: A and B hold 1M AVAX each; LOCKED holds four outputs in every lock state. */
function genesis(): Utxo[] {
  const u = (i: number, output: Utxo['output']): Utxo => ({ txId: GENESIS_TX, outputIndex: i, assetId: avaxId(), output })
  return [
    u(0, transfer(1_000_000n * AVAX, A)),
    u(1, transfer(1_000_000n * AVAX, B)),
    u(2, { type: 'StakeableLockOut', locktime: BigInt(T0 + 1000), output: transfer(5n * AVAX, LOCKED) }), // locked stakeable
    u(3, transfer(7n * AVAX, LOCKED, BigInt(T0 + 1000))), // locked, not stakeable
    u(4, { type: 'StakeableLockOut', locktime: BigInt(T0 - 10), output: transfer(3n * AVAX, LOCKED) }), // lock passed: unlocked
    u(5, { type: 'StakeableLockOut', locktime: BigInt(T0 + 1000), output: transfer(2n * AVAX, LOCKED, BigInt(T0 + 5000)) }), // inner lock: not stakeable
  ]
}

function makeChain(): PChainType {
  return new PChain({
    config: pchainConfig('local', { avaxAssetId: AVAX_ID }),
    genesisTimestamp: T0,
    initialSupply: 360_000_000n * AVAX,
    genesis: { utxos: genesis() },
    authenticate: fakeAuth,
    atomic: new MemAtomic(),
  })
}

const utxoOf = (tx: PChainSignedTx, owner: Uint8Array) => {
  const out = 'base' in tx.unsigned ? tx.unsigned.base.outputs[0]! : undefined
  return { txId: idOf(tx), index: 0, amount: out!.output.type === 'TransferOutput' ? out!.output.amount : 0n, owner }
}

/**
 * A primary validator (node 1, A, 10% fee, PoP) with a delegator (B); a subnet with a chain
 * converted to an L1 with three validators (nodes 10–12).
 */
function setup() {
  const chain = makeChain()
  const stake = 2_000n * AVAX
  const vTx = spend(chain, { txId: GENESIS_TX, index: 0, amount: 1_000_000n * AVAX, owner: A }, stake, (b) => ({
    type: 'AddPermissionlessValidatorTx', base: b,
    validator: { nodeId: nodeId(1), start: 0n, end: BigInt(T0 + 30 * DAY), weight: stake },
    subnetId: new Uint8Array(32), signer: pop,
    stakeOuts: [{ assetId: avaxId(), output: transfer(stake, A) }],
    validatorRewardsOwner: owners(A), delegatorRewardsOwner: owners(B), delegationShares: 100_000,
  }))
  chain.issueTx(vTx)
  const dStake = 100n * AVAX
  const dTx = spend(chain, { txId: GENESIS_TX, index: 1, amount: 1_000_000n * AVAX, owner: B }, dStake, (b) => ({
    type: 'AddPermissionlessDelegatorTx', base: b,
    validator: { nodeId: nodeId(1), start: 0n, end: BigInt(T0 + 20 * DAY), weight: dStake },
    subnetId: new Uint8Array(32),
    stakeOuts: [{ assetId: avaxId(), output: transfer(dStake, B) }],
    delegatorRewardsOwner: owners(B),
  }))
  chain.issueTx(dTx, { timestamp: T0 + 10 })

  const subnetTx = spend(chain, utxoOf(vTx, A), 0n, (b) => ({ type: 'CreateSubnetTx', base: b, owner: owners(A) }))
  chain.issueTx(subnetTx)
  const subnetId = idOf(subnetTx)
  const chainTx = spend(chain, utxoOf(subnetTx, A), 0n, (b) => ({
    type: 'CreateChainTx', base: b, subnetId, chainName: 'l1', vmId: new Uint8Array(32).fill(1), fxIds: [], genesisData: new Uint8Array([1, 2]), subnetAuth: { sigIndices: [0] },
  }), [[A], [A]])
  chain.issueTx(chainTx)
  const balances = [1000n, AVAX, AVAX]
  const convertTx = spend(chain, utxoOf(chainTx, A), balances.reduce((a, b) => a + b), (b) => ({
    type: 'ConvertSubnetToL1Tx', base: b, subnetId, chainId: idOf(chainTx), address: MANAGER,
    validators: balances.map((balance, i) => ({
      nodeId: nodeId(12 - i), weight: 100n, balance, signer: { publicKey: new Uint8Array(48).fill(i + 1), signature: new Uint8Array(96) },
      remainingBalanceOwner: { threshold: 1, addrs: [A] }, deactivationOwner: { threshold: 1, addrs: [B] },
    })),
    subnetAuth: { sigIndices: [0] },
  }), [[A], [A]])
  chain.issueTx(convertTx)
  const sharedMemory = new SharedMemory()
  const dropped = new Map<string, string>()
  const ctx: PlatformContext = {
    pchain: chain,
    uptime: (n) => ({ uptime: 0.9876, connected: n === showNodeId(nodeId(1)) }),
    lookupChain: (alias) => ({ P: EMPTY_ID, X: X_CHAIN, [EMPTY_ID]: EMPTY_ID, [X_CHAIN]: X_CHAIN })[alias],
    sharedMemory,
    dropReason: (id) => dropped.get(id),
  }
  return { chain, ctx, vTx, dTx, subnetTx, chainTx, convertTx, subnetId: showId(subnetId), sharedMemory, dropped }
}

const dispatcher = createNodeDispatcher<PlatformContext>({ services: { platform: platformService } })

async function call(ctx: PlatformContext, method: string, params: unknown = {}): Promise<string> {
  const { body } = await dispatcher.handle(JSON.stringify({ jsonrpc: '2.0', id: 1, method: `platform.${method}`, params }), ctx)
  return body
}

/** The exact body of a successful call whose result is `result` (written as JSON text). */
const ok = (result: string) => `{"jsonrpc":"2.0","result":${result},"id":1}\n`
const err = (message: string) => `{"jsonrpc":"2.0","error":{"code":-32000,"message":${encodeGoJson(message)},"data":null},"id":1}\n`
const J = (v: unknown) => JSON.stringify(v)

describe('platform service', () => {
  it('getHeight, getTimestamp, fee config and state', async () => {
    const { ctx, chain } = setup()
    expect(await call(ctx, 'getHeight')).toBe(ok(`{"height":"${chain.height}"}`))
    expect(chain.height).toBe(5) // 5 txs; moving time to T0+10 needs no block of its own
    expect(await call(ctx, 'getTimestamp')).toBe(ok('{"timestamp":"2026-01-01T00:00:10Z"}'))
    expect(await call(ctx, 'getFeeConfig')).toBe(
      ok('{"weights":[1,1000,1000,4],"maxCapacity":1000000,"maxPerSecond":100000,"targetPerSecond":50000,"minPrice":1,"excessConversionConstant":2164043}'),
    )
    const fs = chain.state.feeState
    expect(fs.excess).toBeGreaterThan(0n)
    expect(await call(ctx, 'getFeeState')).toBe(ok(`{"capacity":${fs.capacity},"excess":${fs.excess},"price":1,"timestamp":"2026-01-01T00:00:10Z"}`))
    expect(await call(ctx, 'getValidatorFeeConfig')).toBe(ok('{"capacity":20000,"target":10000,"minPrice":1,"excessConversionConstant":865617}'))
    expect(await call(ctx, 'getValidatorFeeState')).toBe(ok('{"excess":0,"price":1,"timestamp":"2026-01-01T00:00:10Z"}'))
    expect(await call(ctx, 'getStakingAssetID', { subnetID: EMPTY_ID })).toBe(ok(`{"assetID":"${AVAX_ID}"}`))
    expect(await call(ctx, 'getStakingAssetID')).toBe(ok(`{"assetID":"${AVAX_ID}"}`))
    expect(await call(ctx, 'getMinStake', {})).toBe(ok('{"minValidatorStake":"2000000000000","minDelegatorStake":"25000000000"}'))
    const other = idToString(new Uint8Array(32).fill(7))
    expect(await call(ctx, 'getStakingAssetID', { subnetID: other })).toBe(err(`failed fetching subnet transformation for ${other}: not found`))
    expect(await call(ctx, 'getMinStake', { subnetID: other })).toBe(err(`failed fetching subnet transformation for ${other}: not found`))
  })

  it('getCurrentSupply and getTotalStake', async () => {
    const { ctx, chain, subnetId } = setup()
    const supply = chain.state.getSupply(PRIMARY_NETWORK_ID)
    expect(supply).toBeGreaterThan(360_000_000n * AVAX)
    expect(await call(ctx, 'getCurrentSupply', [{ subnetID: EMPTY_ID }])).toBe(ok(`{"supply":"${supply}","height":"5"}`))
    expect(await call(ctx, 'getCurrentSupply', { subnetID: subnetId })).toBe(err('fetching current supply failed: not found'))
    expect(await call(ctx, 'getTotalStake', {})).toBe(ok(`{"stake":"${2100n * AVAX}","weight":"${2100n * AVAX}"}`))
    // the L1's active validators: 3 × 100
    expect(await call(ctx, 'getTotalStake', { subnetID: subnetId })).toBe(ok('{"stake":"300","weight":"300"}'))
  })

  it('getCurrentValidators: primary validator with delegation summary, and with its delegators for one node id', async () => {
    const { ctx, chain, vTx, dTx } = setup()
    const v = chain.state.getCurrentValidator(PRIMARY_NETWORK_ID, showNodeId(nodeId(1)))!
    const d = [...chain.state.d.currentDelegators.values()][0]!
    const ownerA = { locktime: '0', threshold: '1', addresses: [pAddr(A)] }
    const ownerB = { locktime: '0', threshold: '1', addresses: [pAddr(B)] }
    const staker = { txID: showId(idOf(vTx)), startTime: String(T0), endTime: String(T0 + 30 * DAY), weight: String(2000n * AVAX), nodeID: showNodeId(nodeId(1)) }
    const common = {
      ...staker,
      validationRewardOwner: ownerA,
      delegationRewardOwner: ownerB,
      potentialReward: String(v.potentialReward),
      accruedDelegateeReward: '0',
      delegationFee: '10.0000',
      uptime: '98.7600',
      connected: true,
      signer: { publicKey: '0x' + '09'.repeat(48), proofOfPossession: '0x' + '05'.repeat(96) },
      delegatorCount: '1',
      delegatorWeight: String(100n * AVAX),
    }
    expect(await call(ctx, 'getCurrentValidators')).toBe(ok(J({ validators: [common] })))
    const delegator = {
      txID: showId(idOf(dTx)), startTime: String(T0 + 10), endTime: String(T0 + 20 * DAY), weight: String(100n * AVAX), nodeID: showNodeId(nodeId(1)),
      rewardOwner: ownerB, potentialReward: String(d.potentialReward),
    }
    expect(await call(ctx, 'getCurrentValidators', { nodeIDs: [showNodeId(nodeId(1))] })).toBe(ok(J({ validators: [{ ...common, delegators: [delegator] }] })))
    // two node ids (one not a validator): no delegator list
    expect(await call(ctx, 'getCurrentValidators', { nodeIDs: [showNodeId(nodeId(1)), showNodeId(nodeId(2))] })).toBe(ok(J({ validators: [common] })))
    expect(await call(ctx, 'getCurrentValidators', { nodeIDs: [showNodeId(nodeId(2))] })).toBe(ok('{"validators":[]}'))
    // an unknown subnet has none
    expect(await call(ctx, 'getCurrentValidators', { subnetID: idToString(new Uint8Array(32).fill(7)) })).toBe(ok('{"validators":[]}'))
    // uptime failures surface as the node wraps them
    const failing = { ...ctx, uptime: () => { throw new Error('unknown validator') } }
    expect(await call(failing, 'getCurrentValidators')).toBe(err('failed to get primary or subnet validators: unknown validator'))
    expect(await call(ctx, 'getCurrentValidators', { nodeIDs: ['NodeID-x'] })).toBe(err(INVALID_ARGUMENT_MESSAGE))
  })

  it('getCurrentValidators on an L1 and getL1Validator', async () => {
    const { ctx, chain, subnetId } = setup()
    const vals = chain.state.l1ValidatorsOf(subnetId)
    expect(vals).toHaveLength(3)
    const byNode = (n: number) => vals.find((v) => v.nodeId === showNodeId(nodeId(n)))!
    const l1 = (n: number, i: number) => ({
      nodeID: showNodeId(nodeId(n)),
      weight: '100',
      startTime: String(T0 + 10),
      validationID: byNode(n).validationId,
      publicKey: '0x' + String(i + 1).padStart(2, '0').repeat(48),
      remainingBalanceOwner: { locktime: '0', threshold: '1', addresses: [pAddr(A)] },
      deactivationOwner: { locktime: '0', threshold: '1', addresses: [pAddr(B)] },
      minNonce: '0',
      balance: String([1000n, AVAX, AVAX][i]),
    })
    // node id byte order: 10, 11, 12 (converted in the order 12, 11, 10)
    expect(await call(ctx, 'getCurrentValidators', { subnetID: subnetId })).toBe(ok(J({ validators: [l1(10, 2), l1(11, 1), l1(12, 0)] })))
    expect(await call(ctx, 'getCurrentValidators', { subnetID: subnetId, nodeIDs: [showNodeId(nodeId(11))] })).toBe(ok(J({ validators: [l1(11, 1)] })))

    // node 12 runs out of balance after 1000 s: inactive, balance 0, still listed
    chain.advanceTo(chain.timestamp + 1001)
    const after = { ...l1(12, 0), balance: '0' }
    const reply = JSON.parse((await call(ctx, 'getCurrentValidators', { subnetID: subnetId })).trimEnd()).result.validators
    expect(reply[2]).toEqual(after)

    const id = byNode(12).validationId
    expect(await call(ctx, 'getL1Validator', { validationID: id })).toBe(ok(J({ ...after, subnetID: subnetId, height: String(chain.height) })))
    const unknown = idToString(new Uint8Array(32).fill(6))
    expect(await call(ctx, 'getL1Validator', { validationID: unknown })).toBe(err(`fetching L1 validator "${unknown}" failed: not found`))
  })

  it('getPendingValidators: empty since Durango', async () => {
    const { ctx } = setup()
    expect(await call(ctx, 'getPendingValidators')).toBe(ok('{"validators":[],"delegators":[]}'))
  })

  it('getSubnet, getSubnets, getBlockchains', async () => {
    const { ctx, chain, subnetId, chainTx } = setup()
    const conversion = chain.state.getSubnet(subnetId)!.conversion!
    expect(await call(ctx, 'getSubnet', { subnetID: subnetId })).toBe(
      ok(J({
        isPermissioned: false, controlKeys: [pAddr(A)], threshold: '1', locktime: '0', subnetTransformationTxID: EMPTY_ID,
        conversionID: conversion.conversionId, managerChainID: showId(idOf(chainTx)), managerAddress: '0x' + 'ee'.repeat(20),
      })),
    )
    expect(await call(ctx, 'getSubnet', { subnetID: EMPTY_ID })).toBe(err("the primary network isn't a subnet"))
    expect(await call(ctx, 'getSubnet', { subnetID: idToString(new Uint8Array(32).fill(7)) })).toBe(err('not found'))
    expect(await call(ctx, 'getSubnets')).toBe(
      ok(J({ subnets: [{ id: subnetId, controlKeys: [pAddr(A)], threshold: '1' }, { id: EMPTY_ID, controlKeys: [], threshold: '0' }] })),
    )
    expect(await call(ctx, 'getSubnets', { ids: [EMPTY_ID, subnetId, EMPTY_ID] })).toBe(
      ok(J({ subnets: [{ id: EMPTY_ID, controlKeys: [], threshold: '0' }, { id: subnetId, controlKeys: [pAddr(A)], threshold: '1' }] })),
    )
    expect(await call(ctx, 'getSubnets', { ids: [idToString(new Uint8Array(32).fill(7))] })).toBe(ok('{"subnets":null}'))
    expect(await call(ctx, 'getBlockchains')).toBe(
      ok(J({ blockchains: [{ id: showId(idOf(chainTx)), name: 'l1', subnetID: subnetId, vmID: idToString(new Uint8Array(32).fill(1)) }] })),
    )
  })

  it('getSubnet of a subnet not converted', async () => {
    const chain = makeChain()
    const subnetTx = spend(chain, { txId: GENESIS_TX, index: 0, amount: 1_000_000n * AVAX, owner: A }, 0n, (b) => ({ type: 'CreateSubnetTx', base: b, owner: owners(A) }))
    chain.issueTx(subnetTx)
    const ctx: PlatformContext = { pchain: chain, uptime: () => ({ uptime: 1, connected: true }) }
    expect(await call(ctx, 'getSubnet', { subnetID: showId(idOf(subnetTx)) })).toBe(
      ok(J({ isPermissioned: true, controlKeys: [pAddr(A)], threshold: '1', locktime: '0', subnetTransformationTxID: EMPTY_ID, conversionID: EMPTY_ID, managerChainID: EMPTY_ID, managerAddress: null })),
    )
  })

  it('getBalance splits by lock state; unknown addresses have nothing', async () => {
    const { ctx } = setup()
    const ids = (idx: number[]) => idx.map((i) => ({ txID: showId(GENESIS_TX), outputIndex: i }))
    const m = (v: bigint) => ({ [AVAX_ID]: String(v) })
    expect(await call(ctx, 'getBalance', { addresses: [pAddr(LOCKED)] })).toBe(
      ok(J({
        balance: String(17n * AVAX), unlocked: String(3n * AVAX), lockedStakeable: String(5n * AVAX), lockedNotStakeable: String(9n * AVAX),
        balances: m(17n * AVAX), unlockeds: m(3n * AVAX), lockedStakeables: m(5n * AVAX), lockedNotStakeables: m(9n * AVAX),
        utxoIDs: ids([5, 4, 3, 2]),
      })),
    )
    // the node clock moves past the locks
    expect(JSON.parse(await call({ ...ctx, now: () => T0 + 6000 }, 'getBalance', { addresses: [cb58Encode(LOCKED)] })).result).toMatchObject({ unlocked: String(17n * AVAX), lockedStakeable: '0' })
    expect(await call(ctx, 'getBalance', { addresses: [pAddr(EMPTY)] })).toBe(
      ok('{"balance":"0","unlocked":"0","lockedStakeable":"0","lockedNotStakeable":"0","balances":{},"unlockeds":{},"lockedStakeables":{},"lockedNotStakeables":{},"utxoIDs":null}'),
    )
    expect(await call(ctx, 'getBalance', { addresses: [formatAddress('P', 'fuji', A)] })).toBe(err(`couldn't parse address "${formatAddress('P', 'fuji', A)}": expected hrp "local" but got "fuji"`))
    expect(await call(ctx, 'getBalance', { addresses: [xAddr(A)] })).toBe(err(`couldn't parse address "${xAddr(A)}": mismatched chainIDs: expected "${EMPTY_ID}" but got "${X_CHAIN}"`))
    expect(await call(ctx, 'getBalance', { addresses: [formatAddress('Q', 'local', A)] })).toBe(err(`couldn't parse address "${formatAddress('Q', 'local', A)}": there is no ID with alias: Q`))
    expect(await call(ctx, 'getBalance', { addresses: ['nope'] })).toBe(err('couldn\'t parse address "nope": no separator found in address'))
  })

  it('getUTXOs pages newest first, encodes, reads shared memory', async () => {
    const { ctx, chain, sharedMemory } = setup()
    const utxo = (i: number) => chain.getUtxo(showId(GENESIS_TX), i)!.utxo
    const id = (i: number) => idToString(utxoId(GENESIS_TX, i))
    const page1 = await call(ctx, 'getUTXOs', { addresses: [pAddr(LOCKED)], limit: 2 })
    expect(page1).toBe(ok(J({ numFetched: '2', utxos: [withChecksum(encodeUtxo('P', utxo(5))), withChecksum(encodeUtxo('P', utxo(4)))], endIndex: { address: pAddr(LOCKED), utxo: id(4) }, encoding: 'hex' })))
    const page2 = await call(ctx, 'getUTXOs', { addresses: [pAddr(LOCKED)], limit: '2', startIndex: { address: pAddr(LOCKED), utxo: id(4) }, encoding: 'HEXNC' })
    expect(page2).toBe(ok(J({ numFetched: '2', utxos: [bytesToHex(encodeUtxo('P', utxo(3))), bytesToHex(encodeUtxo('P', utxo(2)))], endIndex: { address: pAddr(LOCKED), utxo: id(2) }, encoding: 'hexnc' })))
    const page3 = await call(ctx, 'getUTXOs', { addresses: [pAddr(LOCKED)], startIndex: { address: pAddr(LOCKED), utxo: id(2) } })
    expect(page3).toBe(ok(J({ numFetched: '0', utxos: [], endIndex: { address: pAddr(LOCKED), utxo: id(2) }, encoding: 'hex' })))
    expect(await call(ctx, 'getUTXOs', { addresses: [pAddr(EMPTY)] })).toBe(ok(J({ numFetched: '0', utxos: [], endIndex: { address: pAddr(EMPTY), utxo: EMPTY_ID }, encoding: 'hex' })))

    // atomic UTXOs X exported to P
    const exported: Utxo = { txId: new Uint8Array(32).fill(3), outputIndex: 0, assetId: avaxId(), output: transfer(42n, EMPTY) }
    const key = utxoId(exported.txId, 0)
    sharedMemory.put(X_CHAIN, EMPTY_ID, [{ key, value: encodeUtxo('X', exported), traits: [EMPTY] }])
    expect(await call(ctx, 'getUTXOs', { addresses: [pAddr(EMPTY)], sourceChain: 'X' })).toBe(
      ok(J({ numFetched: '1', utxos: [withChecksum(encodeUtxo('P', exported))], endIndex: { address: pAddr(EMPTY), utxo: idToString(key) }, encoding: 'hex' })),
    )

    expect(await call(ctx, 'getUTXOs', { addresses: [] })).toBe(err('no addresses provided'))
    expect(await call(ctx, 'getUTXOs', { addresses: Array(1025).fill(pAddr(A)) })).toBe(err('number of addresses given, 1025, exceeds maximum, 1024'))
    expect(await call(ctx, 'getUTXOs', { addresses: [pAddr(A)], sourceChain: 'Z' })).toBe(err('problem parsing source chainID "Z": there is no ID with alias: Z'))
    expect(await call(ctx, 'getUTXOs', { addresses: [pAddr(A)], startIndex: { address: pAddr(A), utxo: 'bad' } })).toMatch(/"message":"couldn't parse start index utxo: /)
    expect(await call(ctx, 'getUTXOs', { addresses: [pAddr(A)], startIndex: { address: 'nope' } })).toBe(
      err('couldn\'t parse start index address "nope": couldn\'t parse address "nope": no separator found in address'),
    )
    expect(await call(ctx, 'getUTXOs', { addresses: [pAddr(LOCKED)], encoding: 'json' })).toBe(err(`couldn't encode UTXO ${id(5)} as json: unsupported encoding in method`))
    expect(await call(ctx, 'getUTXOs', { addresses: [pAddr(EMPTY)], encoding: 'json', sourceChain: 'P' })).toBe(ok(J({ numFetched: '0', utxos: [], endIndex: { address: pAddr(EMPTY), utxo: EMPTY_ID }, encoding: 'json' })))
    expect(await call(ctx, 'getUTXOs', { addresses: [pAddr(A)], encoding: 'base64' })).toBe(err(INVALID_ARGUMENT_MESSAGE))
  })

  it('getTx in hex and json, getTxStatus', async () => {
    const { ctx, chain, vTx, subnetTx, dropped } = setup()
    const vId = showId(idOf(vTx))
    expect(await call(ctx, 'getTx', { txID: vId })).toBe(ok(J({ tx: withChecksum(encodeSignedTx('P', vTx)), encoding: 'hex' })))
    expect(await call(ctx, 'getTx', { txID: vId, encoding: 'hexnc' })).toBe(ok(J({ tx: bytesToHex(encodeSignedTx('P', vTx)), encoding: 'hexnc' })))

    const sId = showId(idOf(subnetTx))
    const u = subnetTx.unsigned as Extract<PChainSignedTx['unsigned'], { type: 'CreateSubnetTx' }>
    const input = u.base.inputs[0]!
    const change = u.base.outputs[0]!.output as { amount: bigint }
    const expected =
      `{"unsignedTx":{"networkID":12345,"blockchainID":"${EMPTY_ID}",` +
      `"outputs":[{"assetID":"${AVAX_ID}","fxID":"${SECP_FX}","output":{"addresses":["${pAddr(A)}"],"amount":${change.amount},"locktime":0,"threshold":1}}],` +
      `"inputs":[{"txID":"${showId(input.txId)}","outputIndex":0,"assetID":"${AVAX_ID}","fxID":"${SECP_FX}","input":{"amount":${(input.input as { amount: bigint }).amount},"signatureIndices":[0]}}],` +
      `"memo":"0x","owner":{"addresses":["${pAddr(A)}"],"locktime":0,"threshold":1}},` +
      `"credentials":[{"signatures":["0x${bytesToHex(A).slice(2)}${'00'.repeat(45)}"]}],"id":"${sId}"}`
    expect(await call(ctx, 'getTx', { txID: sId, encoding: 'json' })).toBe(ok(`{"tx":${expected},"encoding":"json"}`))

    // the validator tx as JSON: nested validator, signer, stake and owners in Go's order
    const vJson = JSON.parse(await call(ctx, 'getTx', { txID: vId, encoding: 'json' })).result.tx.unsignedTx
    expect(Object.keys(vJson)).toEqual(['networkID', 'blockchainID', 'outputs', 'inputs', 'memo', 'validator', 'subnetID', 'signer', 'stake', 'validationRewardsOwner', 'delegationRewardsOwner', 'shares'])
    expect(vJson.validator).toEqual({ nodeID: showNodeId(nodeId(1)), start: 0, end: T0 + 30 * DAY, weight: 2_000_000_000_000 })
    expect(vJson.signer).toEqual({ publicKey: '0x' + '09'.repeat(48), proofOfPossession: '0x' + '05'.repeat(96) })
    expect(vJson.shares).toBe(100_000)

    expect(await call(ctx, 'getTx', { txID: idToString(new Uint8Array(32).fill(6)) })).toBe(err("couldn't get tx: not found"))

    expect(await call(ctx, 'getTxStatus', { txID: vId })).toBe(ok('{"status":"Committed"}'))
    const unknown = idToString(new Uint8Array(32).fill(6))
    expect(await call(ctx, 'getTxStatus', { txID: unknown })).toBe(ok('{"status":"Unknown"}'))
    dropped.set(unknown, 'failed to verify: insufficient funds')
    expect(await call(ctx, 'getTxStatus', { txID: unknown })).toBe(ok('{"status":"Dropped","reason":"failed to verify: insufficient funds"}'))
    // reward txs are stored with the option taken
    chain.advanceTo(T0 + 31 * DAY)
    const reward = [...chain.state.d.txs.values()].find((t) => t.type === 'RewardValidatorTx')!
    expect(await call(ctx, 'getTxStatus', { txID: reward.id })).toBe(ok('{"status":"Committed"}'))
    expect(await call(ctx, 'getTx', { txID: reward.id, encoding: 'json' })).toMatch(/^\{"jsonrpc":"2.0","result":\{"tx":\{"unsignedTx":\{"txID":"[1-9A-Za-z]+"\},"credentials":\[\],"id":"/)
  })

  it('getValidatorsAt: current set by height, proposed, unfinalized', async () => {
    const { ctx, chain, subnetId } = setup()
    const primary = ok(J({ [showNodeId(nodeId(1))]: { publicKey: '0x' + '09'.repeat(48), weight: String(2100n * AVAX) } }))
    expect(await call(ctx, 'getValidatorsAt', { height: '5' })).toBe(primary)
    expect(await call(ctx, 'getValidatorsAt', { height: 'proposed', subnetID: EMPTY_ID })).toBe(primary)
    const l1 = await call(ctx, 'getValidatorsAt', { height: 5, subnetID: subnetId })
    const nodes = Object.keys(JSON.parse(l1).result)
    expect(nodes).toEqual([...nodes].sort())
    expect(nodes).toHaveLength(3)
    expect(await call(ctx, 'getValidatorsAt', { height: 6 })).toBe(
      err(`failed to get validator set at 6: failed to fetch validator set at unfinalized height with SubnetID = ${EMPTY_ID}: current P-chain height (5) < requested P-Chain height (6)`),
    )
    expect(await call(ctx, 'getValidatorsAt', { height: 'latest' })).toBe(err(INVALID_ARGUMENT_MESSAGE))
    expect(await call(ctx, 'getValidatorsAt', { height: '18446744073709551615' })).toBe(err(INVALID_ARGUMENT_MESSAGE))
    // the context's history hook answers for past heights
    const seen: Array<[string, number]> = []
    const hooked = { ...ctx, validatorSetAt: (s: string, h: number) => (seen.push([s, h]), []), proposedHeight: () => 2 }
    expect(await call(hooked, 'getValidatorsAt', { height: 'proposed' })).toBe(ok('{}'))
    expect(seen).toEqual([[EMPTY_ID, 2]])
    expect(chain.height).toBe(5)
  })
})

describe('platform.getPendingValidators before Durango', () => {
  it('lists pending permissionless validators and delegators with stakeAmount', async () => {
    const chain = new PChain({
      config: pchainConfig('local', { avaxAssetId: AVAX_ID, upgrades: { durangoTime: T0 + 1_000_000, etnaTime: T0 + 1_000_000 } }),
      genesisTimestamp: T0,
      initialSupply: 360_000_000n * AVAX,
      genesis: { utxos: genesis() },
      authenticate: fakeAuth,
      atomic: new MemAtomic(),
    })
    const stake = 2_000n * AVAX
    const start = BigInt(T0 + 100)
    const vTx = spend(chain, { txId: GENESIS_TX, index: 0, amount: 1_000_000n * AVAX, owner: A }, stake, (b) => ({
      type: 'AddPermissionlessValidatorTx', base: b,
      validator: { nodeId: nodeId(1), start, end: BigInt(T0 + 30 * DAY), weight: stake },
      subnetId: new Uint8Array(32), signer: pop,
      stakeOuts: [{ assetId: avaxId(), output: transfer(stake, A) }],
      validatorRewardsOwner: owners(A), delegatorRewardsOwner: owners(A), delegationShares: 20_000,
    }))
    chain.issueTx(vTx)
    const ctx: PlatformContext = { pchain: chain, uptime: () => ({ uptime: 1, connected: false }) }
    const staker = { txID: showId(idOf(vTx)), startTime: String(start), endTime: String(T0 + 30 * DAY), weight: String(stake), nodeID: showNodeId(nodeId(1)), stakeAmount: String(stake) }
    expect(await call(ctx, 'getPendingValidators')).toBe(
      ok(J({ validators: [{ ...staker, delegationFee: '2.0000', connected: false, signer: { publicKey: '0x' + '09'.repeat(48), proofOfPossession: '0x' + '05'.repeat(96) } }], delegators: [] })),
    )
    expect(await call(ctx, 'getPendingValidators', { nodeIDs: [showNodeId(nodeId(2))] })).toBe(ok('{"validators":[],"delegators":[]}'))
    expect(await call(ctx, 'getCurrentValidators')).toBe(ok('{"validators":[]}'))
  })
})
