import { describe, it, expect } from 'vitest'
import { ConfigError } from '../../../src/evm/config/errors.js'
import {
  parseSubnetGenesis,
  subnetEvmNetworkDefaults,
  verifyUpgradeCompatible,
  withUpgradeJson,
  parseUpgradeJson,
  type SubnetChainConfig,
} from '../../../src/evm/config/genesis.js'
import { DEFAULT_FEE_CONFIG } from '../../../src/evm/fees.js'

const LOCAL = 1607144400
const local = subnetEvmNetworkDefaults({ durangoTime: LOCAL, etnaTime: LOCAL, graniteTime: LOCAL })
const FUJI = subnetEvmNetworkDefaults({ durangoTime: 1707840000, etnaTime: 1732550400, graniteTime: 1761750000 })
const ADMIN = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC'

const FEE = {
  gasLimit: 20000000,
  minBaseFee: 1000000000,
  targetGas: 100000000,
  baseFeeChangeDenominator: 48,
  minBlockGasCost: 0,
  maxBlockGasCost: 10000000,
  targetBlockRate: 2,
  blockGasCostStep: 500000,
}

/** tests/warp/genesis/genesis.json of subnet-EVM, with a few precompiles. */
function genesis(config: Record<string, unknown> = {}, top: Record<string, unknown> = {}) {
  return {
    config: {
      chainId: 99999,
      homesteadBlock: 0,
      eip150Block: 0,
      eip155Block: 0,
      eip158Block: 0,
      byzantiumBlock: 0,
      constantinopleBlock: 0,
      petersburgBlock: 0,
      istanbulBlock: 0,
      muirGlacierBlock: 0,
      feeConfig: FEE,
      ...config,
    },
    alloc: { '8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC': { balance: '0x52B7D2DCC80CD2E4000000' } },
    nonce: '0x0',
    timestamp: '0x5FCB13D0',
    extraData: '0x00',
    gasLimit: '0x1312D00',
    difficulty: '0x0',
    mixHash: '0x0000000000000000000000000000000000000000000000000000000000000000',
    coinbase: '0x0000000000000000000000000000000000000000',
    number: '0x0',
    gasUsed: '0x0',
    parentHash: '0x0000000000000000000000000000000000000000000000000000000000000000',
    ...top,
  }
}

const parse = (json: unknown, upgradeJson?: unknown, defaults = local) =>
  parseSubnetGenesis(json, upgradeJson === undefined ? { networkDefaults: defaults } : { networkDefaults: defaults, upgradeJson })

describe('parseSubnetGenesis', () => {
  it('parses the warp test genesis', () => {
    const cfg = parse(genesis({ warpConfig: { blockTimestamp: LOCAL }, txAllowListConfig: { blockTimestamp: 0, adminAddresses: [ADMIN] } }))
    expect(cfg.chainId).toBe(99999n)
    expect(cfg.timestamp).toBe(0x5fcb13d0n)
    expect(cfg.gasLimit).toBe(20_000_000n)
    expect(cfg.extraData).toBe('0x00')
    expect(cfg.feeConfig.baseFeeChangeDenominator).toBe(48n)
    expect(cfg.networkUpgrades).toEqual({
      subnetEVMTimestamp: 0n,
      durangoTimestamp: 1607144400n,
      etnaTimestamp: 1607144400n,
      fortunaTimestamp: undefined,
      graniteTimestamp: 1607144400n,
    })
    expect(cfg.ethUpgrades).toMatchObject({ berlinBlock: 0n, londonBlock: 0n, shanghaiTime: 1607144400n, cancunTime: 1607144400n })
    // Address order, not document order.
    expect(cfg.genesisPrecompiles.map((c) => c.key)).toEqual(['txAllowListConfig', 'warpConfig'])
    expect(cfg.alloc).toEqual({ '0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc': { balance: 0x52b7d2dcc80cd2e4000000n } })
    expect(cfg.baseFeePerGas).toBeUndefined()
  })

  it('uses the default fee config when feeConfig is absent or empty', () => {
    for (const feeConfig of [undefined, {}]) {
      const cfg = parse(genesis({ feeConfig }, { gasLimit: 8_000_000 }))
      expect(cfg.feeConfig).toEqual(DEFAULT_FEE_CONFIG)
    }
  })

  it('uses the default chain config without config', () => {
    const json: Record<string, unknown> = genesis({}, { gasLimit: '8000000' })
    delete json.config
    const cfg = parse(json)
    expect(cfg.chainId).toBe(43214n)
    expect(cfg.networkUpgrades.durangoTimestamp).toBe(1709740800n)
  })

  it('reads alloc accounts with and without 0x, hex or decimal balances, code, storage and nonce', () => {
    const cfg = parse(
      genesis({}, {
        alloc: {
          '0x0000000000000000000000000000000000000001': { balance: '1000', nonce: '0x2', code: '0x6001', storage: { '0x01': '0x02' } },
          '0000000000000000000000000000000000000002': { balance: 5 },
        },
        baseFeePerGas: '0x3b9aca00',
      }),
    )
    expect(cfg.alloc).toEqual({
      '0x0000000000000000000000000000000000000001': {
        balance: 1000n,
        nonce: 2n,
        code: '0x6001',
        storage: { [`0x${'0'.repeat(63)}1`]: `0x${'0'.repeat(63)}2` },
      },
      '0x0000000000000000000000000000000000000002': { balance: 5n },
    })
    expect(cfg.baseFeePerGas).toBe(1_000_000_000n)
  })

  it('requires gasLimit, difficulty, alloc and balances', () => {
    const without = (key: string) => {
      const json: Record<string, unknown> = genesis()
      delete json[key]
      return json
    }
    expect(() => parse(without('gasLimit'))).toThrow("parsing genesis: missing required field 'gasLimit' for Genesis")
    expect(() => parse(without('difficulty'))).toThrow("parsing genesis: missing required field 'difficulty' for Genesis")
    expect(() => parse(without('alloc'))).toThrow("parsing genesis: missing required field 'alloc' for Genesis")
    expect(() => parse(genesis({}, { alloc: { [ADMIN]: {} } }))).toThrow("parsing genesis: missing required field 'balance' for Account")
  })

  it('refuses bad alloc addresses and numbers', () => {
    expect(() => parse(genesis({}, { alloc: { '0x12': { balance: 1 } } }))).toThrow(ConfigError)
    expect(() => parse(genesis({}, { gasLimit: '0xg' }))).toThrow('parsing genesis: invalid hex or decimal integer "0xg" (gasLimit)')
  })

  it('gas limit in fee config must match the header', () => {
    expect(() => parse(genesis({}, { gasLimit: 8_000_000 }))).toThrow(
      /^failed to verify genesis: gas limit in fee config \(20000000\) does not match gas limit in header \(8000000\)$/,
    )
  })

  it('wraps fee config errors', () => {
    expect(() => parse(genesis({ feeConfig: { ...FEE, targetGas: 0 } }))).toThrow(
      /^failed to verify genesis: invalid fee config: targetGas cannot be less than or equal to 0: targetGas = 0$/,
    )
  })

  it('reports a missing gasLimit in a non-empty fee config', () => {
    const { gasLimit: _, ...rest } = FEE
    expect(() => parse(genesis({ feeConfig: rest }))).toThrow('failed to verify genesis: invalid fee config: gasLimit cannot be nil')
  })

  it('SetDefaults: nil or 0 take the network default, later values stay', () => {
    const cfg = parse(genesis({ subnetEVMTimestamp: 0, durangoTimestamp: 0, etnaTimestamp: 1800000000, graniteTimestamp: 1900000000 }))
    expect(cfg.networkUpgrades).toMatchObject({ durangoTimestamp: 1607144400n, etnaTimestamp: 1800000000n, graniteTimestamp: 1900000000n })
    expect(cfg.ethUpgrades.cancunTime).toBe(1800000000n)
  })

  it('accepts l1EvmTimestamp as the SubnetEVM timestamp', () => {
    const cfg = parse(genesis({ l1EvmTimestamp: 5, subnetEVMTimestamp: 3 }))
    expect(cfg.networkUpgrades.subnetEVMTimestamp).toBe(5n)
    expect(parse(genesis({ subnetEVMTimestamp: 3 })).networkUpgrades.subnetEVMTimestamp).toBe(3n)
  })

  it('refuses a timestamp before the network default', () => {
    expect(() => parse(genesis({ durangoTimestamp: 1700000000 }), undefined, FUJI)).toThrow(
      /^failed to verify genesis: invalid network upgrades: durango fork block timestamp is invalid: provided timestamp must be greater than or equal to the default timestamp: provided timestamp 1700000000, default timestamp 1707840000$/,
    )
  })

  it('checks the fork order', () => {
    expect(() => parse(genesis({ durangoTimestamp: 1800000000 }), undefined, FUJI)).toThrow(
      'unsupported fork ordering: durangoTimestamp enabled at timestamp 1800000000, but etnaTimestamp enabled at timestamp 1732550400',
    )
  })

  it('lets a configured Fortuna be skipped in the order check but not misplaced', () => {
    expect(parse(genesis({ fortunaTimestamp: 1607144401, graniteTimestamp: 1607144402 })).networkUpgrades.fortunaTimestamp).toBe(1607144401n)
    expect(() => parse(genesis({ fortunaTimestamp: 1607144500 }))).toThrow(/unsupported fork ordering: fortunaTimestamp enabled at timestamp 1607144500, but graniteTimestamp/)
  })

  it('applies networkUpgradeOverrides from upgrade.json, including 0 on a local network', () => {
    const cfg = parse(genesis(), { networkUpgradeOverrides: { durangoTimestamp: 0, etnaTimestamp: 0, graniteTimestamp: 0 } })
    expect(cfg.networkUpgrades).toMatchObject({ durangoTimestamp: 0n, etnaTimestamp: 0n, graniteTimestamp: 0n })
    expect(cfg.ethUpgrades.shanghaiTime).toBe(0n)
    expect(cfg.networkUpgradeOverrides).toEqual({ durangoTimestamp: 0n, etnaTimestamp: 0n, graniteTimestamp: 0n })
    // An override below a non-initial default is refused like a configured one.
    expect(() => parse(genesis(), { networkUpgradeOverrides: { durangoTimestamp: 0 } }, FUJI)).toThrow(
      'invalid network upgrades: durango fork block timestamp is invalid: provided timestamp must be greater than or equal to the default timestamp: provided timestamp 0, default timestamp 1707840000',
    )
  })

  it('verifies genesis precompiles with the chain\'s upgrades', () => {
    expect(() => parse(genesis({ warpConfig: { blockTimestamp: 0 } }))).toThrow(
      /^failed to verify genesis: invalid precompile upgrades: warp cannot be activated before Durango$/,
    )
  })
})

describe('precompile upgrades', () => {
  const run = (precompileUpgrades: unknown[], config: Record<string, unknown> = {}) => () => parse(genesis(config), { precompileUpgrades })
  const wrapped = (message: string) => new RegExp(`^failed to verify genesis: invalid precompile upgrades: ${message.replace(/[()[\]]/g, '\\$&')}$`)

  it('reads them from upgrade.json', () => {
    const cfg = run([{ txAllowListConfig: { blockTimestamp: 2000000000, adminAddresses: [ADMIN] } }, { txAllowListConfig: { blockTimestamp: 2000000001, disable: true } }])()
    expect(cfg.precompileUpgrades.map((c) => [c.key, c.blockTimestamp, c.disable])).toEqual([
      ['txAllowListConfig', 2000000000n, false],
      ['txAllowListConfig', 2000000001n, true],
    ])
  })

  it('reads them from config.upgrades when there is no upgrade.json, which then replaces them', () => {
    const json = genesis({ upgrades: { precompileUpgrades: [{ warpConfig: { blockTimestamp: 2000000000 } }] } })
    expect(parse(json).precompileUpgrades).toHaveLength(1)
    expect(parse(json, {}).precompileUpgrades).toHaveLength(0)
  })

  it('PrecompileUpgrade cannot be empty', () => {
    expect(run([{}])).toThrow(/^failed to parse upgrade bytes: PrecompileUpgrade cannot be empty$/)
  })
  it('PrecompileUpgrade must have exactly one key', () => {
    expect(run([{ warpConfig: { blockTimestamp: 1 }, txAllowListConfig: { blockTimestamp: 1 } }])).toThrow(
      /^failed to parse upgrade bytes: PrecompileUpgrade must have exactly one key, got 2$/,
    )
  })
  it('unknown precompile config', () => {
    expect(run([{ fooConfig: { blockTimestamp: 1 } }])).toThrow(/^failed to parse upgrade bytes: unknown precompile config: fooConfig$/)
  })
  it('is a parse error when in config.upgrades', () => {
    expect(() => parse(genesis({ upgrades: { precompileUpgrades: [{}] } }))).toThrow(/^parsing genesis: PrecompileUpgrade cannot be empty$/)
  })
  it('nil timestamp', () => {
    expect(run([{ txAllowListConfig: {} }])).toThrow(wrapped('precompile upgrade block timestamp cannot be nil: PrecompileUpgrade (txAllowListConfig) at [0]'))
  })
  it('timestamps must not decrease across keys', () => {
    expect(run([{ txAllowListConfig: { blockTimestamp: 20 } }, { feeManagerConfig: { blockTimestamp: 10 } }])).toThrow(
      wrapped(
        'precompile upgrade config block timestamp must be greater than or equal to previous timestamp: PrecompileUpgrade (feeManagerConfig) at [1] has timestamp 10, previous timestamp 20',
      ),
    )
    // Equal timestamps of different keys are fine.
    expect(run([{ txAllowListConfig: { blockTimestamp: 20 } }, { feeManagerConfig: { blockTimestamp: 20 } }])).not.toThrow()
  })
  it('first entry of a key not in genesis must enable', () => {
    expect(run([{ txAllowListConfig: { blockTimestamp: 20, disable: true } }])).toThrow(
      wrapped('precompile upgrade disable value is invalid: PrecompileUpgrade (txAllowListConfig) at [0], disable should be false'),
    )
  })
  it('a key enabled in genesis must be disabled first', () => {
    expect(run([{ txAllowListConfig: { blockTimestamp: 20 } }], { txAllowListConfig: { blockTimestamp: 0 } })).toThrow(
      wrapped('precompile upgrade disable value is invalid: PrecompileUpgrade (txAllowListConfig) at [0], disable should be true'),
    )
  })
  it('a genesis config with a nil timestamp does not count as enabled', () => {
    expect(run([{ txAllowListConfig: { blockTimestamp: 20 } }], { txAllowListConfig: { blockTimestamp: null } })).not.toThrow()
  })
  it('same key needs a strictly greater timestamp', () => {
    expect(run([{ txAllowListConfig: { blockTimestamp: 20 } }, { txAllowListConfig: { blockTimestamp: 20, disable: true } }])).toThrow(
      wrapped(
        'precompile upgrade config block timestamp for same key must be strictly greater than previous timestamp: PrecompileUpgrade (txAllowListConfig) at [1] has timestamp 20, previous timestamp of same key 20',
      ),
    )
    expect(run([{ txAllowListConfig: { blockTimestamp: 5 } }], { txAllowListConfig: { blockTimestamp: 5, adminAddresses: [ADMIN] } })).toThrow(/disable should be true/)
  })
  it('disable then re-enable is accepted', () => {
    expect(
      run([
        { txAllowListConfig: { blockTimestamp: 20, disable: true } },
        { txAllowListConfig: { blockTimestamp: 30, adminAddresses: [ADMIN] } },
        { txAllowListConfig: { blockTimestamp: 40, disable: true } },
      ], { txAllowListConfig: { blockTimestamp: 0 } }),
    ).not.toThrow()
  })
  it('runs the config\'s Verify last', () => {
    expect(run([{ warpConfig: { blockTimestamp: 1607144400, quorumNumerator: 101 } }])).toThrow(
      wrapped('invalid warp quorum ratio: cannot specify numerator (101) > denominator (100)'),
    )
  })
  it('checks the first error in list order', () => {
    expect(run([{ txAllowListConfig: { blockTimestamp: 20, enabledAddresses: [ADMIN, ADMIN] } }, { txAllowListConfig: {} }])).toThrow(/duplicate address in enabled list/)
  })
})

describe('state upgrades', () => {
  const run = (stateUpgrades: unknown[]) => () => parse(genesis(), { stateUpgrades })
  it('parses accounts', () => {
    const cfg = run([{ blockTimestamp: 5, accounts: { [ADMIN]: { balanceChange: '0x10', code: '0x60', storage: { [`0x${'0'.repeat(63)}1`]: `0x${'0'.repeat(63)}2` } } } }])()
    expect(cfg.stateUpgrades[0]?.accounts['0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc']).toEqual({
      balanceChange: 16n,
      code: '0x60',
      storage: { [`0x${'0'.repeat(63)}1`]: `0x${'0'.repeat(63)}2` },
    })
  })
  it('nil timestamp', () => {
    expect(run([{ accounts: {} }])).toThrow('failed to verify genesis: invalid state upgrades: state upgrade config block timestamp cannot be nil: StateUpgrade[0]')
  })
  it('zero timestamp', () => {
    expect(run([{ blockTimestamp: 0 }])).toThrow('invalid state upgrades: state upgrade config block timestamp must be greater than 0: StateUpgrade[0] has timestamp 0')
  })
  it('strictly increasing', () => {
    expect(run([{ blockTimestamp: 5 }, { blockTimestamp: 5 }])).toThrow(
      'invalid state upgrades: state upgrade config block timestamp must be greater than previous timestamp: StateUpgrade[1] has timestamp 5, previous timestamp 5',
    )
  })
})

describe('verifyUpgradeCompatible', () => {
  const base = (precompileUpgrades: unknown[]): SubnetChainConfig => parse(genesis(), { precompileUpgrades })
  const upgrades = (list: unknown[]) => parseUpgradeJson({ precompileUpgrades: list }).precompileUpgrades
  const enable10 = { txAllowListConfig: { blockTimestamp: 10, adminAddresses: [ADMIN] } }
  const disable20 = { txAllowListConfig: { blockTimestamp: 20, disable: true } }

  it('accepts keeping activated entries and adding future ones', () => {
    expect(() => verifyUpgradeCompatible(base([enable10]), upgrades([enable10, disable20]), 15n)).not.toThrow()
  })
  it('lets entries not yet active change or go away', () => {
    expect(() => verifyUpgradeCompatible(base([enable10, disable20]), upgrades([enable10]), 19n)).not.toThrow()
  })
  it('cannot retroactively enable', () => {
    expect(() => verifyUpgradeCompatible(base([enable10]), upgrades([enable10, disable20]), 20n)).toThrow(
      /^mismatching cannot retroactively enable PrecompileUpgrade\[1\] in database \(have timestamp nil, want timestamp 20, rewindto timestamp 19\)$/,
    )
  })
  it('activated entries must stay present', () => {
    expect(() => verifyUpgradeCompatible(base([enable10]), upgrades([]), 10n)).toThrow(
      /^mismatching missing PrecompileUpgrade\[0\] in database \(have timestamp 10, want timestamp nil, rewindto timestamp 9\)$/,
    )
  })
  it('activated entries must stay identical', () => {
    const changed = { txAllowListConfig: { blockTimestamp: 10, adminAddresses: [] } }
    expect(() => verifyUpgradeCompatible(base([enable10]), upgrades([changed]), 12n)).toThrow(
      /^mismatching PrecompileUpgrade\[0\] in database \(have timestamp 10, want timestamp 10, rewindto timestamp 9\)$/,
    )
  })
  it('reports the earliest conflict (CheckCompatible rewinds)', () => {
    const old = base([enable10, disable20])
    const next = upgrades([{ txAllowListConfig: { blockTimestamp: 10, enabledAddresses: [ADMIN] } }])
    expect(() => verifyUpgradeCompatible(old, next, 25n)).toThrow(/^mismatching PrecompileUpgrade\[0\] in database \(have timestamp 10/)
  })
  it('withUpgradeJson installs verified, compatible upgrades', () => {
    const cfg = withUpgradeJson(base([enable10]), { precompileUpgrades: [enable10, { txAllowListConfig: { blockTimestamp: 30, disable: true } }] }, 15n)
    expect(cfg.precompileUpgrades).toHaveLength(2)
    expect(() => withUpgradeJson(base([]), { precompileUpgrades: [disable20] }, 15n)).toThrow(/disable should be false/)
  })
})
