import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dataRoutes } from '../../../src/api/routes/data/index.js'
import { networkDataSource } from '../../../src/api/routes/data/networkSource.js'
import { primaryDataRoutes } from '../../../src/api/routes/data/primary/index.js'
import { primaryTxRoutes } from '../../../src/api/routes/data/primary/utxosAndTxs.js'
import { createNetwork, type Network } from '../../../src/network/network.js'

const AVAX = 1_000_000_000n
const DAY = 86_400
type Body = { validators: Array<Record<string, unknown>>; nextPageToken?: string; blockHeight?: string; message?: unknown }

describe('/v1/networks/{network}/validators and /l1Validators', () => {
  let network: Network
  let app: FastifyInstance
  let added: { short: string; long: string; completed: string }
  let l1: { subnetId: string; validationIds: string[] }
  const get = async (url: string) => {
    const r = await app.inject({ method: 'GET', url })
    return { status: r.statusCode, body: r.json() as Body }
  }
  const all = async (url: string) => {
    const items: Array<Record<string, unknown>> = []
    let token: string | undefined
    do {
      const { status, body } = await get(`${url}${url.includes('?') ? '&' : '?'}pageSize=2${token ? `&pageToken=${token}` : ''}`)
      expect(status).toBe(200)
      items.push(...body.validators)
      token = body.nextPageToken
    } while (token)
    return items
  }

  beforeAll(async () => {
    network = await createNetwork()
    const p = network.wallets(0)!.p
    const t = network.primary.pchain.timestamp
    const completed = p.addValidator({ node: network.newValidatorIdentity(), stake: 2_000n * AVAX, end: t + DAY + 10 }).txId
    await network.advanceTime(DAY + 20)
    const t2 = network.primary.pchain.timestamp
    const short = p.addValidator({ node: network.newValidatorIdentity(), stake: 2_000n * AVAX, end: t2 + 2 * DAY, delegationFee: 50_000 }).txId
    const longNode = network.newValidatorIdentity()
    const long = p.addValidator({ node: longNode, stake: 3_000n * AVAX, end: t2 + 30 * DAY }).txId
    p.addDelegator({ nodeId: longNode.nodeId, stake: 100n * AVAX, end: t2 + 10 * DAY })
    added = { short, long, completed }
    const { subnetId } = p.createSubnet()
    const { blockchainId } = p.createChain({ subnetId, name: 'l1', vmId: new Uint8Array(32).fill(1), genesis: '{"config":{}}' })
    const conv = p.convertSubnetToL1({
      subnetId, chainId: blockchainId, address: new Uint8Array(20).fill(0xee),
      validators: [network.newValidatorIdentity(), network.newValidatorIdentity()].map((node, i) => ({ node, weight: 100n + BigInt(i), balance: i === 0 ? 1_000n : AVAX })),
    })
    l1 = { subnetId, validationIds: conv.validators.map((v) => v.validationId) }
    await network.advanceTime(2000) // the 1000 nAVAX validator runs out of balance
    app = Fastify()
    await app.register(dataRoutes, { source: networkDataSource(network), routes: [primaryDataRoutes(network), primaryTxRoutes(network)] })
    await app.ready()
  })
  afterAll(async () => {
    await app?.close()
    await network?.close?.()
  })

  it('lists active validators with the ActiveValidatorDetails shape, in field order', async () => {
    const { status, body } = await get(`/v1/networks/local/validators?validationStatus=active&nodeIds=${''}`)
    expect(status).toBe(200)
    const long = body.validators.find((v) => v.txHash === added.long)!
    expect(Object.keys(long)).toEqual([
      'txHash', 'nodeId', 'subnetId', 'amountStaked', 'delegationFee', 'startTimestamp', 'endTimestamp', 'blsCredentials', 'stakePercentage',
      'delegatorCount', 'amountDelegated', 'uptimePerformance', 'delegationCapacity', 'potentialRewards', 'validationStatus', 'validatorHealth', 'geolocation',
    ])
    expect(long).toMatchObject({ subnetId: '11111111111111111111111111111111LpoYY', amountStaked: String(3_000n * AVAX), delegatorCount: 1, amountDelegated: String(100n * AVAX), validationStatus: 'active', geolocation: null, delegationFee: '2.0000' })
    // capacity = min(3M AVAX, 5 × stake) − stake − delegated
    expect(long.delegationCapacity).toBe(String(15_000n * AVAX - 3_000n * AVAX - 100n * AVAX))
    expect(typeof long.stakePercentage).toBe('number')
    expect((long.blsCredentials as Record<string, string>).proofOfPossession).toMatch(/^0x[0-9a-f]{192}$/)
    expect((long.potentialRewards as Record<string, unknown>).rewardAddresses).toEqual([expect.stringMatching(/^local1/)])
    expect(body.validators.every((v) => v.validationStatus === 'active')).toBe(true)
  })

  it('lists completed validators with rewards', async () => {
    const { body } = await get('/v1/networks/12345/validators?validationStatus=completed')
    expect(body.validators.map((v) => v.txHash)).toEqual([added.completed])
    const v = body.validators[0]!
    expect(Object.keys(v)).toEqual(['txHash', 'nodeId', 'subnetId', 'amountStaked', 'delegationFee', 'startTimestamp', 'endTimestamp', 'blsCredentials', 'delegatorCount', 'amountDelegated', 'rewards', 'validationStatus'])
    expect((v.rewards as Record<string, unknown>).rewardTxHash).toEqual(expect.any(String))
    expect(BigInt((v.rewards as Record<string, string>).validationRewardAmount!)).toBeGreaterThan(0n)
  })

  it('filters by node id substring, time remaining, fee and capacity', async () => {
    const long = (await get('/v1/networks/local/validators?validationStatus=active')).body.validators.find((v) => v.txHash === added.long)!
    const nodeId = long.nodeId as string
    expect((await get(`/v1/networks/local/validators?nodeIds=xx,${nodeId.slice(7, 20)}`)).body.validators.map((v) => v.txHash)).toEqual([added.long])
    const soon = (await get(`/v1/networks/local/validators?maxTimeRemaining=${3 * DAY}`)).body.validators.map((v) => v.txHash)
    expect(soon).toContain(added.short)
    expect(soon).not.toContain(added.long)
    // The genesis validators ask 100%, 50%, 25%, 12.5% and 6.25% (the local genesis' stakers); the long one 2%.
    expect((await get('/v1/networks/local/validators?minFeePercentage=5&maxFeePercentage=6')).body.validators.map((v) => v.txHash)).toEqual([added.short])
    const capped = (await get(`/v1/networks/local/validators?minDelegationCapacity=${11_000n * AVAX}`)).body.validators.map((v) => v.txHash)
    expect(capped).toContain(added.long)
    expect(capped).not.toContain(added.short)
    expect((await get('/v1/networks/local/validators?minUptimePerformance=0')).body.validators.every((v) => v.validationStatus === 'active')).toBe(true)
  })

  it('sorts and pages with stable tokens bound to the filters', async () => {
    const asc = await all('/v1/networks/local/validators?sortBy=timeRemaining&sortOrder=asc&validationStatus=active')
    const remaining = asc.map((v) => (v.endTimestamp as number))
    expect(remaining).toEqual([...remaining].sort((a, b) => a - b))
    const desc = await all('/v1/networks/local/validators?sortBy=timeRemaining&sortOrder=desc&validationStatus=active')
    expect(desc.map((v) => v.endTimestamp)).toEqual([...remaining].reverse())
    expect(new Set(desc.map((v) => v.txHash))).toEqual(new Set(asc.map((v) => v.txHash)))
    expect(desc.at(-1)!.txHash).toBe(added.short)
    expect(asc[0]!.txHash).toBe(added.short)
    const every = await all('/v1/networks/local/validators')
    expect(new Set(every.map((v) => v.txHash)).size).toBe(every.length)
    const { body } = await get('/v1/networks/local/validators?pageSize=1')
    expect(body.nextPageToken).toBeDefined()
    const mismatch = await get(`/v1/networks/local/validators?pageSize=1&sortOrder=asc&pageToken=${body.nextPageToken}`)
    expect(mismatch.status).toBe(400)
  })

  it('answers 400 for bad network names and out-of-bounds filters', async () => {
    const bad = await get('/v1/networks/devnet/validators')
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({ message: ['network must be one of the following values: mainnet, fuji, testnet, local, 12345'], statusCode: 400, error: 'Bad Request' })
    const filters = await get('/v1/networks/local/validators?minFeePercentage=1&maxUptimePerformance=101&validationStatus=gone&minDelegationCapacity=-1')
    expect(filters.status).toBe(400)
    expect(filters.body.message).toEqual([
      'validationStatus must be one of the following values: completed, active, pending, removed',
      'minDelegationCapacity must be an integer string between 0 and 720000000000000000',
      'minFeePercentage must not be less than 2',
      'maxUptimePerformance must not be greater than 100',
    ])
    expect((await get('/v1/networks/mainnet/validators')).body).toEqual({ validators: [] })
  })

  it('lists L1 validators: active by default, inactive on request, with filters and paging', async () => {
    const [low, high] = l1.validationIds as [string, string]
    const active = await get(`/v1/networks/local/l1Validators?subnetId=${l1.subnetId}`)
    expect(active.status).toBe(200)
    expect(active.body.blockHeight).toBe(String(network.primary.pchain.height))
    expect(active.body.validators.map((v) => v.validationId)).toEqual([high])
    const v = active.body.validators[0]!
    expect(Object.keys(v)).toEqual(['validationId', 'validationIdHex', 'nodeId', 'subnetId', 'weight', 'remainingBalance', 'creationTimestamp', 'blsCredentials', 'remainingBalanceOwner', 'deactivationOwner'])
    expect(v).toMatchObject({ subnetId: l1.subnetId, weight: 101, remainingBalanceOwner: { threshold: 1 } })
    expect(v.remainingBalance).toBeLessThan(Number(AVAX))
    const everything = await all(`/v1/networks/local/l1Validators?includeInactiveL1Validators=true&subnetId=${l1.subnetId}`)
    expect(everything.map((x) => x.validationId).sort()).toEqual([low, high].sort())
    expect(everything.find((x) => x.validationId === low)!.remainingBalance).toBe(0)
    const byId = await get(`/v1/networks/local/l1Validators?includeInactiveL1Validators=true&l1ValidationId=${low}`)
    expect(byId.body.validators.map((x) => x.validationId)).toEqual([low])
    const byNode = await get(`/v1/networks/local/l1Validators?nodeId=${v.nodeId as string}`)
    expect(byNode.body.validators.map((x) => x.validationId)).toEqual([high])
    const badNode = await get('/v1/networks/local/l1Validators?nodeId=abc')
    expect(badNode.status).toBe(400)
    expect(badNode.body.message).toEqual(["nodeId must be a valid node ID in format 'NodeID-HASH'"])
  })

  it('agrees with the P-chain transactions of the same validations (op 15)', async () => {
    type Tx = Record<string, unknown>
    const txs = async (qs: string) => {
      const r = await app.inject({ method: 'GET', url: `/v1/networks/local/blockchains/p-chain/transactions${qs}` })
      expect(r.statusCode).toBe(200)
      return (r.json() as { transactions: Tx[] }).transactions
    }
    const completed = (await get('/v1/networks/local/validators?validationStatus=completed')).body.validators[0]!
    const rewards = completed.rewards as Record<string, unknown>
    const owner = (rewards.rewardAddresses as string[])[0]!
    const rewardTx = (await txs(`?addresses=${owner}&txTypes=RewardValidatorTx&pageSize=100`)).find((t) => t.stakingTxHash === completed.txHash)!
    expect(rewardTx.txHash).toBe(rewards.rewardTxHash)
    const paid = (rewardTx.emittedUtxos as Tx[]).filter((u) => u.rewardType === 'VALIDATOR').reduce((sum, u) => sum + BigInt(u.amount as string), 0n)
    expect(String(paid)).toBe(rewards.validationRewardAmount)
    const staking = (await txs(`?addresses=${owner}&txTypes=AddPermissionlessValidatorTx&pageSize=100`)).find((t) => t.txHash === completed.txHash)!
    expect(staking).toMatchObject({ nodeId: completed.nodeId, startTimestamp: completed.startTimestamp, endTimestamp: completed.endTimestamp, rewardTxHash: rewards.rewardTxHash })
    expect((staking.amountStaked as Tx[])[0]!.amount).toBe(completed.amountStaked)

    const [, high] = l1.validationIds as [string, string]
    const l1v = (await get(`/v1/networks/local/l1Validators?l1ValidationId=${high}`)).body.validators[0]!
    const [convert] = await txs(`?l1ValidationId=${high}`)
    expect(convert!.txType).toBe('ConvertSubnetToL1Tx')
    const details = (convert!.l1ValidatorDetails as Tx[]).find((d) => d.validationId === high)!
    expect(details).toMatchObject({ validationIdHex: l1v.validationIdHex, nodeId: l1v.nodeId, subnetId: l1v.subnetId, weight: l1v.weight, remainingBalance: Number(AVAX) })
    expect(convert!.blockTimestamp).toBe(l1v.creationTimestamp)
  })
})
