import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createScenarioNetwork, readScenario } from '../../src/scenario/index.js'

const DIR = 'scenarios'
const files = readdirSync(DIR).filter((f) => /\.(ya?ml|json)$/.test(f)).sort()

describe('example scenarios', () => {
  it('there are at least the documented examples', () => {
    expect(files).toEqual(expect.arrayContaining(['cross-chain.yaml', 'default.yaml', 'l1-validator-manager.yaml', 'precompiles-and-upgrades.yaml', 'token-activity.yaml', 'validator-lifecycle.yaml']))
  })

  for (const file of files) {
    it(`${file} runs with every assertion passing`, async () => {
      const scenario = await readScenario(join(DIR, file))
      const { network, run } = await createScenarioNetwork(scenario)
      try {
        expect(run.failures).toEqual([])
        expect(run.passed).toBeGreaterThan(0)
        expect(run.passed).toBe((scenario.steps ?? []).filter((s) => s.kind === 'assert').length)
      } finally {
        await network.close()
      }
    })
  }
})
