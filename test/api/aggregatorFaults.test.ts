import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Hex } from 'viem'
import type { Devnet } from '../../src/index.js'
import { parseMessage } from '../../src/evm/warp/codec.js'
import { canonicalValidatorSet, verifyWarpMessage } from '../../src/evm/warp/signature.js'
import { warpDevnet } from '../helpers/warpDevnet.js'

const NOT_ENOUGH_SIGNATURES = 'failed to aggregate signatures. error: failed to collect a threshold of signatures'
const NOT_ENOUGH_STAKE = 'failed to aggregate signatures. error: failed to connect to a threshold of stake'

describe('the signature aggregator under faults', () => {
  let devnet: Devnet
  let message: Hex

  beforeAll(async () => {
    ;({ devnet, sent: { unsigned: message } } = await warpDevnet('0x0102'))
  })
  afterAll(() => devnet.close())

  const sim = async (method: string, params: object = {}) => {
    const res = await fetch(`${devnet.url}/ext/sim`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: `sim.${method}`, params }) })
    const body = (await res.json()) as { result?: unknown; error?: unknown }
    expect(body.error).toBeUndefined()
    return body.result
  }
  const aggregate = async (body: object) => {
    const res = await fetch(`${devnet.url}/aggregate-signatures`, { method: 'POST', body: JSON.stringify({ message, ...body }) })
    return { status: res.status, body: (await res.json()) as Record<string, string> }
  }
  const subnetId = () => devnet.network.l1('a')!.subnetId

  it('a validator that withholds its signature: its stake is missing from the aggregate (sim.withholdWarpSignatures)', async () => {
    await sim('withholdWarpSignatures', { node: 3 })
    await sim('withholdWarpSignatures', { nodeID: devnet.network.nodes[4]!.nodeId })
    expect(await sim('getFaults')).toMatchObject({ faults: [{ kind: 'withholdWarpSignatures', node: 3 }, { kind: 'withholdWarpSignatures', node: 4 }] })
    // three of five equal validators sign: 60 % is short of the default 67 %
    expect(await aggregate({})).toEqual({ status: 500, body: { error: NOT_ENOUGH_SIGNATURES } })
    const { status, body } = await aggregate({ 'quorum-percentage': 60 })
    expect(status).toBe(200)
    const signed = Buffer.from(body['signed-message']!, 'hex')
    const validators = canonicalValidatorSet(devnet.network.validators.get(subnetId()))
    expect(verifyWarpMessage({ message: signed, networkId: devnet.network.preset.networkId, validators, quorumNumerator: 60 })).toBeUndefined()
    expect(verifyWarpMessage({ message: signed, networkId: devnet.network.preset.networkId, validators })).toMatch(/^cannot verify warp signature: signature weight is insufficient/)
    const signers = parseMessage(signed).signature.signers
    expect(signers.reduce((n, b) => n + b.toString(2).replace(/0/g, '').length, 0)).toBe(3)
    await sim('resumeWarpSignatures', { node: 3 })
    await sim('resumeWarpSignatures', { node: 4 })
    expect((await aggregate({})).status).toBe(200)
  })

  it('stake below quorum: disconnected validators are not asked, and too little connected stake fails first (sim.disconnectStake)', async () => {
    await sim('disconnectStake', { fraction: 0.4, subnetID: subnetId() })
    expect(await aggregate({})).toEqual({ status: 500, body: { error: NOT_ENOUGH_STAKE } })
    expect((await aggregate({ 'quorum-percentage': 60 })).status).toBe(200)
    await sim('clearFaults')
    expect((await aggregate({})).status).toBe(200)
  })

  it('validator churn between send and aggregation: the set current at aggregation signs', async () => {
    const network = devnet.network
    const before = network.validators.get(subnetId())
    // Nodes 3 and 4 leave the L1 and node 0 takes most of the weight after the message was sent.
    network.validators.set(subnetId(), before.slice(0, 3).map((v, i) => ({ ...v, weight: i === 0 ? 1000n : v.weight })))
    const { status, body } = await aggregate({})
    expect(status).toBe(200)
    const signed = Buffer.from(body['signed-message']!, 'hex')
    const now = canonicalValidatorSet(network.validators.get(subnetId()))
    expect(verifyWarpMessage({ message: signed, networkId: network.preset.networkId, validators: now })).toBeUndefined()
    expect(verifyWarpMessage({ message: signed, networkId: network.preset.networkId, validators: canonicalValidatorSet(before) })).toMatch(/^cannot verify warp signature/)
    network.validators.set(subnetId(), before)
  })
})
