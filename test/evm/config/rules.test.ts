import { describe, it, expect } from 'vitest'
import { parseSubnetGenesis, subnetEvmNetworkDefaults } from '../../../src/evm/config/genesis.js'
import {
  activePrecompileConfig,
  activePrecompilesAt,
  isDurango,
  isEtna,
  isFortuna,
  isGranite,
  isPrecompileEnabled,
  precompileTransitions,
  rulesAt,
} from '../../../src/evm/config/rules.js'

const T = 1607144400
const ADMIN = '0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc'

function chain(config: Record<string, unknown>, precompileUpgrades: unknown[] = []) {
  return parseSubnetGenesis(
    {
      config: { chainId: 99999, feeConfig: {}, ...config },
      alloc: {},
      gasLimit: 8_000_000,
      difficulty: 0,
      timestamp: T,
    },
    { networkDefaults: subnetEvmNetworkDefaults({ durangoTime: T, etnaTime: T, graniteTime: T + 1000 }), upgradeJson: { precompileUpgrades } },
  )
}

describe('fork helpers', () => {
  it('are true from the timestamp on', () => {
    const cfg = chain({ fortunaTimestamp: T + 500 })
    expect(isDurango(cfg, BigInt(T - 1))).toBe(false)
    expect(isDurango(cfg, BigInt(T))).toBe(true)
    expect(isEtna(cfg, BigInt(T))).toBe(true)
    expect(isFortuna(cfg, BigInt(T + 499))).toBe(false)
    expect(isFortuna(cfg, BigInt(T + 500))).toBe(true)
    expect(isGranite(cfg, BigInt(T + 999))).toBe(false)
    expect(isGranite(cfg, BigInt(T + 1000))).toBe(true)
    expect(isFortuna(chain({}), 10n ** 12n)).toBe(false)
  })
})

describe('precompile activation', () => {
  const cfg = chain({ txAllowListConfig: { blockTimestamp: 0, adminAddresses: [ADMIN] } }, [
    { txAllowListConfig: { blockTimestamp: T + 10, disable: true } },
    { warpConfig: { blockTimestamp: T + 10 } },
    { txAllowListConfig: { blockTimestamp: T + 20, enabledAddresses: [ADMIN] } },
    { contractDeployerAllowListConfig: { blockTimestamp: T + 20, adminAddresses: [ADMIN] } },
  ])

  it('follows disable and re-enable', () => {
    expect(activePrecompileConfig(cfg, 'txAllowListConfig', 0n)).toMatchObject({ blockTimestamp: 0n, adminAddresses: [ADMIN] })
    expect(activePrecompileConfig(cfg, 'txAllowListConfig', BigInt(T + 9))?.blockTimestamp).toBe(0n)
    expect(activePrecompileConfig(cfg, 'txAllowListConfig', BigInt(T + 10))).toBeUndefined()
    expect(isPrecompileEnabled(cfg, 'txAllowListConfig', BigInt(T + 19))).toBe(false)
    expect(activePrecompileConfig(cfg, 'txAllowListConfig', BigInt(T + 20))).toMatchObject({ enabledAddresses: [ADMIN], adminAddresses: [] })
    expect(isPrecompileEnabled(cfg, 'warpConfig', BigInt(T + 9))).toBe(false)
    expect(isPrecompileEnabled(cfg, 'warpConfig', BigInt(T + 10))).toBe(true)
  })

  it('a config with a null timestamp never activates', () => {
    const never = chain({ txAllowListConfig: { blockTimestamp: null } })
    expect(isPrecompileEnabled(never, 'txAllowListConfig', 10n ** 15n)).toBe(false)
    expect(precompileTransitions(never, undefined, 10n ** 15n)).toEqual([])
  })

  it('applies genesis configs with ts <= genesis time when there is no parent', () => {
    expect(precompileTransitions(cfg, undefined, BigInt(T)).map((c) => [c.key, c.blockTimestamp])).toEqual([['txAllowListConfig', 0n]])
  })

  it('applies an upgrade in the first block with time >= its timestamp, not at t == parent time', () => {
    const ts = BigInt(T + 10)
    expect(precompileTransitions(cfg, ts - 1n, ts - 1n)).toEqual([])
    // t == block time: applies.
    expect(precompileTransitions(cfg, ts - 1n, ts).map((c) => c.key)).toEqual(['txAllowListConfig', 'warpConfig'])
    // t == parent time: already applied by the parent.
    expect(precompileTransitions(cfg, ts, ts + 5n)).toEqual([])
    // Skipping past it in one block still applies it.
    expect(precompileTransitions(cfg, ts - 5n, ts + 5n).map((c) => c.key)).toEqual(['txAllowListConfig', 'warpConfig'])
  })

  it('orders by precompile address, then list order within a precompile', () => {
    const all = precompileTransitions(cfg, BigInt(T), BigInt(T + 100))
    expect(all.map((c) => [c.key, c.blockTimestamp, c.disable])).toEqual([
      ['contractDeployerAllowListConfig', BigInt(T + 20), false],
      ['txAllowListConfig', BigInt(T + 10), true],
      ['txAllowListConfig', BigInt(T + 20), false],
      ['warpConfig', BigInt(T + 10), false],
    ])
  })
})

describe('rulesAt', () => {
  it('has the eth_getActiveRulesAt shape with Go field names in order', () => {
    const cfg = chain({ txAllowListConfig: { blockTimestamp: 0, adminAddresses: [ADMIN] }, warpConfig: { blockTimestamp: T } })
    const rules = rulesAt(cfg, BigInt(T + 1))
    expect(JSON.stringify(rules)).toBe(
      JSON.stringify({
        ethRules: {
          ChainID: 99999,
          IsHomestead: true,
          IsEIP150: true,
          IsEIP155: true,
          IsEIP158: true,
          IsByzantium: true,
          IsConstantinople: true,
          IsPetersburg: true,
          IsIstanbul: true,
          IsBerlin: true,
          IsLondon: true,
          IsMerge: true,
          IsShanghai: true,
          IsCancun: true,
          IsPrague: false,
          IsVerkle: false,
        },
        avalancheRules: { IsSubnetEVM: true, IsDurango: true, IsEtna: true, IsFortuna: false, IsGranite: false },
        precompiles: { txAllowListConfig: { timestamp: 0 }, warpConfig: { timestamp: 1607144400 } },
      }),
    )
  })

  it('is pre-Shanghai before Durango', () => {
    const cfg = chain({})
    const rules = rulesAt(cfg, BigInt(T - 1))
    expect(rules.ethRules).toMatchObject({ IsLondon: true, IsMerge: true, IsShanghai: false, IsCancun: false })
    expect(rules.avalancheRules).toEqual({ IsSubnetEVM: true, IsDurango: false, IsEtna: false, IsFortuna: false, IsGranite: false })
    expect(rules.precompiles).toEqual({})
  })

  it('lists precompiles in key order', () => {
    const cfg = chain({ warpConfig: { blockTimestamp: T }, contractDeployerAllowListConfig: { blockTimestamp: 0 }, feeManagerConfig: { blockTimestamp: 0 } })
    expect(Object.keys(rulesAt(cfg, BigInt(T)).precompiles)).toEqual(['contractDeployerAllowListConfig', 'feeManagerConfig', 'warpConfig'])
  })
})

describe('activePrecompilesAt', () => {
  it('returns the config JSON of enabled precompiles', () => {
    const cfg = chain({ warpConfig: { blockTimestamp: T } }, [{ txAllowListConfig: { blockTimestamp: T + 5, adminAddresses: [ADMIN] } }])
    expect(JSON.stringify(activePrecompilesAt(cfg, BigInt(T + 5)))).toBe(
      '{"txAllowListConfig":{"adminAddresses":["0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc"],"blockTimestamp":1607144405},"warpConfig":{"blockTimestamp":1607144400,"quorumNumerator":0,"requirePrimaryNetworkSigners":false}}',
    )
    expect(activePrecompilesAt(cfg, BigInt(T - 1))).toEqual({})
  })
})
