import { describe, expect, it } from 'vitest'
import { createClock } from '../../../src/core/clock.js'
import { idToString, nodeIdToString } from '../../../src/core/ids.js'
import { NetworkUptime, validationIdOf } from '../../../src/network/uptime.js'
import { ValidatorRegistry, type ValidatorEntry } from '../../../src/network/validators.js'
import { validatorsService, type CurrentValidator, type ValidatorsContext } from '../../../src/rpc/node/validators/index.js'
import { encodeGoJson } from '../../../src/rpc/node/goJson.js'
import { INVALID_ARGUMENT_MESSAGE, NodeArgumentError, NodeRpcError } from '../../../src/rpc/node/types.js'

const START = 1_767_225_600
const SUBNET = idToString(new Uint8Array(32).fill(3))
const L1_VALIDATION_ID = idToString(new Uint8Array(32).fill(8))
const node = (i: number) => nodeIdToString(new Uint8Array(20).fill(i + 1))

/**
 * Three nodes; the L1 has node 0 (a subnet validator since START−600, weight 100) and node 1 (an L1
 * validator with its own validation id, since START, weight 200). Every node tracks from START,
 * all linked. Node 2 answers unless told otherwise.
 */
function setup() {
  const clock = createClock({ start: START })
  const registry = new ValidatorRegistry()
  const entries: ValidatorEntry[] = [
    { nodeId: node(0), weight: 100n, blsPublicKey: undefined, startTime: BigInt(START - 600) },
    { nodeId: node(1), weight: 200n, blsPublicKey: undefined, startTime: BigInt(START), validationId: L1_VALIDATION_ID },
  ]
  registry.set(SUBNET, entries)
  const uptimes = new NetworkUptime([node(0), node(1), node(2)])
  for (let a = 0; a < 3; a++) for (let b = a; b < 3; b++) uptimes.setLinked(a, b, true, START)
  uptimes.syncSubnet(SUBNET, entries, START)
  const ctx = (index: number): ValidatorsContext => ({
    subnetId: SUBNET,
    validators: registry,
    clock,
    uptime: uptimes.tracker(index, SUBNET),
    isConnected: (nodeId) => uptimes.isLinked(index, [node(0), node(1), node(2)].indexOf(nodeId)),
  })
  return { clock, registry, uptimes, ctx, entries }
}

/** The handler is synchronous (the dispatcher awaits it anyway). */
const call = (params: unknown, ctx: ValidatorsContext) =>
  validatorsService.getCurrentValidators.handler(validatorsService.getCurrentValidators.params(params), ctx) as { validators: CurrentValidator[] }

function expectError(fn: () => unknown, type: typeof NodeRpcError, message: string) {
  let thrown: unknown
  try {
    fn()
  } catch (error) {
    thrown = error
  }
  expect(thrown).toBeInstanceOf(type)
  expect((thrown as NodeRpcError).code).toBe(-32000)
  expect((thrown as NodeRpcError).shortMessage).toBe(message)
}

describe('validators.getCurrentValidators', () => {
  it('returns every validator with CurrentValidator fields in Go order', () => {
    const { ctx, clock, entries } = setup()
    clock.advance(300)
    const derived = validationIdOf(SUBNET, entries[0]!)
    expect(encodeGoJson(call({}, ctx(2)))).toBe(
      '{"validators":[' +
        `{"validationID":"${derived}","nodeID":"${node(0)}","weight":100,"startTimestamp":${START - 600},"isActive":true,` +
        '"isL1Validator":false,"isConnected":true,"uptimePercentage":100,"uptimeSeconds":900},' +
        `{"validationID":"${L1_VALIDATION_ID}","nodeID":"${node(1)}","weight":200,"startTimestamp":${START},"isActive":true,` +
        '"isL1Validator":true,"isConnected":true,"uptimePercentage":100,"uptimeSeconds":300}]}',
    )
    // Params that Go decodes to "no filter".
    for (const params of [undefined, null, { nodeIDs: [] }, { nodeIDs: null }, [], [{}]]) expect(call(params, ctx(2))).toEqual(call({}, ctx(2)))
  })

  it('uptime follows the answering node’s connections over virtual time', () => {
    const { ctx, clock, uptimes } = setup()
    uptimes.setLinked(1, 2, false, START + 100) // node 2 loses node 1 at +100
    clock.setTime(START + 300)
    const seen = call({}, ctx(2)).validators[1]!
    expect(seen).toMatchObject({ nodeID: node(1), isConnected: false, uptimeSeconds: 100 })
    expect(encodeGoJson(seen.uptimePercentage)).toBe('33.333332') // float32(100/300·100), as Go prints it
    // Node 0 still sees node 1 all the time.
    expect(call({}, ctx(0)).validators[1]).toMatchObject({ isConnected: true, uptimeSeconds: 300, uptimePercentage: 100 })
    // Back at +300; at +600 node 2 has seen node 1 for 100 + 300 of 600 s.
    uptimes.setLinked(1, 2, true, START + 300)
    clock.setTime(START + 600)
    expect(call({}, ctx(2)).validators[1]).toMatchObject({ isConnected: true, uptimeSeconds: 400 })
    expect(encodeGoJson(call({}, ctx(2)).validators[1]!.uptimePercentage)).toBe('66.666664')
  })

  it('100% when no time has passed since the start', () => {
    const { ctx } = setup()
    expect(call({}, ctx(2)).validators[1]).toMatchObject({ uptimePercentage: 100, uptimeSeconds: 0 })
  })

  it('filters by nodeIDs', () => {
    const { ctx } = setup()
    expect(call({ nodeIDs: [node(1)] }, ctx(2)).validators.map((v) => v.nodeID)).toEqual([node(1)])
    expect(call({ nodeIDs: [node(1), node(0), node(1)] }, ctx(2)).validators.map((v) => v.nodeID)).toEqual([node(0), node(1)])
    expect(call({ nodeIDs: [node(2)] }, ctx(2))).toEqual({ validators: [] })
    expect(call({ NodeIDs: [node(0)] }, ctx(2)).validators.map((v) => v.nodeID)).toEqual([node(0)])
  })

  it('rejects malformed NodeIDs with the generic invalid-argument error', () => {
    const { ctx } = setup()
    for (const params of [{ nodeIDs: ['NodeID-abc'] }, { nodeIDs: ['abc'] }, { nodeIDs: node(0) }, { nodeIDs: [1] }, 'x'])
      expectError(() => call(params, ctx(2)), NodeArgumentError, INVALID_ARGUMENT_MESSAGE)
  })

  it('reports a validator the tracker does not know', () => {
    const { ctx, registry, entries } = setup()
    const late: ValidatorEntry = { nodeId: node(2), weight: 5n, blsPublicKey: undefined, startTime: BigInt(START) }
    registry.set(SUBNET, [...entries, late])
    const id = validationIdOf(SUBNET, late)
    expectError(() => call({}, ctx(0)), NodeRpcError, `failed to get uptime for validation ID ${id}: validationID not found: ${id}`)
    // Filtering it out avoids the error, as in subnet-evm.
    expect(call({ nodeIDs: [node(0)] }, ctx(0)).validators).toHaveLength(1)
  })

  it('writes uint64 weights exactly and counts the answering node as connected to itself', () => {
    const { ctx, registry, uptimes } = setup()
    const big: ValidatorEntry = { nodeId: node(0), weight: (1n << 60n) + 1n, blsPublicKey: undefined, startTime: BigInt(START) }
    registry.set(SUBNET, [big])
    uptimes.syncSubnet(SUBNET, [big], START)
    const text = encodeGoJson(call({}, ctx(0)))
    expect(text).toContain('"weight":1152921504606846977,')
    expect(text).toContain('"isConnected":true')
  })

  it('an empty validator set gives an empty list', () => {
    const { ctx } = setup()
    expect(encodeGoJson(call({}, { ...ctx(0), subnetId: idToString(new Uint8Array(32).fill(5)) }))).toBe('{"validators":[]}')
  })
})
