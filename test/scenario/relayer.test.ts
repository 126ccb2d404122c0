import { describe, expect, it } from 'vitest'
import { createNetwork } from '../../src/network/network.js'
import { networkOptionsOf, parseScenario, runScenario, ScenarioValidationError } from '../../src/scenario/index.js'

const text = (lines: string[]) => lines.join('\n') + '\n'

describe('scenario relayer steps', () => {
  it('refuses a relayer mode the relayer does not take, positioned', () => {
    const source = text(['steps:', '  - relayer: { mode: sometimes }', '  - deliver: none'])
    let issues: { line: number; path: string; message: string }[] = []
    try {
      parseScenario(source, 'scenarios/inline.yaml')
    } catch (error) {
      issues = (error as ScenarioValidationError).issues
    }
    expect(issues.map((i) => `${i.line} ${i.path}: ${i.message}`)).toEqual([
      '2 steps[0].relayer.mode: expected auto, manual, delay=<N>s or delay=<N>blocks, got "sometimes"',
      '3 steps[1].deliver: expected all or a mapping { message: step:<name> }, got "none"',
    ])
  })

  it('a deliver step naming a transaction that sent no ICM message fails with the step position', async () => {
    const s = parseScenario(text(['network: { nodes: 1 }', 'accounts: { count: 2 }', 'steps:', '  - relayer: { mode: manual }', '  - { name: pay, send: { from: acct:0, to: acct:1, value: 1 wei } }', '  - deliver: { message: step:pay }']), 'scenarios/inline.yaml')
    const network = await createNetwork(networkOptionsOf(s))
    await expect(runScenario(network, s)).rejects.toThrow('scenarios/inline.yaml:6:5: steps[2].deliver: step pay has no ICM message waiting for delivery')
    expect(network.relayer.mode).toEqual({ mode: 'manual' })
    await network.close()
  })
})
