import { describe, expect, it } from 'vitest'
import { getAddress, getContractAddress, type Hex } from 'viem'
import { admin, alice, bob, carol, l1Network } from '../helpers.js'
import { allowListGenesis, allowListSuite, type AllowListSuiteOptions } from './allowListSuite.js'
import { DEPLOYER_LIST, FACTORY_RUNTIME, allowListAbi, deploy, expectCallError, initCode, sendCall, sendTx } from './common.js'

const suite: AllowListSuiteOptions = { precompile: DEPLOYER_LIST, configKey: 'contractDeployerAllowListConfig' }
const refusal = (address: string) => `tx.origin ${address} is not authorized to deploy a contract`
/** A contract whose runtime is one STOP byte. */
const STOP_INIT = initCode('0x00')

describe('contractDeployerAllowList (0x0200…00)', () => {
  allowListSuite(suite)

  it('Admin, Manager and Enabled origins deploy', async () => {
    const h = await l1Network(allowListGenesis(suite))
    for (const from of [admin, alice, bob]) {
      const receipt = await sendTx(h, from, undefined, STOP_INIT, 100_000n)
      expect(receipt.status).toBe('success')
      expect(await h.publicClient.getCode({ address: receipt.contractAddress! })).toBe('0x00')
    }
    await h.network.close()
  })

  it('a None origin: eth_call/estimateGas fail with the Go message; the mined creation tx is included, reverted, all gas used, nonce +1', async () => {
    const h = await l1Network(allowListGenesis(suite))
    await expectCallError(h, carol.address, undefined, STOP_INIT, refusal('0x90F79bf6EB2c4f870365E785982E1f101E93b906'))
    await expect(h.publicClient.estimateGas({ account: carol.address, data: STOP_INIT })).rejects.toThrow(/tx\.origin 0x90F79bf6EB2c4f870365E785982E1f101E93b906 is not authorized to deploy a contract/)
    const balance = await h.publicClient.getBalance({ address: carol.address })
    const receipt = await sendTx(h, carol, undefined, STOP_INIT, 150_000n)
    expect(receipt.status).toBe('reverted')
    expect(receipt.gasUsed).toBe(150_000n)
    expect(receipt.logs).toHaveLength(0)
    expect(await h.publicClient.getTransactionCount({ address: carol.address })).toBe(1)
    expect(await h.publicClient.getBalance({ address: carol.address })).toBe(balance - 150_000n * receipt.effectiveGasPrice)
    const would = getContractAddress({ from: carol.address, nonce: 0n })
    expect(await h.publicClient.getCode({ address: would })).toBeUndefined()
    // The trace shows the hook's error on the top frame.
    const trace = (await h.provider.request({ method: 'debug_traceTransaction', params: [receipt.transactionHash, { tracer: 'callTracer' }] })) as { type: string; error?: string }
    expect(trace.type).toBe('CREATE')
    expect(trace.error).toBe(refusal(carol.address))
    await h.network.close()
  })

  it('an enabled-then-removed origin loses the right; a newly enabled one gains it', async () => {
    const h = await l1Network(allowListGenesis(suite))
    expect((await sendCall(h, alice, DEPLOYER_LIST, allowListAbi, 'setEnabled', [carol.address], 200_000n)).receipt.status).toBe('success')
    expect((await sendTx(h, carol, undefined, STOP_INIT, 100_000n)).status).toBe('success')
    expect((await sendCall(h, alice, DEPLOYER_LIST, allowListAbi, 'setNone', [bob.address], 200_000n)).receipt.status).toBe('success')
    await expectCallError(h, bob.address, undefined, STOP_INIT, refusal(bob.address))
    const r = await sendTx(h, bob, undefined, STOP_INIT, 100_000n)
    expect(r.status).toBe('reverted')
    expect(r.gasUsed).toBe(100_000n)
    await h.network.close()
  })

  it('CREATE inside a contract is checked against tx.origin, not the contract', async () => {
    const h = await l1Network(allowListGenesis(suite))
    // The factory itself has no role: only tx.origin matters.
    const factory = await deploy(h, admin, FACTORY_RUNTIME)
    expect(await h.publicClient.getTransactionCount({ address: factory })).toBe(1)

    // Allowed origin: the CREATE succeeds.
    const ok = (await h.provider.request({ method: 'eth_call', params: [{ from: bob.address, to: factory }, 'latest'] })) as Hex
    expect(getAddress(`0x${ok.slice(26)}`)).toBe(getContractAddress({ from: factory, nonce: 1n }))
    const mined = await sendTx(h, bob, factory, '0x', 200_000n)
    expect(mined.status).toBe('success')
    expect(await h.publicClient.getTransactionCount({ address: factory })).toBe(2)

    // Not-allowed origin: the CREATE pushes 0 (the outer call still succeeds), the factory's nonce
    // still moves (the hook runs after the nonce increment), and the create's gas is all consumed.
    const refused = (await h.provider.request({ method: 'eth_call', params: [{ from: carol.address, to: factory }, 'latest'] })) as Hex
    expect(BigInt(refused)).toBe(0n)
    const gas = 200_000n
    const failed = await sendTx(h, carol, factory, '0x', gas)
    expect(failed.status).toBe('success')
    expect(await h.publicClient.getTransactionCount({ address: factory })).toBe(3)
    expect(await h.publicClient.getCode({ address: getContractAddress({ from: factory, nonce: 2n }) })).toBeUndefined()
    // All but 1/64 of the remaining gas went to the CREATE and was consumed.
    expect(failed.gasUsed > (gas * 62n) / 64n).toBe(true)
    const trace = (await h.provider.request({ method: 'debug_traceTransaction', params: [failed.transactionHash, { tracer: 'callTracer' }] })) as { calls: { type: string; error?: string; gas: Hex; gasUsed: Hex }[] }
    expect(trace.calls[0]!.type).toBe('CREATE')
    expect(trace.calls[0]!.error).toBe(refusal(carol.address))
    expect(trace.calls[0]!.gasUsed).toBe(trace.calls[0]!.gas)
    await h.network.close()
  })
})
