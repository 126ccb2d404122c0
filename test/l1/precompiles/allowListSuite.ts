import { expect, it } from 'vitest'
import { decodeEventLog, encodeFunctionData, getAddress, parseEventLogs, type Address, type Hex } from 'viem'
import { accounts, admin, alice, bob, carol, l1Network, testGenesis, type L1Harness } from '../helpers.js'
import {
  ACTIVE,
  GAS,
  PROXY_RUNTIME,
  Role,
  SETTER_ROLE,
  allowListAbi,
  calldataGas,
  cannotModify,
  deploy,
  expectCallError,
  expectEstimate,
  proxyData,
  readRole,
  sendCall,
  sendTx,
  type RoleSetter,
} from './common.js'

/**
 * The allow-list part every allow-list precompile shares, run against one precompile:
 * admin (Admin), alice (Manager), bob (Enabled), carol (None), plus one more address of each role
 * as targets.
 */
export const SECOND_ADMIN = accounts[4]!
export const SECOND_MANAGER = accounts[5]!
export const ENABLED_TARGET = '0x000000000000000000000000000000000000bEEF' as Address
export const NONE_TARGET = '0x000000000000000000000000000000000000dEaD' as Address

export function allowListConfig(extra: Record<string, unknown> = {}) {
  return {
    blockTimestamp: ACTIVE,
    adminAddresses: [admin.address, SECOND_ADMIN.address],
    managerAddresses: [alice.address, SECOND_MANAGER.address],
    enabledAddresses: [bob.address, ENABLED_TARGET],
    ...extra,
  }
}

export type AllowListSuiteOptions = {
  precompile: Address
  configKey: string
  /** Extra fields of the precompile's genesis config. */
  extra?: Record<string, unknown>
  /** Extra genesis `config` fields (for instance allowFeeRecipients). */
  genesisConfig?: Record<string, unknown>
}

export function allowListGenesis(o: AllowListSuiteOptions) {
  return testGenesis({ ...o.genesisConfig, [o.configKey]: allowListConfig(o.extra) })
}

const callers = [
  { name: 'Admin', account: admin, role: Role.Admin },
  { name: 'Manager', account: alice, role: Role.Manager },
  { name: 'Enabled', account: bob, role: Role.Enabled },
  { name: 'None', account: carol, role: Role.None },
] as const
const targets = [
  { address: SECOND_ADMIN.address, role: Role.Admin },
  { address: SECOND_MANAGER.address, role: Role.Manager },
  { address: ENABLED_TARGET, role: Role.Enabled },
  { address: NONE_TARGET, role: Role.None },
] as const
const setters: RoleSetter[] = ['setNone', 'setEnabled', 'setAdmin', 'setManager']

const plain = (r: bigint) => r === Role.None || r === Role.Enabled
function allowed(caller: bigint, from: bigint, to: bigint): boolean {
  if (caller === Role.Admin) return true
  return caller === Role.Manager && plain(from) && plain(to)
}

async function roles(h: L1Harness, precompile: Address): Promise<bigint[]> {
  const who = [admin.address, alice.address, bob.address, carol.address, ...targets.map((t) => t.address)]
  return Promise.all(who.map((a) => readRole(h, precompile, a)))
}

/** Registers the shared allow-list tests (inside the caller's describe). */
export function allowListSuite(o: AllowListSuiteOptions): void {
  const { precompile } = o

  it('allow list: genesis roles are readable by anyone, and the account has code 0x01', async () => {
    const h = await l1Network(allowListGenesis(o))
    expect(await h.publicClient.getCode({ address: precompile })).toBe('0x01')
    expect(await h.publicClient.getTransactionCount({ address: precompile })).toBe(1)
    expect(await roles(h, precompile)).toEqual([2n, 3n, 1n, 0n, 2n, 3n, 1n, 0n])
    // readAllowList is not gated: a None caller reads too.
    const data = encodeFunctionData({ abi: allowListAbi, functionName: 'readAllowList', args: [admin.address] })
    const out = await h.provider.request({ method: 'eth_call', params: [{ from: carol.address, to: precompile, data }, 'latest'] })
    expect(BigInt(out as Hex)).toBe(2n)
    await h.network.close()
  })

  it('allow list: every caller role × setter × target role does exactly what subnet-EVM allows (eth_call and eth_estimateGas)', async () => {
    const h = await l1Network(allowListGenesis(o))
    let successes = 0
    for (const caller of callers)
      for (const setter of setters)
        for (const target of targets) {
          const data = encodeFunctionData({ abi: allowListAbi, functionName: setter, args: [target.address] })
          const to = SETTER_ROLE[setter]
          if (allowed(caller.role, target.role, to)) {
            successes++
            const out = await h.provider.request({ method: 'eth_call', params: [{ from: caller.account.address, to: precompile, data }, 'latest'] })
            expect(out, `${caller.name} ${setter} ${target.role}`).toBe('0x')
            const gas = BigInt((await h.provider.request({ method: 'eth_estimateGas', params: [{ from: caller.account.address, to: precompile, data }] })) as Hex)
            expectEstimate(gas, GAS.tx + calldataGas(data) + GAS.modifyAllowList + GAS.roleSetEvent)
          } else {
            // "modify address" is the caller (Go prints callerAddr there).
            await expectCallError(h, caller.account.address, precompile, data, cannotModify(caller.account.address, target.role, to))
          }
        }
    // Admin: 16, Manager: None/Enabled → None/Enabled = 4.
    expect(successes).toBe(20)
    // eth_call changed nothing.
    expect(await roles(h, precompile)).toEqual([2n, 3n, 1n, 0n, 2n, 3n, 1n, 0n])
    await h.network.close()
  })

  it('allow list: a manager enables an address in a mined tx, with RoleSet and the exact gas', async () => {
    const h = await l1Network(allowListGenesis(o))
    const { receipt, data } = await sendCall(h, alice, precompile, allowListAbi, 'setEnabled', [NONE_TARGET], 200_000n)
    expect(receipt.status).toBe('success')
    // A top-level call: the tx's `to` is warm (StateDB.Prepare), so no account-access gas.
    expect(receipt.gasUsed).toBe(GAS.tx + calldataGas(data) + GAS.modifyAllowList + GAS.roleSetEvent)
    expect(receipt.logs).toHaveLength(1)
    const log = receipt.logs[0]!
    expect(getAddress(log.address)).toBe(getAddress(precompile))
    expect(log.topics[0]).toBe('0xcdb7ea01f00a414d78757bdb0f6391664ba3fedf987eed280927c1e7d695be3e')
    const event = decodeEventLog({ abi: allowListAbi, data: log.data, topics: log.topics })
    expect(event.eventName).toBe('RoleSet')
    expect(event.args).toEqual({ role: Role.Enabled, account: NONE_TARGET, sender: alice.address, oldRole: Role.None })
    expect(await readRole(h, precompile, NONE_TARGET)).toBe(Role.Enabled)

    // And back to None, with oldRole = Enabled.
    const back = await sendCall(h, alice, precompile, allowListAbi, 'setNone', [NONE_TARGET], 200_000n)
    expect(back.receipt.status).toBe('success')
    const [ev] = parseEventLogs({ abi: allowListAbi, logs: back.receipt.logs, eventName: 'RoleSet' })
    expect(ev!.args).toEqual({ role: Role.None, account: NONE_TARGET, sender: alice.address, oldRole: Role.Enabled })
    expect(await readRole(h, precompile, NONE_TARGET)).toBe(Role.None)
    await h.network.close()
  })

  it('allow list: an admin makes a manager, then demotes another admin; the new manager can act at once', async () => {
    const h = await l1Network(allowListGenesis(o))
    const made = await sendCall(h, admin, precompile, allowListAbi, 'setManager', [NONE_TARGET], 200_000n)
    expect(made.receipt.status).toBe('success')
    expect(parseEventLogs({ abi: allowListAbi, logs: made.receipt.logs })[0]!.args).toEqual({ role: Role.Manager, account: NONE_TARGET, sender: admin.address, oldRole: Role.None })
    expect(await readRole(h, precompile, NONE_TARGET)).toBe(Role.Manager)
    const demoted = await sendCall(h, admin, precompile, allowListAbi, 'setNone', [SECOND_ADMIN.address], 200_000n)
    expect(demoted.receipt.status).toBe('success')
    expect(parseEventLogs({ abi: allowListAbi, logs: demoted.receipt.logs })[0]!.args).toEqual({ role: Role.None, account: SECOND_ADMIN.address, sender: admin.address, oldRole: Role.Admin })
    expect(await readRole(h, precompile, SECOND_ADMIN.address)).toBe(Role.None)
    // The demoted admin can no longer modify.
    const data = encodeFunctionData({ abi: allowListAbi, functionName: 'setEnabled', args: [carol.address] })
    await expectCallError(h, SECOND_ADMIN.address, precompile, data, cannotModify(SECOND_ADMIN.address, Role.None, Role.Enabled))
    // An admin may demote itself.
    const self = await sendCall(h, admin, precompile, allowListAbi, 'setEnabled', [admin.address], 200_000n)
    expect(self.receipt.status).toBe('success')
    expect(await readRole(h, precompile, admin.address)).toBe(Role.Enabled)
    await h.network.close()
  })

  it('allow list: failing mined setters are included, revert, consume all gas and change nothing', async () => {
    const h = await l1Network(allowListGenesis(o))
    const before = await roles(h, precompile)
    const cases: [typeof admin, RoleSetter, Address][] = [
      [alice, 'setAdmin', NONE_TARGET], // manager → admin role
      [alice, 'setNone', SECOND_ADMIN.address], // manager demoting an admin
      [alice, 'setNone', SECOND_MANAGER.address], // manager demoting a manager
      [bob, 'setEnabled', NONE_TARGET], // enabled cannot modify
    ]
    for (const [from, setter, target] of cases) {
      const nonce = await h.publicClient.getTransactionCount({ address: from.address })
      const { receipt } = await sendCall(h, from, precompile, allowListAbi, setter, [target], 123_456n)
      expect(receipt.status, `${setter} ${target}`).toBe('reverted')
      expect(receipt.gasUsed).toBe(123_456n)
      expect(receipt.logs).toHaveLength(0)
      expect(await h.publicClient.getTransactionCount({ address: from.address })).toBe(nonce + 1)
    }
    expect(await roles(h, precompile)).toEqual(before)
    await h.network.close()
  })

  it('allow list: readAllowList costs 5000 in a mined tx; out of gas inside the precompile consumes all gas', async () => {
    const h = await l1Network(allowListGenesis(o))
    const { receipt, data } = await sendCall(h, admin, precompile, allowListAbi, 'readAllowList', [bob.address], 100_000n)
    expect(receipt.status).toBe('success')
    expect(receipt.gasUsed).toBe(GAS.tx + calldataGas(data) + GAS.readAllowList)
    // Enough for the 20000 of a setter but not its event: out of gas, all consumed, role unchanged.
    const setData = encodeFunctionData({ abi: allowListAbi, functionName: 'setEnabled', args: [NONE_TARGET] })
    const limit = GAS.tx + calldataGas(setData) + GAS.modifyAllowList + GAS.roleSetEvent - 1n
    const failed = await sendTx(h, admin, precompile, setData, limit)
    expect(failed.status).toBe('reverted')
    expect(failed.gasUsed).toBe(limit)
    expect(await readRole(h, precompile, NONE_TARGET)).toBe(Role.None)
    await h.network.close()
  })

  it('allow list: bad calldata fails with the Go errors and changes nothing', async () => {
    const h = await l1Network(allowListGenesis(o))
    const from = admin.address
    await expectCallError(h, from, precompile, '0x', 'missing function selector to precompile - input length (0)')
    await expectCallError(h, from, precompile, '0x704b6c', 'missing function selector to precompile - input length (3)')
    await expectCallError(h, from, precompile, '0xdeadbeef', 'invalid function selector: 0xdeadbeef')
    await expectCallError(h, from, precompile, '0xdeadbeef' + '00'.repeat(32) as Hex, 'invalid function selector: 0xdeadbeef')
    // setAdmin with no argument / a short argument (post-Durango the ABI layer's errors).
    await expectCallError(h, from, precompile, '0x704b6c02', 'abi: attempting to unmarshal an empty string while arguments are expected')
    await expectCallError(h, from, precompile, '0x704b6c02' + '11'.repeat(10) as Hex, 'abi: cannot marshal in to go type: length insufficient 10 require 32')
    // Post-Durango: trailing bytes are ignored.
    const longData = encodeFunctionData({ abi: allowListAbi, functionName: 'readAllowList', args: [alice.address] }) + 'ff'.repeat(7)
    expect(BigInt((await h.provider.request({ method: 'eth_call', params: [{ from, to: precompile, data: longData }, 'latest'] })) as Hex)).toBe(Role.Manager)
    // A garbage selector in a mined tx: reverted, all gas gone, roles unchanged.
    const before = await roles(h, precompile)
    const r = await sendTx(h, admin, precompile, '0x12345678aa', 60_000n)
    expect(r.status).toBe('reverted')
    expect(r.gasUsed).toBe(60_000n)
    const e = await sendTx(h, admin, precompile, '0x', 60_000n)
    expect(e.status).toBe('reverted')
    expect(e.gasUsed).toBe(60_000n)
    expect(await roles(h, precompile)).toEqual(before)
    await h.network.close()
  })

  it('allow list: a setter under STATICCALL fails with write protection; views work; precompiles are cold for CALL', async () => {
    const h = await l1Network(allowListGenesis(o))
    const proxy = await deploy(h, admin, PROXY_RUNTIME)
    // Make the proxy an admin so that only the static flag can stop it.
    expect((await sendCall(h, admin, precompile, allowListAbi, 'setAdmin', [proxy], 200_000n)).receipt.status).toBe('success')
    const setData = encodeFunctionData({ abi: allowListAbi, functionName: 'setEnabled', args: [NONE_TARGET] })

    const staticOut = (await h.provider.request({ method: 'eth_call', params: [{ from: admin.address, to: proxy, data: proxyData('staticcall', precompile, setData) }, 'latest'] })) as Hex
    expect(BigInt(staticOut.slice(0, 66))).toBe(0n) // the inner call failed
    expect(staticOut.length).toBe(66) // with no return data
    const mined = await sendTx(h, admin, proxy, proxyData('staticcall', precompile, setData), 300_000n)
    expect(mined.status).toBe('success')
    expect(mined.logs).toHaveLength(0)
    const trace = (await h.provider.request({ method: 'debug_traceTransaction', params: [mined.transactionHash, { tracer: 'callTracer' }] })) as { calls: { type: string; error?: string; gas: Hex; gasUsed: Hex }[] }
    expect(trace.calls[0]!.type).toBe('STATICCALL')
    expect(trace.calls[0]!.error).toBe('write protection')
    expect(trace.calls[0]!.gasUsed).toBe(trace.calls[0]!.gas) // all gas of the call consumed
    expect(await readRole(h, precompile, NONE_TARGET)).toBe(Role.None)

    // The same setter through CALL works and is sent by the proxy.
    const called = await sendTx(h, admin, proxy, proxyData('call', precompile, setData), 300_000n)
    expect(called.status).toBe('success')
    expect(parseEventLogs({ abi: allowListAbi, logs: called.logs })[0]!.args).toEqual({ role: Role.Enabled, account: NONE_TARGET, sender: proxy, oldRole: Role.None })
    expect(await readRole(h, precompile, NONE_TARGET)).toBe(Role.Enabled)

    // A view under STATICCALL is fine.
    const readData = encodeFunctionData({ abi: allowListAbi, functionName: 'readAllowList', args: [alice.address] })
    const view = (await h.provider.request({ method: 'eth_call', params: [{ to: proxy, data: proxyData('staticcall', precompile, readData) }, 'latest'] })) as Hex
    expect(BigInt(view.slice(0, 66))).toBe(1n)
    expect(BigInt(`0x${view.slice(66)}`)).toBe(Role.Manager)

    // Not in the EIP-2929 warm set: without an access list the STATICCALL pays 2600 (cold); with
    // the precompile in the access list the tx pays 2400 (intrinsic) + 100 (warm). Were it warm
    // by default, the access list would cost 2400 more instead of saving 100.
    const plainTx = await sendTx(h, admin, proxy, proxyData('staticcall', precompile, readData), 300_000n)
    const hash = await h.wallet(admin).sendTransaction({ to: proxy, data: proxyData('staticcall', precompile, readData), gas: 300_000n, accessList: [{ address: precompile, storageKeys: [] }] })
    const listed = await h.publicClient.getTransactionReceipt({ hash })
    expect(plainTx.status).toBe('success')
    expect(listed.status).toBe('success')
    expect(plainTx.gasUsed - listed.gasUsed).toBe(2600n - (2400n + 100n))
    await h.network.close()
  })
}
