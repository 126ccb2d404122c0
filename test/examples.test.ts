import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main as quickstart } from '../examples/quickstart.js'
import { main as scenarioStart } from '../examples/scenarioStart.js'
import { main as fixture } from '../examples/fixture.js'
import { main as saveLoad } from '../examples/saveLoad.js'
import { main as reset } from '../examples/reset.js'
import { main as l1 } from '../examples/l1.js'
import { main as pchain } from '../examples/pchain.js'

const PRESETS = ['local', 'fuji', 'mainnet'] as const

const ether = 10n ** 18n

describe('README examples', () => {
  it('quickstart: send, read, revert', async () => {
    expect(await quickstart()).toEqual({ balance: 10n ** 18n, afterRevert: 0n })
  })

  it.each(PRESETS)('scenarioStart on %s: a devnet from scenarios/default.yaml, its assertions and names', async (preset) => {
    expect(await scenarioStart(preset)).toEqual({ passed: 3, failed: 0, carolOnDex: 5n * ether, tokenCode: true })
  })

  it('fixture: loadFixture runs the setup once and reverts to it', async () => {
    expect(await fixture()).toEqual({ inFirstTest: 3n * ether, inSecondTest: 1n * ether, setupRuns: 1 })
  })

  it('saveLoad: a snapshot file continues in-process and served', async () => {
    const root = fileURLToPath(new URL('./.tmp/', import.meta.url))
    mkdirSync(root, { recursive: true })
    const dir = mkdtempSync(join(root, 'example-save-load-'))
    try {
      const result = await saveLoad(dir)
      expect(result.bytes).toBeGreaterThan(0)
      expect(result.loaded).toEqual({ balance: 3n, height: 2n })
      expect(result.served).toEqual({ balance: 3n, height: 2n })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it.each(PRESETS)('reset on %s: back to the state the scenario left', async (preset) => {
    const result = await reset(preset)
    expect(result.afterScenario).toBe(10_001n * ether + ether / 2n)
    expect(result.changed).toBe(ether)
    expect(result.afterReset).toBe(result.afterScenario)
    expect(result.heights[1]).toBe(result.heights[0])
    expect(result.heights[0]).toBeGreaterThan(0n)
  })

  it('pchain: a BaseTx from avalanchejs, issued with platform.issueTx, Committed at once', async () => {
    const result = await pchain()
    expect(result.status).toBe('Committed')
    expect(result.received).toBe(1_000_000_000n)
    // the sender paid the amount and the dynamic fee
    expect(result.sent).toBeGreaterThan(result.received)
    expect(result.sent - result.received).toBeLessThan(1_000_000n)
  })

  it.each(PRESETS)('l1 on %s: the README\'s L1 genesis and upgrade.json, warp and the minter on from genesis', async (preset) => {
    expect(await l1(preset)).toEqual({
      chainId: 99999,
      precompiles: ['contractNativeMinterConfig', 'txAllowListConfig', 'warpConfig'],
      minted: ether,
      feeManagerAt: 1767225700,
    })
  })
})
