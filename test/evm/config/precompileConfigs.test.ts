import { describe, it, expect } from 'vitest'
import { ConfigError } from '../../../src/evm/config/errors.js'
import {
  PRECOMPILE_KEYS,
  parsePrecompileConfig,
  precompileConfigsEqual,
  verifyFeeConfig,
  verifyPrecompileConfig,
  parseFeeConfigJson,
} from '../../../src/evm/config/precompileConfigs.js'
import type { NetworkUpgrades, PrecompileConfig, PrecompileKey } from '../../../src/evm/config/types.js'
import { DEFAULT_FEE_CONFIG, type FeeConfig } from '../../../src/evm/fees.js'

const A = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC'
const B = '0x0Fa8EA536Be85F32724D57A37758761B86416123'
const a = A.toLowerCase()
const UPGRADES: NetworkUpgrades = {
  subnetEVMTimestamp: 0n,
  durangoTimestamp: 100n,
  etnaTimestamp: 200n,
  fortunaTimestamp: undefined,
  graniteTimestamp: 300n,
}

const parse = (key: PrecompileKey, json: unknown) => parsePrecompileConfig(key, json, `config.${key}`)
const verify = (key: PrecompileKey, json: unknown) => () => verifyPrecompileConfig(parse(key, json), UPGRADES)

describe('parsePrecompileConfig', () => {
  it('keeps key order of the registry: modules sorted by address', () => {
    expect(PRECOMPILE_KEYS).toEqual([
      'contractDeployerAllowListConfig',
      'contractNativeMinterConfig',
      'txAllowListConfig',
      'feeManagerConfig',
      'rewardManagerConfig',
      'warpConfig',
    ])
  })

  it('reads an allow list, lower-casing checksummed addresses and ignoring unknown fields', () => {
    const c = parse('txAllowListConfig', { blockTimestamp: 5, adminAddresses: [A], enabledAddresses: [B], whatever: 1 })
    expect(c).toEqual({
      key: 'txAllowListConfig',
      blockTimestamp: 5n,
      disable: false,
      adminAddresses: [a],
      managerAddresses: [],
      enabledAddresses: [B.toLowerCase()],
    })
  })

  it('treats a null or missing blockTimestamp as never (Go nil)', () => {
    expect(parse('txAllowListConfig', { blockTimestamp: null }).blockTimestamp).toBeUndefined()
    expect(parse('txAllowListConfig', {}).blockTimestamp).toBeUndefined()
    expect(parse('txAllowListConfig', null).blockTimestamp).toBeUndefined()
  })

  it('matches struct fields case-insensitively, as encoding/json does', () => {
    expect(parse('warpConfig', { BlockTimestamp: 7, QuorumNumerator: 50 })).toMatchObject({ blockTimestamp: 7n, quorumNumerator: 50n })
  })

  it('refuses a string timestamp', () => {
    expect(() => parse('warpConfig', { blockTimestamp: '7' })).toThrow(/cannot unmarshal string into Go value of type uint64/)
  })

  it('refuses something that is not an address', () => {
    expect(() => parse('txAllowListConfig', { adminAddresses: ['0x1234'] })).toThrow(ConfigError)
    expect(() => parse('txAllowListConfig', { adminAddresses: ['0x1234'] })).toThrow(/want 40 for common.Address \(config.txAllowListConfig.adminAddresses\[0\]\)/)
    expect(() => parse('txAllowListConfig', { adminAddresses: [A.slice(2)] })).toThrow(/without 0x prefix/)
    expect(() => parse('txAllowListConfig', { adminAddresses: [`0x${'z'.repeat(40)}`] })).toThrow(/invalid hex string/)
    expect(() => parse('txAllowListConfig', { adminAddresses: [42] })).toThrow(/cannot unmarshal number into Go value of type common.Address/)
  })

  it('reads initialMint amounts as hex, decimal strings or numbers', () => {
    const c = parse('contractNativeMinterConfig', { blockTimestamp: 0, initialMint: { [A]: '0x10', [B]: '1000000000000000000000', '0x0000000000000000000000000000000000000001': 7 } })
    if (c.key !== 'contractNativeMinterConfig') throw new Error('wrong key')
    expect([...c.initialMint.entries()]).toEqual([
      [a, 16n],
      [B.toLowerCase(), 10n ** 21n],
      ['0x0000000000000000000000000000000000000001', 7n],
    ])
    expect(() => parse('contractNativeMinterConfig', { initialMint: { [A]: '0xzz' } })).toThrow('invalid hex or decimal integer "0xzz"')
    expect(() => parse('contractNativeMinterConfig', { initialMint: { [A]: 1.5 } })).toThrow('invalid hex or decimal integer "1.5"')
  })

  it('refuses a nil initial mint amount with Verify\'s message', () => {
    expect(() => parse('contractNativeMinterConfig', { initialMint: { [a]: null } })).toThrow(`initial mint cannot contain nil amount for address ${A}`)
  })

  it('reads initialFeeConfig and initialRewardConfig', () => {
    const fee = parse('feeManagerConfig', { blockTimestamp: 0, initialFeeConfig: { ...jsonFee(DEFAULT_FEE_CONFIG), gasLimit: 20_000_000 } })
    expect(fee.key === 'feeManagerConfig' && fee.initialFeeConfig?.gasLimit).toBe(20_000_000n)
    const reward = parse('rewardManagerConfig', { blockTimestamp: 0, initialRewardConfig: { allowFeeRecipients: true } })
    expect(reward.key === 'rewardManagerConfig' && reward.initialRewardConfig).toEqual({ allowFeeRecipients: true, rewardAddress: undefined })
  })

  it('refuses an incomplete initialFeeConfig with the nil message', () => {
    expect(() => parse('feeManagerConfig', { initialFeeConfig: { gasLimit: 1 } })).toThrow('minBaseFee cannot be nil')
  })

  it('refuses fee config values given as strings, as *big.Int does', () => {
    expect(() => parseFeeConfigJson({ gasLimit: '8000000' }, 'feeConfig')).toThrow(/math\/big: cannot unmarshal/)
  })

  it('reads warp fields with zero defaults', () => {
    expect(parse('warpConfig', { blockTimestamp: 1 })).toEqual({
      key: 'warpConfig',
      blockTimestamp: 1n,
      disable: false,
      quorumNumerator: 0n,
      requirePrimaryNetworkSigners: false,
    })
  })
})

function jsonFee(fc: FeeConfig): Record<string, number> {
  return Object.fromEntries(Object.entries(fc).map(([k, v]) => [k, Number(v)]))
}

describe('verifyPrecompileConfig: allow list', () => {
  it('accepts a valid config', () => {
    expect(verify('txAllowListConfig', { blockTimestamp: 100, adminAddresses: [A], enabledAddresses: [B], managerAddresses: ['0x0000000000000000000000000000000000000001'] })).not.toThrow()
  })
  it('duplicate address in enabled list', () => {
    expect(verify('txAllowListConfig', { blockTimestamp: 0, enabledAddresses: [A, a] })).toThrow(`duplicate address in enabled list: ${A}`)
  })
  it('duplicate address in admin list', () => {
    expect(verify('contractDeployerAllowListConfig', { blockTimestamp: 0, adminAddresses: [a, A] })).toThrow(`duplicate address in admin list: ${A}`)
  })
  it('cannot set address as both admin and enabled', () => {
    expect(verify('txAllowListConfig', { blockTimestamp: 0, enabledAddresses: [A], adminAddresses: [A] })).toThrow(`cannot set address as both admin and enabled: ${A}`)
  })
  it('cannot add managers before Durango', () => {
    expect(verify('txAllowListConfig', { blockTimestamp: 99, managerAddresses: [A] })).toThrow(/^cannot add managers before Durango$/)
    // A nil timestamp skips the check, as in Go.
    expect(verify('txAllowListConfig', { managerAddresses: [A] })).not.toThrow()
  })
  it('duplicate address in manager list', () => {
    expect(verify('txAllowListConfig', { blockTimestamp: 100, managerAddresses: [A, A] })).toThrow(`duplicate address in manager list: ${A}`)
  })
  it('cannot set address as both admin and manager', () => {
    expect(verify('feeManagerConfig', { blockTimestamp: 100, adminAddresses: [A], managerAddresses: [A] })).toThrow(`cannot set address as both admin and manager: ${A}`)
  })
  it('cannot set address as both enabled and manager', () => {
    expect(verify('rewardManagerConfig', { blockTimestamp: 100, enabledAddresses: [A], managerAddresses: [A] })).toThrow(`cannot set address as both enabled and manager: ${A}`)
  })
})

describe('verifyPrecompileConfig: modules', () => {
  it('initial mint cannot contain invalid amount', () => {
    expect(verify('contractNativeMinterConfig', { blockTimestamp: 0, initialMint: { [A]: '0' } })).toThrow(`initial mint cannot contain invalid amount: amount 0 for address ${A}`)
    expect(verify('contractNativeMinterConfig', { blockTimestamp: 0, initialMint: { [A]: '-5' } })).toThrow(`initial mint cannot contain invalid amount: amount -5 for address ${A}`)
  })
  it('checks initial mint before the allow list', () => {
    expect(verify('contractNativeMinterConfig', { blockTimestamp: 0, enabledAddresses: [A, A], initialMint: { [A]: '0' } })).toThrow(/initial mint/)
  })
  it('reward config both', () => {
    expect(verify('rewardManagerConfig', { blockTimestamp: 0, initialRewardConfig: { allowFeeRecipients: true, rewardAddress: A } })).toThrow(
      /^cannot enable both fee recipients and reward address at the same time$/,
    )
    expect(verify('rewardManagerConfig', { blockTimestamp: 0, initialRewardConfig: { allowFeeRecipients: true, rewardAddress: '0x0000000000000000000000000000000000000000' } })).not.toThrow()
  })
  it('fee manager runs FeeConfig.Verify on initialFeeConfig, unwrapped, after the allow list', () => {
    const bad = { ...jsonFee(DEFAULT_FEE_CONFIG), targetGas: 0 }
    expect(verify('feeManagerConfig', { blockTimestamp: 0, initialFeeConfig: bad })).toThrow(/^targetGas cannot be less than or equal to 0: targetGas = 0$/)
    expect(verify('feeManagerConfig', { blockTimestamp: 0, enabledAddresses: [A, A], initialFeeConfig: bad })).toThrow(/duplicate address/)
  })
  it('warp cannot be activated before Durango', () => {
    expect(verify('warpConfig', { blockTimestamp: 99 })).toThrow(/^warp cannot be activated before Durango$/)
    expect(verify('warpConfig', { blockTimestamp: 100 })).not.toThrow()
  })
  it('warp quorum above the denominator', () => {
    expect(verify('warpConfig', { blockTimestamp: 100, quorumNumerator: 101 })).toThrow('invalid warp quorum ratio: cannot specify numerator (101) > denominator (100)')
  })
  it('warp quorum below the minimum', () => {
    expect(verify('warpConfig', { blockTimestamp: 100, quorumNumerator: 32 })).toThrow('invalid warp quorum ratio: cannot specify numerator (32) < min numerator (33)')
    expect(verify('warpConfig', { blockTimestamp: 100, quorumNumerator: 0 })).not.toThrow()
    expect(verify('warpConfig', { blockTimestamp: 100, quorumNumerator: 33 })).not.toThrow()
  })
})

describe('verifyFeeConfig', () => {
  const ok = DEFAULT_FEE_CONFIG
  const cases: [Partial<Record<keyof FeeConfig, bigint | undefined>>, string][] = [
    [{ gasLimit: undefined }, 'gasLimit cannot be nil'],
    [{ minBaseFee: undefined }, 'minBaseFee cannot be nil'],
    [{ targetGas: undefined }, 'targetGas cannot be nil'],
    [{ baseFeeChangeDenominator: undefined }, 'baseFeeChangeDenominator cannot be nil'],
    [{ minBlockGasCost: undefined }, 'minBlockGasCost cannot be nil'],
    [{ maxBlockGasCost: undefined }, 'maxBlockGasCost cannot be nil'],
    [{ blockGasCostStep: undefined }, 'blockGasCostStep cannot be nil'],
    [{ gasLimit: 0n }, 'gasLimit cannot be less than or equal to 0: gasLimit = 0'],
    [{ targetBlockRate: 0n }, 'targetBlockRate cannot be less than or equal to 0: targetBlockRate = 0'],
    [{ minBaseFee: -1n }, 'minBaseFee cannot be less than 0: minBaseFee = -1'],
    [{ targetGas: 0n }, 'targetGas cannot be less than or equal to 0: targetGas = 0'],
    [{ baseFeeChangeDenominator: 0n }, 'baseFeeChangeDenominator cannot be less than or equal to 0: baseFeeChangeDenominator = 0'],
    [{ minBlockGasCost: -1n }, 'minBlockGasCost cannot be less than 0: minBlockGasCost = -1'],
    [{ minBlockGasCost: 2n, maxBlockGasCost: 1n }, 'minBlockGasCost cannot be greater than maxBlockGasCost: minBlockGasCost = 2, maxBlockGasCost = 1'],
    [{ blockGasCostStep: -1n }, 'blockGasCostStep cannot be less than 0: blockGasCostStep = -1'],
    [{ maxBlockGasCost: 1n << 64n }, `maxBlockGasCost is not a valid uint64: maxBlockGasCost = ${1n << 64n}`],
    [{ gasLimit: 1n << 256n }, 'gasLimit exceeds hash length: 32 bytes'],
    [{ minBaseFee: 1n << 256n }, 'minBaseFee exceeds hash length: 32 bytes'],
    [{ blockGasCostStep: 1n << 256n }, 'blockGasCostStep exceeds hash length: 32 bytes'],
  ]
  for (const [change, message] of cases) {
    it(message, () => {
      expect(() => verifyFeeConfig({ ...ok, ...change } as FeeConfig)).toThrow(new RegExp(`^${message.replace(/[()]/g, '\\$&')}$`))
    })
  }
  it('accepts the default config', () => {
    expect(() => verifyFeeConfig(ok)).not.toThrow()
  })
})

describe('precompileConfigsEqual', () => {
  const p = (key: PrecompileKey, json: unknown): PrecompileConfig => parse(key, json)
  it('compares timestamps, disable and lists in order', () => {
    expect(precompileConfigsEqual(p('txAllowListConfig', { blockTimestamp: 1, adminAddresses: [A, B] }), p('txAllowListConfig', { blockTimestamp: 1, adminAddresses: [a, B] }))).toBe(true)
    expect(precompileConfigsEqual(p('txAllowListConfig', { blockTimestamp: 1, adminAddresses: [A, B] }), p('txAllowListConfig', { blockTimestamp: 1, adminAddresses: [B, A] }))).toBe(false)
    expect(precompileConfigsEqual(p('txAllowListConfig', { blockTimestamp: 1 }), p('txAllowListConfig', { blockTimestamp: 2 }))).toBe(false)
    expect(precompileConfigsEqual(p('txAllowListConfig', { blockTimestamp: 1 }), p('contractDeployerAllowListConfig', { blockTimestamp: 1 }))).toBe(false)
  })
  it('keeps Go\'s quirk: warp ignores requirePrimaryNetworkSigners', () => {
    expect(precompileConfigsEqual(p('warpConfig', { blockTimestamp: 1 }), p('warpConfig', { blockTimestamp: 1, requirePrimaryNetworkSigners: true }))).toBe(true)
    expect(precompileConfigsEqual(p('warpConfig', { blockTimestamp: 1 }), p('warpConfig', { blockTimestamp: 1, quorumNumerator: 50 }))).toBe(false)
  })
  it('compares initial mints as maps', () => {
    expect(precompileConfigsEqual(p('contractNativeMinterConfig', { initialMint: { [A]: '0x10', [B]: 1 } }), p('contractNativeMinterConfig', { initialMint: { [B]: '1', [A]: 16 } }))).toBe(true)
    expect(precompileConfigsEqual(p('contractNativeMinterConfig', { initialMint: { [A]: '0x10' } }), p('contractNativeMinterConfig', { initialMint: { [A]: 17 } }))).toBe(false)
  })
})
