import { describe, expect, it } from 'vitest'
import { bytesToHex } from '@ethereumjs/util'
import type { PrecompileConfig } from '../../../src/evm/config/types.js'
import { DEFAULT_FEE_CONFIG, type FeeConfig } from '../../../src/evm/fees.js'
import {
  PRECOMPILE_MODULES,
  createPrecompileModules,
  modulesInAddressOrder,
  type PrecompileModule,
} from '../../../src/evm/precompiles/index.js'
import { canDeploy, deployerNotAuthorizedMessage } from '../../../src/evm/precompiles/deployerAllowList.js'
import { readFeeConfig } from '../../../src/evm/precompiles/feeManager.js'
import { readRewardAddress } from '../../../src/evm/precompiles/rewardManager.js'
import { getTxAllowListRole, senderNotAllowListedMessage } from '../../../src/evm/precompiles/txAllowList.js'
import { ADMIN, ENABLED, MemoryState, NOBODY, NOBODY_CHECKSUM } from './harness.js'

const upgrade = { blockTimestamp: 0n, disable: false }
const lists = { adminAddresses: [ADMIN], managerAddresses: [], enabledAddresses: [ENABLED] }
const GENESIS_FEES: FeeConfig = { ...DEFAULT_FEE_CONFIG, gasLimit: 12_345_678n }
const ctx = { blockNumber: 5n, genesisFeeConfig: GENESIS_FEES, genesisAllowFeeRecipients: false }

describe('PRECOMPILE_MODULES', () => {
  it('holds the five non-warp modules by address, in address order', () => {
    expect([...PRECOMPILE_MODULES.keys()]).toEqual([
      '0x0200000000000000000000000000000000000000',
      '0x0200000000000000000000000000000000000001',
      '0x0200000000000000000000000000000000000002',
      '0x0200000000000000000000000000000000000003',
      '0x0200000000000000000000000000000000000004',
    ])
    expect([...PRECOMPILE_MODULES.values()].map((m) => m.key)).toEqual([
      'contractDeployerAllowListConfig',
      'contractNativeMinterConfig',
      'txAllowListConfig',
      'feeManagerConfig',
      'rewardManagerConfig',
    ])
  })

  it('can be extended (warp) and sorted', () => {
    const modules = createPrecompileModules()
    const warp: PrecompileModule = {
      key: 'warpConfig',
      address: '0x0200000000000000000000000000000000000005',
      run: async () => ({ returnData: new Uint8Array(0), gasLeft: 0n }),
      configure: async () => {},
    }
    modules.set(warp.address, warp)
    expect(modulesInAddressOrder(modules).map((m) => m.key).at(-1)).toBe('warpConfig')
    expect(PRECOMPILE_MODULES.size).toBe(5)
  })

  it('configure dispatches each config', async () => {
    const state = new MemoryState()
    const configs: PrecompileConfig[] = [
      { key: 'contractDeployerAllowListConfig', ...upgrade, ...lists },
      { key: 'contractNativeMinterConfig', ...upgrade, ...lists, initialMint: new Map([[NOBODY, 3n]]) },
      { key: 'txAllowListConfig', ...upgrade, ...lists },
      { key: 'feeManagerConfig', ...upgrade, ...lists, initialFeeConfig: undefined },
      { key: 'rewardManagerConfig', ...upgrade, ...lists, initialRewardConfig: undefined },
    ]
    for (const [i, m] of [...PRECOMPILE_MODULES.values()].entries()) await m.configure(state, configs[i]!, ctx)
    expect(await canDeploy(state, ENABLED)).toBe(true)
    expect(await canDeploy(state, NOBODY)).toBe(false)
    expect(await getTxAllowListRole(state, ADMIN)).toBe(2n)
    expect(state.balances.get(NOBODY)).toBe(3n)
    expect(await readFeeConfig(state)).toEqual({ feeConfig: GENESIS_FEES, lastChangedAt: 5n })
    expect(await readRewardAddress(state)).toEqual({ address: '0x0100000000000000000000000000000000000000', allowFeeRecipients: false })
    const feeManager = PRECOMPILE_MODULES.get('0x0200000000000000000000000000000000000003')!
    await expect(feeManager.configure(state, configs[0]!, ctx)).rejects.toThrow(
      'expected config type feeManagerConfig, got contractDeployerAllowListConfig',
    )
  })

  it('each module runs its own precompile', async () => {
    const state = new MemoryState()
    for (const m of PRECOMPILE_MODULES.values()) {
      const r = await m.run({
        address: m.address,
        caller: NOBODY,
        origin: NOBODY,
        input: new Uint8Array([0xeb, 0x54, 0xda, 0xe1, ...new Uint8Array(32)]),
        gas: 10_000n,
        readOnly: true,
        value: 0n,
        rules: { isDurango: true, isGranite: false, blockNumber: 1n, timestamp: 1n },
        state,
        log: () => {},
      })
      expect(r.error).toBeUndefined()
      expect(bytesToHex(r.returnData)).toBe(`0x${'0'.repeat(64)}`)
    }
  })

  it('enforcement messages print checksummed addresses', () => {
    expect(deployerNotAuthorizedMessage(NOBODY)).toBe(`tx.origin ${NOBODY_CHECKSUM} is not authorized to deploy a contract`)
    expect(senderNotAllowListedMessage(NOBODY)).toBe(
      `cannot issue transaction from non-allow listed address: ${NOBODY_CHECKSUM}`,
    )
  })
})
