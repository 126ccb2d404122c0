import { describe, expect, it } from 'vitest'
import { createNetwork } from '../../src/network/network.js'
import { createScenarioNetwork, networkOptionsOf, parseScenario, runScenario, ScenarioStepError, type StepProgress } from '../../src/scenario/index.js'

const scenario = (lines: string[]) => parseScenario(lines.join('\n') + '\n', 'scenarios/inline.yaml')

describe('runScenario', () => {
  it('collects failed assertions with their step and position, and counts the passed ones', async () => {
    const s = scenario([
      'network: { nodes: 1 }',
      'accounts: { count: 2, named: { alice: 0, bob: 1 } }',
      'steps:',
      '  - send: { from: acct:alice, to: acct:bob, value: 1 ether }',
      '  - assert: { balance: { account: acct:bob, equals: 10001 ether } }',
      '  - assert: { balance: { account: acct:bob, equals: 5 wei } }',
      '  - assert: { health: { node: node:0, healthy: true } }',
    ])
    const progress: StepProgress[] = []
    const network = await createNetwork(networkOptionsOf(s))
    const run = await runScenario(network, s, { onProgress: (p) => progress.push(p) })
    await network.close()
    expect(run.passed).toBe(2)
    expect(run.failures).toEqual([
      { step: 2, path: 'steps[2].assert.balance', file: 'scenarios/inline.yaml', line: 6, column: 5, message: 'balance of acct:bob on C: expected 5 wei, got 10001000000000000000000' },
    ])
    expect(progress.map((p) => p.stepsDone)).toEqual([0, 1, 2, 3, 4])
    expect(progress.at(-1)).toMatchObject({ stepsDone: 4, stepsTotal: 4, blocks: 1 })
  })

  it('stops at the first failed assertion when asked', async () => {
    const s = scenario(['network: { nodes: 1 }', 'steps:', '  - assert: { balance: { account: acct:1, equals: 1 } }', '  - assert: { balance: { account: acct:1, equals: 2 } }'])
    const network = await createNetwork(networkOptionsOf(s))
    const run = await runScenario(network, s, { stopOnFailure: true })
    await network.close()
    expect(run.failures.map((f) => f.step)).toEqual([0])
  })

  it('throws a positioned error for a step the network refuses', async () => {
    const s = scenario(['network: { nodes: 1 }', 'accounts: { count: 2 }', 'steps:', '  - advance: 1m', '  - sendAvax: { chain: chain:P, from: acct:0, to: acct:1, amount: 1000000 avax }'])
    const network = await createNetwork(networkOptionsOf(s))
    const error = await runScenario(network, s).catch((e: unknown) => e)
    await network.close()
    expect(error).toBeInstanceOf(ScenarioStepError)
    expect((error as Error).message).toMatch(/^scenarios\/inline\.yaml:5:5: steps\[1\]\.sendAvax: insufficient funds/)
  })

  it('steps at a time offset and at a block height advance the virtual clock and mine', async () => {
    const s = scenario([
      'network: { nodes: 1 }',
      'clock: { start: 2026-03-01T00:00:00Z }',
      'steps:',
      '  - { at: 90s, snapshot: later }',
      '  - { at: { block: 3 }, snapshot: three }',
    ])
    const { network, run } = await createScenarioNetwork(s)
    expect(network.clock.now()).toBeGreaterThanOrEqual(Date.parse('2026-03-01T00:01:30Z') / 1000)
    expect(network.cChain.head.number).toBe(3n)
    expect([...run.snapshots.keys()]).toEqual(['later', 'three'])
    await network.close()
  })

  it('createScenarioNetwork makes the post-scenario state the one reset() returns to', async () => {
    const s = scenario([
      'network: { nodes: 1 }',
      'steps:',
      '  - deploy: { contract: token, artifact: artifacts/ERC20.json, args: [Token, TOK, 100 ether] }',
      '  - transfer: { token: contract:token, from: acct:0, to: acct:1, amount: 40 ether }',
      '  - assert: { call: { contract: contract:token, method: balanceOf, args: [acct:1], equals: 40 ether } }',
    ])
    const { network, run } = await createScenarioNetwork(s)
    expect(run.failures).toEqual([])
    const token = run.refs.contracts.token!
    expect(token.chain).toBe('C')
    const height = network.cChain.head.number
    await network.advanceTime(60)
    await network.cChain.miner.mine()
    expect(network.cChain.head.number).toBe(height + 1n)
    await network.reset()
    expect(network.cChain.head.number).toBe(height)
    expect(network.methods.methodName('0xa9059cbb')).toBe('transfer(address,uint256)')
    await network.close()
  })
})

describe('runScenario on a network with fewer accounts than the scenario names', () => {
  it('says which named account is missing', async () => {
    const s = scenario(['network: { nodes: 1 }', 'accounts: { count: 5, named: { eve: 4 } }', 'steps:', '  - advance: 1s'])
    const network = await createNetwork({ ...networkOptionsOf(s), accounts: 2 })
    await expect(runScenario(network, s)).rejects.toThrow('the scenario names account 4 (eve), but the network has 2 accounts (the options given beside the scenario set fewer)')
    await network.close()
  })
})
