import { describe, it, expect } from 'vitest'
import { parseSubnetGenesis, subnetEvmNetworkDefaults, type EthUpgrades } from '../../../src/evm/config/genesis.js'
import { chainConfigJson, feeConfigJson, precompileConfigJson, stringifyJson, jsonInt, type ChainConfigJsonInput } from '../../../src/evm/config/json.js'
import { parsePrecompileConfig } from '../../../src/evm/config/precompileConfigs.js'
import { DEFAULT_FEE_CONFIG } from '../../../src/evm/fees.js'

const T = 1607144400
const ADMIN = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC'

describe('chainConfigJson', () => {
  it('reproduces TestChainConfigMarshalWithUpgrades (with l1EvmTimestamp for subnetEVMTimestamp)', () => {
    const eth: EthUpgrades = {
      homesteadBlock: 0n,
      eip150Block: 0n,
      eip155Block: 0n,
      eip158Block: 0n,
      byzantiumBlock: 0n,
      constantinopleBlock: 0n,
      petersburgBlock: 0n,
      istanbulBlock: 0n,
      muirGlacierBlock: 0n,
      berlinBlock: undefined,
      londonBlock: undefined,
      shanghaiTime: undefined,
      cancunTime: undefined,
    }
    const cfg: ChainConfigJsonInput = {
      chainId: 1n,
      ethUpgrades: eth,
      networkUpgrades: { subnetEVMTimestamp: 0n, durangoTimestamp: 0n },
      feeConfig: DEFAULT_FEE_CONFIG,
      allowFeeRecipients: false,
      genesisPrecompiles: [],
      precompileUpgrades: [parsePrecompileConfig('txAllowListConfig', { blockTimestamp: 100 }, 'x')],
      stateUpgrades: [],
      networkUpgradeOverrides: undefined,
    }
    const expected = `{
      "chainId": 1,
      "feeConfig": {
        "gasLimit": 8000000, "targetBlockRate": 2, "minBaseFee": 25000000000, "targetGas": 15000000,
        "baseFeeChangeDenominator": 36, "minBlockGasCost": 0, "maxBlockGasCost": 1000000, "blockGasCostStep": 200000
      },
      "homesteadBlock": 0, "eip150Block": 0, "eip155Block": 0, "eip158Block": 0, "byzantiumBlock": 0,
      "constantinopleBlock": 0, "petersburgBlock": 0, "istanbulBlock": 0, "muirGlacierBlock": 0,
      "l1EvmTimestamp": 0, "durangoTimestamp": 0,
      "upgrades": { "precompileUpgrades": [ { "txAllowListConfig": { "blockTimestamp": 100 } } ] }
    }`
    const text = JSON.stringify(chainConfigJson(cfg))
    // require.JSONEq in Go: the same object...
    expect(JSON.parse(text)).toEqual(JSON.parse(expected))
    // ...and byte for byte in Go's order: sorted keys, then upgrades.
    expect(text).toBe(
      '{"byzantiumBlock":0,"chainId":1,"constantinopleBlock":0,"durangoTimestamp":0,"eip150Block":0,"eip155Block":0,"eip158Block":0,' +
        '"feeConfig":{"gasLimit":8000000,"targetBlockRate":2,"minBaseFee":25000000000,"targetGas":15000000,"baseFeeChangeDenominator":36,"minBlockGasCost":0,"maxBlockGasCost":1000000,"blockGasCostStep":200000},' +
        '"homesteadBlock":0,"istanbulBlock":0,"l1EvmTimestamp":0,"muirGlacierBlock":0,"petersburgBlock":0,' +
        '"upgrades":{"precompileUpgrades":[{"txAllowListConfig":{"blockTimestamp":100}}]}}',
    )
  })

  it('writes a parsed genesis as a live node does', () => {
    const cfg = parseSubnetGenesis(
      {
        config: {
          chainId: 99999,
          feeConfig: {},
          allowFeeRecipients: true,
          warpConfig: { blockTimestamp: T },
          contractNativeMinterConfig: { blockTimestamp: 0, adminAddresses: [ADMIN], initialMint: { [ADMIN]: '1000' } },
        },
        alloc: {},
        gasLimit: 8000000,
        difficulty: 0,
      },
      { networkDefaults: subnetEvmNetworkDefaults({ durangoTime: T, etnaTime: T, graniteTime: T }) },
    )
    const json = chainConfigJson(cfg)
    expect(Object.keys(json)).toEqual([
      'allowFeeRecipients',
      'berlinBlock',
      'byzantiumBlock',
      'cancunTime',
      'chainId',
      'constantinopleBlock',
      'contractNativeMinterConfig',
      'durangoTimestamp',
      'eip150Block',
      'eip155Block',
      'eip158Block',
      'etnaTimestamp',
      'feeConfig',
      'graniteTimestamp',
      'homesteadBlock',
      'istanbulBlock',
      'l1EvmTimestamp',
      'londonBlock',
      'muirGlacierBlock',
      'petersburgBlock',
      'shanghaiTime',
      'warpConfig',
      'upgrades',
    ])
    expect(json.shanghaiTime).toBe(T)
    expect(json.upgrades).toEqual({})
    expect(JSON.stringify(json.contractNativeMinterConfig)).toBe(
      '{"adminAddresses":["0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc"],"blockTimestamp":0,"initialMint":{"0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc":"0x3e8"}}',
    )
  })

  it('writes networkUpgradeOverrides and state upgrades in upgrades', () => {
    const cfg = parseSubnetGenesis(
      { config: { chainId: 1 }, alloc: {}, gasLimit: 8000000, difficulty: 0 },
      {
        networkDefaults: subnetEvmNetworkDefaults({ durangoTime: T, etnaTime: T, graniteTime: T }),
        upgradeJson: {
          networkUpgradeOverrides: { fortunaTimestamp: T },
          stateUpgrades: [{ blockTimestamp: 5, accounts: { [ADMIN]: { balanceChange: '100' } } }],
        },
      },
    )
    expect(JSON.stringify(chainConfigJson(cfg).upgrades)).toBe(
      '{"networkUpgradeOverrides":{"fortunaTimestamp":1607144400},"stateUpgrades":[{"blockTimestamp":5,"accounts":{"0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc":{"balanceChange":"0x64"}}}]}',
    )
  })
})

describe('precompileConfigJson', () => {
  const json = (key: Parameters<typeof parsePrecompileConfig>[0], v: unknown) => JSON.stringify(precompileConfigJson(parsePrecompileConfig(key, v, 'x')))
  it('puts allow-list fields first, then the upgrade, then module fields', () => {
    expect(json('feeManagerConfig', { initialFeeConfig: { gasLimit: 1, targetBlockRate: 2, minBaseFee: 3, targetGas: 4, baseFeeChangeDenominator: 5, minBlockGasCost: 6, maxBlockGasCost: 7, blockGasCostStep: 8 }, blockTimestamp: 3, enabledAddresses: [ADMIN], managerAddresses: [ADMIN], disable: true })).toBe(
      '{"managerAddresses":["0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc"],"enabledAddresses":["0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc"],"blockTimestamp":3,"disable":true,' +
        '"initialFeeConfig":{"gasLimit":1,"targetBlockRate":2,"minBaseFee":3,"targetGas":4,"baseFeeChangeDenominator":5,"minBlockGasCost":6,"maxBlockGasCost":7,"blockGasCostStep":8}}',
    )
  })
  it('keeps a null blockTimestamp and always writes rewardAddress', () => {
    expect(json('rewardManagerConfig', { initialRewardConfig: { allowFeeRecipients: true } })).toBe(
      '{"blockTimestamp":null,"initialRewardConfig":{"allowFeeRecipients":true,"rewardAddress":"0x0000000000000000000000000000000000000000"}}',
    )
  })
  it('writes warp with its zero values', () => {
    expect(json('warpConfig', { blockTimestamp: 1, disable: true })).toBe('{"blockTimestamp":1,"disable":true,"quorumNumerator":0,"requirePrimaryNetworkSigners":false}')
  })
})

describe('feeConfigJson', () => {
  it('has the eth_feeConfig shape', () => {
    expect(JSON.stringify(feeConfigJson(DEFAULT_FEE_CONFIG, 0n))).toBe(
      '{"feeConfig":{"gasLimit":8000000,"targetBlockRate":2,"minBaseFee":25000000000,"targetGas":15000000,"baseFeeChangeDenominator":36,"minBlockGasCost":0,"maxBlockGasCost":1000000,"blockGasCostStep":200000},"lastChangedAt":0}',
    )
  })
  it('leaves lastChangedAt out when undefined', () => {
    expect(Object.keys(feeConfigJson(DEFAULT_FEE_CONFIG))).toEqual(['feeConfig'])
  })
})

describe('big numbers', () => {
  it('stay exact as bigints and are written as bare numbers by stringifyJson', () => {
    expect(jsonInt(2n ** 53n - 1n)).toBe(Number.MAX_SAFE_INTEGER)
    expect(jsonInt(2n ** 53n)).toBe(2n ** 53n)
    const out = feeConfigJson({ ...DEFAULT_FEE_CONFIG, minBaseFee: 10n ** 30n })
    expect(() => JSON.stringify(out)).toThrow(TypeError)
    expect(stringifyJson(out)).toContain('"minBaseFee":1000000000000000000000000000000,')
    expect(stringifyJson({ a: [-(2n ** 70n), 'x'] })).toBe(`{"a":[-${2n ** 70n},"x"]}`)
  })
})
