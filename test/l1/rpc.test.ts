import { describe, expect, it } from 'vitest'
import { createNetwork } from '../../src/network/network.js'
import { createEthDispatcher } from '../../src/rpc/dispatcher.js'
import { createEthMethods } from '../../src/rpc/methods/index.js'
import { admin, testGenesis } from './helpers.js'

async function setup(config: Record<string, unknown> = {}, upgrade?: unknown) {
  const network = await createNetwork({ l1s: [{ name: 'dex', genesis: testGenesis(config), upgrade }] })
  const dispatcher = createEthDispatcher({ methods: createEthMethods() })
  const call = async (chain: string, method: string, params: unknown[] = []) => {
    const text = await dispatcher.handle(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), { network, chain: network.chain(chain)! })
    return JSON.parse(text!) as { result?: unknown; error?: { code: number; message: string } }
  }
  const raw = async (chain: string, method: string, params: unknown[] = []) =>
    (await dispatcher.handle(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), { network, chain: network.chain(chain)! }))?.trimEnd()
  return { network, call, raw }
}

describe('subnet-EVM extension methods', () => {
  it('eth_feeConfig: the genesis config with lastChangedAt 0 while the fee manager is off', async () => {
    const { call, raw } = await setup()
    expect(await raw('dex', 'eth_feeConfig', ['latest'])).toBe(
      '{"jsonrpc":"2.0","id":1,"result":{"feeConfig":{"gasLimit":20000000,"targetBlockRate":2,"minBaseFee":1000000000,"targetGas":100000000,"baseFeeChangeDenominator":48,"minBlockGasCost":0,"maxBlockGasCost":10000000,"blockGasCostStep":500000},"lastChangedAt":0}}',
    )
    expect((await call('dex', 'eth_feeConfig', [])).result).toEqual((await call('dex', 'eth_feeConfig', ['latest'])).result)
  })

  it("eth_feeConfig without a genesis feeConfig: subnet-EVM's DefaultFeeConfig, the reference's example byte for byte", async () => {
    const genesis = testGenesis()
    delete (genesis.config as Record<string, unknown>).feeConfig
    genesis.gasLimit = '0x7A1200' // 8,000,000: DefaultFeeConfig.gasLimit
    const network = await createNetwork({ l1s: [{ name: 'dex', genesis }] })
    const dispatcher = createEthDispatcher({ methods: createEthMethods() })
    const text = await dispatcher.handle('{"jsonrpc":"2.0","id":1,"method":"eth_feeConfig","params":[]}', { network, chain: network.chain('dex')! })
    expect(text?.trimEnd()).toBe(
      '{"jsonrpc":"2.0","id":1,"result":{"feeConfig":{"gasLimit":8000000,"targetBlockRate":2,"minBaseFee":25000000000,"targetGas":15000000,"baseFeeChangeDenominator":36,"minBlockGasCost":0,"maxBlockGasCost":1000000,"blockGasCostStep":200000},"lastChangedAt":0}}',
    )
  })

  it('eth_getChainConfig: sorted keys, precompiles inlined, upgrades last', async () => {
    const { call } = await setup(
      { txAllowListConfig: { blockTimestamp: 1607144400, adminAddresses: [admin.address] } },
      { precompileUpgrades: [{ txAllowListConfig: { blockTimestamp: 1900000000, disable: true } }] },
    )
    const config = (await call('dex', 'eth_getChainConfig')).result as Record<string, unknown>
    const keys = Object.keys(config)
    expect(keys[keys.length - 1]).toBe('upgrades')
    expect(keys.slice(0, -1)).toEqual([...keys.slice(0, -1)].sort())
    expect(config).toMatchObject({
      chainId: 99999,
      durangoTimestamp: 1607144400,
      etnaTimestamp: 1607144400,
      graniteTimestamp: 1607144400,
      shanghaiTime: 1607144400,
      cancunTime: 1607144400,
      txAllowListConfig: { adminAddresses: [admin.address.toLowerCase()], blockTimestamp: 1607144400 },
      upgrades: { precompileUpgrades: [{ txAllowListConfig: { blockTimestamp: 1900000000, disable: true } }] },
    })
  })

  it('eth_getActiveRulesAt: Go field names, decimal timestamps, active precompiles', async () => {
    const { call, raw } = await setup({ warpConfig: { blockTimestamp: 1607144400 }, txAllowListConfig: { blockTimestamp: 1607144400, adminAddresses: [admin.address] } })
    const text = await raw('dex', 'eth_getActiveRulesAt', [1700000000])
    expect(text).toBe(
      '{"jsonrpc":"2.0","id":1,"result":{"ethRules":{"ChainID":99999,"IsHomestead":true,"IsEIP150":true,"IsEIP155":true,"IsEIP158":true,"IsByzantium":true,"IsConstantinople":true,"IsPetersburg":true,"IsIstanbul":true,"IsBerlin":true,"IsLondon":true,"IsMerge":true,"IsShanghai":true,"IsCancun":true,"IsPrague":false,"IsVerkle":false},"avalancheRules":{"IsSubnetEVM":true,"IsDurango":true,"IsEtna":true,"IsFortuna":false,"IsGranite":true},"precompiles":{"txAllowListConfig":{"timestamp":1607144400},"warpConfig":{"timestamp":1607144400}}}}',
    )
    const before = (await call('dex', 'eth_getActiveRulesAt', [100])).result as { precompiles: object; avalancheRules: Record<string, boolean> }
    expect(before.precompiles).toEqual({})
    expect(before.avalancheRules.IsDurango).toBe(false)
    expect((await call('dex', 'eth_getActivePrecompilesAt', [1700000000])).result).toMatchObject({ warpConfig: { blockTimestamp: 1607144400 } })
  })

  it('timestamps are JSON numbers: hex and tags are refused as the node refuses them', async () => {
    const { call } = await setup()
    for (const bad of ['0x1', 'latest']) {
      expect((await call('dex', 'eth_getActiveRulesAt', [bad])).error).toEqual({ code: -32602, message: 'invalid argument 0: json: cannot unmarshal string into Go value of type uint64' })
      expect((await call('dex', 'eth_getActivePrecompilesAt', [bad])).error?.code).toBe(-32602)
    }
    expect((await call('dex', 'eth_getActiveRulesAt', [-1])).error?.message).toBe('invalid argument 0: json: cannot unmarshal number -1 into Go value of type uint64')
  })

  it('the C-chain keeps coreth flavour: plain chain config, none of the other extension methods', async () => {
    const { call } = await setup()
    const config = (await call('C', 'eth_getChainConfig')).result as Record<string, unknown>
    expect(config.upgrades).toBeUndefined()
    expect(config).toMatchObject({ chainId: 43112, apricotPhase1BlockTimestamp: 1607144400, durangoBlockTimestamp: 1607144400, etnaTimestamp: 1607144400 })
    expect(Object.keys(config)).toEqual([...Object.keys(config)].sort())
    for (const method of ['eth_feeConfig', 'eth_getActiveRulesAt', 'eth_getActivePrecompilesAt', 'warp_getMessage'])
      expect((await call('C', method, [])).error).toEqual({ code: -32601, message: `the method ${method} does not exist/is not available` })
  })
})
