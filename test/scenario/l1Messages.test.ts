/**
 * The scenario steps that carry ACP-77 messages between a validator manager contract and the
 * P-chain (`convertSubnetToL1`, `toPChain`, `fromPChain`) and the values they add to call
 * arguments (`subnet:`, `validation:`, `node:`, `bls:`, `conversion:`): checked at parse time,
 * signed through the network's aggregator (so its faults apply), refused with the real words.
 */
import { describe, expect, it } from 'vitest'
import { PRIMARY_NETWORK_ID } from '../../src/core/ids.js'
import { createNetwork } from '../../src/network/network.js'
import { networkOptionsOf, parseScenario, runScenario, ScenarioStepError, ScenarioValidationError } from '../../src/scenario/index.js'

const FILE = 'scenarios/inline.yaml'
const scenario = (steps: string[]) =>
  parseScenario(
    [
      'network: { nodes: 4 }',
      'accounts: { count: 2, named: { owner: 0, relayer: 1 } }',
      'subnets:',
      '  - { name: managed, owner: acct:owner, chains: [{ name: managed, chainId: 77777, precompiles: { warp: {} }, alloc: { acct:owner: 100 ether } }] }',
      'steps:',
      '  - deploy: { contract: manager, artifact: artifacts/PoAValidatorManager.json, chain: chain:managed, args: [subnet:managed] }',
      ...steps,
    ].join('\n') + '\n',
    FILE,
  )
const CONVERT = '  - convertSubnetToL1: { subnet: subnet:managed, chain: chain:managed, manager: contract:manager, validators: [{ name: v0, node: node:0, weight: 100, balance: 1 avax }, { name: v1, node: node:1, weight: 100, balance: 1 avax }, { name: v2, node: node:2, weight: 100, balance: 1 avax }] }'
const INITIALIZE = '  - fromPChain: { message: { conversion: subnet:managed }, to: contract:manager, method: initializeValidatorSet, args: [conversion:managed, 0] }'
const REGISTER = '  - { name: register, call: { contract: contract:manager, method: initiateValidatorRegistration, args: [node:3, bls:3, { threshold: 0, addresses: [] }, { threshold: 0, addresses: [] }, 50] } }'

/** Runs `s` on a network made from it: the run, or what it threw; `inspect` reads the network before it closes. */
async function outcome(s: ReturnType<typeof scenario>, inspect?: (network: Awaited<ReturnType<typeof createNetwork>>) => void): Promise<unknown> {
  const network = await createNetwork(networkOptionsOf(s))
  try {
    const result = await runScenario(network, s).catch((e: unknown) => e)
    inspect?.(network)
    return result
  } finally {
    await network.close()
  }
}
const passes = async (s: ReturnType<typeof scenario>, asserts: number) => expect(await outcome(s)).toMatchObject({ failures: [], passed: asserts })
const failsWith = async (s: ReturnType<typeof scenario>, message: string) => expect(((await outcome(s)) as Error).message).toBe(message)

describe('ACP-99 scenario steps', () => {
  it('initialize, register, then the P-chain\'s ack: the manager\'s events and the P-chain agree', async () => {
    const s = scenario([
      CONVERT, INITIALIZE, REGISTER,
      '  - toPChain: { message: step:register, validation: v3, balance: 1 avax, account: acct:relayer }',
      '  - assert: { l1Validator: { validation: validation:v3, active: true, weight: 50 } }',
      '  - fromPChain: { message: { registration: validation:v3 }, to: contract:manager, method: completeValidatorRegistration, args: [0] }',
      '  - assert: { event: { contract: contract:manager, event: CompletedValidatorRegistration, args: [validation:v3, 50] } }',
      '  - assert: { call: { contract: contract:manager, method: getNodeValidationID, args: [node:3], equals: validation:v3 } }',
    ])
    await passes(s, 3)
  })

  it('removing conversion validators: their not-registered messages are justified by the conversion\'s subnet and index', async () => {
    const remove = (v: string) => [
      `  - { name: remove-${v}, call: { contract: contract:manager, method: initiateValidatorRemoval, args: [validation:${v}] } }`,
      `  - toPChain: { message: step:remove-${v} }`,
      `  - fromPChain: { message: { removal: validation:${v} }, to: contract:manager, method: completeValidatorRemoval, args: [0] }`,
      `  - assert: { event: { contract: contract:manager, event: CompletedValidatorRemoval, args: [validation:${v}] } }`,
    ]
    const s = scenario([CONVERT, INITIALIZE, ...remove('v1'), ...remove('v2'), '  - assert: { call: { contract: contract:manager, method: l1TotalWeight, equals: 100 } }'])
    await passes(s, 3)
  })

  it('toPChain signs through the aggregator: two of three validators withholding, the step fails with its refusal and nothing is registered', async () => {
    const s = scenario([
      CONVERT, INITIALIZE, REGISTER,
      '  - inject: { fault: withholdWarpSignatures, node: node:1 }',
      '  - inject: { fault: withholdWarpSignatures, node: node:2 }',
      '  - toPChain: { message: step:register, validation: v3, balance: 1 avax }',
    ])
    let l1Sizes: number[] = []
    const error = await outcome(s, (network) => {
      l1Sizes = network.validators.subnetIds().filter((id) => id !== PRIMARY_NETWORK_ID).map((id) => network.validators.current(id).length)
    })
    expect(error).toBeInstanceOf(ScenarioStepError)
    expect((error as Error).message).toBe(`${FILE}:12:5: steps[6].toPChain: failed to aggregate signatures. error: failed to collect a threshold of signatures`)
    expect(l1Sizes).toEqual([3])
  })

  it('fromPChain: a removal the P-chain would not sign (the validation is still registered) is refused by its validators', async () => {
    const s = scenario([CONVERT, INITIALIZE, '  - fromPChain: { message: { removal: validation:v0 }, to: contract:manager, method: completeValidatorRemoval, args: [0] }'])
    await failsWith(s, `${FILE}:9:5: steps[3].fromPChain: failed to aggregate signatures. error: failed to collect a threshold of signatures`)
  })

  it('conversion:<subnet> before the subnet is converted: a positioned error', async () => {
    const s = scenario([INITIALIZE])
    await failsWith(s, `${FILE}:7:5: steps[1].fromPChain: subnet managed has not been converted`)
  })

  const issues = (steps: string[]) => {
    try {
      scenario(steps)
    } catch (e) {
      expect(e).toBeInstanceOf(ScenarioValidationError)
      return (e as ScenarioValidationError).issues.map((i) => `${i.line}:${i.column} ${i.path}: ${i.message}`)
    }
    return []
  }

  it('parse: a validation is known after the toPChain step naming it; a P-chain message is one of four kinds', () => {
    expect(issues([
      CONVERT,
      '  - fromPChain: { message: { registration: validation:v3 }, to: contract:manager, method: completeValidatorRegistration, args: [0] }',
      REGISTER,
      '  - toPChain: { message: step:register, validation: v3, balance: 1 avax }',
      '  - fromPChain: { message: { registration: validation:v3 }, to: contract:manager, method: completeValidatorRegistration, args: [0] }',
      '  - fromPChain: { message: { bogus: validation:v3 }, to: contract:manager, method: completeValidatorRegistration, args: [0] }',
    ])).toEqual([
      '8:44 steps[2].fromPChain.message.registration: unknown validation validation:v3 (no conversion validator or earlier registerL1Validator or toPChain step names it)',
      '12:30 steps[6].fromPChain.message.bogus: unknown P-chain message "bogus" (expected one of conversion, registration, removal, weight)',
    ])
  })

  it('parse: fromPChain\'s method is checked against the contract\'s ABI', () => {
    expect(issues([CONVERT, '  - fromPChain: { message: { weight: validation:v0 }, to: contract:manager, method: completeWeight, args: [0] }'])).toEqual([
      expect.stringMatching(/^8:\d+ steps\[2\]\.fromPChain\.method: .*completeWeight/),
    ])
  })

  it('relay signs through the aggregator too: with two of three validators withholding it fails; signers named by the step still sign', async () => {
    const s = parseScenario(
      [
        'network: { nodes: 3 }',
        'accounts: { count: 2, named: { alice: 0, bob: 1 } }',
        'l1s:',
        '  - { name: alpha, chainId: 11111, precompiles: { warp: {} }, alloc: { acct:alice: 100 ether, acct:bob: 100 ether } }',
        '  - { name: beta, chainId: 22222, precompiles: { warp: {} }, alloc: { acct:alice: 100 ether, acct:bob: 100 ether } }',
        'steps:',
        '  - deploy: { contract: senderA, artifact: artifacts/WarpReceiver.json, chain: chain:alpha }',
        '  - deploy: { contract: receiverB, artifact: artifacts/WarpReceiver.json, chain: chain:beta }',
        '  - { name: hello, call: { contract: contract:senderA, method: send, args: ["0x68656c6c6f"], from: acct:alice } }',
        '  - relay: { message: step:hello, to: contract:receiverB, method: receiveMessage, args: [0], from: acct:bob, signers: [node:0, node:1, node:2] }',
        '  - assert: { call: { contract: contract:receiverB, method: valid, equals: true } }',
        '  - inject: { fault: withholdWarpSignatures, node: node:1 }',
        '  - inject: { fault: withholdWarpSignatures, node: node:2 }',
        '  - relay: { message: step:hello, to: contract:receiverB, method: receiveMessage, args: [0], from: acct:bob }',
      ].join('\n') + '\n',
      FILE,
    )
    await failsWith(s, `${FILE}:14:5: steps[7].relay: failed to aggregate signatures. error: failed to collect a threshold of signatures`)
  })
})
