import { describe, expect, it } from 'vitest'
import { encodeFunctionData, pad, parseAbi, type Hex } from 'viem'
import { createNetwork } from '../../src/network/network.js'
import { withUpgradeJson } from '../../src/evm/config/genesis.js'
import { admin, alice, bob, carol, l1Network, testGenesis, type L1Harness } from './helpers.js'

const allowListAbi = parseAbi([
  'function readAllowList(address addr) view returns (uint256)',
  'function setEnabled(address addr)',
  'function setAdmin(address addr)',
  'function setNone(address addr)',
])
const minterAbi = parseAbi(['function mintNativeCoin(address addr, uint256 amount)'])
const TX_ALLOW_LIST = '0x0200000000000000000000000000000000000002'
const MINTER = '0x0200000000000000000000000000000000000001'

/** Virtual start of every network here: far after the local network's upgrades (2020). */
const START = 1_800_000_000
const notAllowListed = (address: string) => `cannot issue transaction from non-allow listed address: ${address}`

async function rpc<T = unknown>(h: L1Harness, method: string, params: unknown[] = []): Promise<T> {
  return (await h.provider.request({ method, params } as never)) as T
}

const readRole = (h: L1Harness, who: Hex, blockNumber?: bigint) =>
  h.publicClient.readContract({ address: TX_ALLOW_LIST, abi: allowListAbi, functionName: 'readAllowList', args: [who], blockNumber })
const roleSlotValue = (h: L1Harness, who: Hex, blockNumber?: bigint) =>
  h.publicClient.getStorageAt({ address: TX_ALLOW_LIST, slot: pad(who), ...(blockNumber === undefined ? {} : { blockNumber }) })
const transfer = (h: L1Harness, from: typeof alice) => h.wallet(from).sendTransaction({ to: carol.address, value: 1n })
const headTime = async (h: L1Harness) => (await h.publicClient.getBlock()).timestamp

/** Advances the virtual clock to `t` exactly (never back). */
async function advanceTo(h: L1Harness, t: number) {
  const now = h.network.clock.now()
  expect(now).toBeLessThanOrEqual(t)
  await h.network.advanceTime(t - now)
}

describe('precompile activation from upgrade.json', () => {
  it('tx allow list: absent before its timestamp, active with the configured roles from the first block at or after it', async () => {
    const T = START + 100
    const h = await l1Network(testGenesis(), {
      clock: { start: START },
      upgrade: { precompileUpgrades: [{ txAllowListConfig: { blockTimestamp: T, adminAddresses: [admin.address], enabledAddresses: [bob.address] } }] },
    })
    const { publicClient } = h
    // Before: no account, a call returns nothing, and anyone may send.
    expect(await publicClient.getCode({ address: TX_ALLOW_LIST })).toBeUndefined()
    const data = encodeFunctionData({ abi: allowListAbi, functionName: 'readAllowList', args: [admin.address] })
    expect(await rpc(h, 'eth_call', [{ to: TX_ALLOW_LIST, data }, 'latest'])).toBe('0x')
    expect((await publicClient.getTransactionReceipt({ hash: await transfer(h, alice) })).status).toBe('success')
    const beforeBlock = await publicClient.getBlockNumber()
    expect(await rpc(h, 'eth_getActivePrecompilesAt', [T - 1])).toEqual({})
    expect((await rpc<{ precompiles: object }>(h, 'eth_getActiveRulesAt', [T - 1])).precompiles).toEqual({})

    // The clock passes the timestamp, but nothing happens until a block is built.
    await advanceTo(h, T + 5)
    expect(await headTime(h)).toBeLessThan(BigInt(T))
    expect(await publicClient.getCode({ address: TX_ALLOW_LIST })).toBeUndefined()
    await rpc(h, 'evm_mine')
    const activation = await publicClient.getBlock()
    expect(activation.timestamp).toBeGreaterThanOrEqual(BigInt(T))
    expect(await publicClient.getCode({ address: TX_ALLOW_LIST })).toBe('0x01')
    expect(await publicClient.getTransactionCount({ address: TX_ALLOW_LIST })).toBe(1)
    // Roles of the config are in storage (and were not before).
    expect(await roleSlotValue(h, admin.address)).toBe(pad('0x02'))
    expect(await roleSlotValue(h, bob.address)).toBe(pad('0x01'))
    expect(await roleSlotValue(h, admin.address, beforeBlock)).toBe(pad('0x00'))
    expect(await readRole(h, admin.address)).toBe(2n)
    expect(await readRole(h, bob.address)).toBe(1n)
    expect(await readRole(h, alice.address)).toBe(0n)
    // Enforcement: alice is refused, bob and the admin may send.
    await expect(transfer(h, alice)).rejects.toThrow(notAllowListed(alice.address))
    expect((await publicClient.getTransactionReceipt({ hash: await transfer(h, bob) })).status).toBe('success')
    expect((await publicClient.getTransactionReceipt({ hash: await transfer(h, admin) })).status).toBe('success')
    // The rules methods reflect it.
    expect((await rpc<{ precompiles: object }>(h, 'eth_getActiveRulesAt', [T])).precompiles).toEqual({ txAllowListConfig: { timestamp: T } })
    expect(await rpc(h, 'eth_getActivePrecompilesAt', [T])).toEqual({
      txAllowListConfig: { blockTimestamp: T, adminAddresses: [admin.address.toLowerCase()], enabledAddresses: [bob.address.toLowerCase()] },
    })
    await h.network.close()
  })

  it('the activation block itself enforces the allow list (block rules, not the parent\'s)', async () => {
    const T = START + 100
    const h = await l1Network(testGenesis(), {
      clock: { start: START },
      upgrade: { precompileUpgrades: [{ txAllowListConfig: { blockTimestamp: T, adminAddresses: [admin.address] } }] },
    })
    await advanceTo(h, T)
    // The pool checks against the head (still before T), so alice is admitted; the block at T,
    // which activates the list before its first transaction, refuses her.
    await expect(transfer(h, alice)).rejects.toThrow(notAllowListed(alice.address))
    expect(await h.publicClient.getBlockNumber()).toBe(1n)
    expect((await h.publicClient.getBlock()).transactions).toHaveLength(0)
    expect(await h.publicClient.getCode({ address: TX_ALLOW_LIST })).toBe('0x01')
    await h.network.close()
  })

  it('native minter: a call before activation does nothing; after it, the admin mints', async () => {
    const T = START + 100
    const h = await l1Network(testGenesis(), {
      clock: { start: START },
      upgrade: { precompileUpgrades: [{ contractNativeMinterConfig: { blockTimestamp: T, adminAddresses: [admin.address], initialMint: { [carol.address]: '0x64' } } }] },
    })
    const { publicClient, wallet } = h
    const before = await publicClient.getBalance({ address: bob.address })
    const carolBefore = await publicClient.getBalance({ address: carol.address })
    const early = await wallet(admin).writeContract({ address: MINTER, abi: minterAbi, functionName: 'mintNativeCoin', args: [bob.address, 1000n], gas: 100_000n })
    const earlyReceipt = await publicClient.getTransactionReceipt({ hash: early })
    expect(earlyReceipt.status).toBe('success')
    expect(earlyReceipt.logs).toHaveLength(0)
    expect(await publicClient.getBalance({ address: bob.address })).toBe(before)

    await advanceTo(h, T + 1)
    const hash = await wallet(admin).writeContract({ address: MINTER, abi: minterAbi, functionName: 'mintNativeCoin', args: [bob.address, 1000n], gas: 100_000n })
    const receipt = await publicClient.getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(receipt.logs).toHaveLength(1)
    expect(await publicClient.getBalance({ address: bob.address })).toBe(before + 1000n)
    // initialMint is paid once, in the activation block.
    expect(await publicClient.getBalance({ address: carol.address })).toBe(carolBefore + 100n)
    expect(await publicClient.getCode({ address: MINTER })).toBe('0x01')
    await h.network.close()
  })
})

describe('precompile deactivation and re-activation', () => {
  const T1 = START + 100
  const T2 = START + 200
  const upgrade = {
    precompileUpgrades: [
      { txAllowListConfig: { blockTimestamp: T1, disable: true } },
      { txAllowListConfig: { blockTimestamp: T2, adminAddresses: [bob.address] } },
    ],
  }
  const genesis = () => testGenesis({ txAllowListConfig: { blockTimestamp: 1607144400, adminAddresses: [admin.address] } })

  it('disable wipes the account and its roles; re-enable writes only the new config', async () => {
    const h = await l1Network(genesis(), { clock: { start: START }, upgrade })
    const { publicClient, wallet } = h
    expect(await publicClient.getCode({ address: TX_ALLOW_LIST })).toBe('0x01')
    // A role given at run time, beside the config's.
    await wallet(admin).writeContract({ address: TX_ALLOW_LIST, abi: allowListAbi, functionName: 'setEnabled', args: [alice.address] })
    expect(await readRole(h, alice.address)).toBe(1n)
    await expect(transfer(h, carol)).rejects.toThrow(notAllowListed(carol.address))

    await advanceTo(h, T1)
    await rpc(h, 'evm_mine')
    expect(await publicClient.getCode({ address: TX_ALLOW_LIST })).toBeUndefined()
    expect(await publicClient.getTransactionCount({ address: TX_ALLOW_LIST })).toBe(0)
    expect(await roleSlotValue(h, admin.address)).toBe(pad('0x00'))
    expect(await roleSlotValue(h, alice.address)).toBe(pad('0x00'))
    expect(await rpc(h, 'eth_getActivePrecompilesAt', [T1])).toEqual({})
    // Not enforced: anyone sends.
    expect((await publicClient.getTransactionReceipt({ hash: await transfer(h, carol) })).status).toBe('success')

    await advanceTo(h, T2)
    await rpc(h, 'evm_mine')
    expect(await publicClient.getCode({ address: TX_ALLOW_LIST })).toBe('0x01')
    expect(await readRole(h, bob.address)).toBe(2n)
    // Old roles, from the genesis config and from setEnabled, did not come back.
    expect(await readRole(h, admin.address)).toBe(0n)
    expect(await readRole(h, alice.address)).toBe(0n)
    await expect(transfer(h, admin)).rejects.toThrow(notAllowListed(admin.address))
    await expect(transfer(h, alice)).rejects.toThrow(notAllowListed(alice.address))
    expect((await publicClient.getTransactionReceipt({ hash: await transfer(h, bob) })).status).toBe('success')
    expect((await rpc<{ precompiles: object }>(h, 'eth_getActiveRulesAt', [T2])).precompiles).toEqual({ txAllowListConfig: { timestamp: T2 } })
    await h.network.close()
  })

  it('the block that disables the list does not enforce it, even for senders the wiped list had', async () => {
    const h = await l1Network(genesis(), { clock: { start: START }, upgrade })
    await advanceTo(h, T1)
    // Admitted against the head (list on, admin listed); the block at T1 runs without the list.
    const hash = await transfer(h, admin)
    const receipt = await h.publicClient.getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect((await h.publicClient.getBlock({ blockNumber: receipt.blockNumber })).timestamp).toBe(BigInt(T1))
    expect(await h.publicClient.getCode({ address: TX_ALLOW_LIST })).toBeUndefined()
    await h.network.close()
  })

  it('one block crossing both the disable and the re-enable starts clean', async () => {
    const h = await l1Network(genesis(), { clock: { start: START }, upgrade })
    await h.wallet(admin).writeContract({ address: TX_ALLOW_LIST, abi: allowListAbi, functionName: 'setEnabled', args: [alice.address] })
    await advanceTo(h, T2 + 10)
    await rpc(h, 'evm_mine')
    expect(await h.publicClient.getCode({ address: TX_ALLOW_LIST })).toBe('0x01')
    expect(await readRole(h, bob.address)).toBe(2n)
    expect(await readRole(h, admin.address)).toBe(0n)
    expect(await readRole(h, alice.address)).toBe(0n)
    await h.network.close()
  })
})

describe('bad upgrade configs at network creation', () => {
  const create = (upgrade: unknown, config: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
    createNetwork({ clock: { start: START }, l1s: [{ name: 'dex', genesis: testGenesis(config, extra), upgrade }] })

  it('gives the node\'s messages and creates no network', async () => {
    const cases: [unknown, string, Record<string, unknown>?][] = [
      [
        {
          precompileUpgrades: [
            { txAllowListConfig: { blockTimestamp: START + 100, adminAddresses: [admin.address] } },
            { contractNativeMinterConfig: { blockTimestamp: START + 50, adminAddresses: [admin.address] } },
          ],
        },
        `failed to verify genesis: invalid precompile upgrades: precompile upgrade config block timestamp must be greater than or equal to previous timestamp: PrecompileUpgrade (contractNativeMinterConfig) at [1] has timestamp ${START + 50}, previous timestamp ${START + 100}`,
      ],
      [
        { precompileUpgrades: [{ txAllowListConfig: { blockTimestamp: START + 100, disable: true } }] },
        'failed to verify genesis: invalid precompile upgrades: precompile upgrade disable value is invalid: PrecompileUpgrade (txAllowListConfig) at [0], disable should be false',
      ],
      [
        { precompileUpgrades: [{ txAllowListConfig: { blockTimestamp: START + 100, adminAddresses: [bob.address] } }] },
        'failed to verify genesis: invalid precompile upgrades: precompile upgrade disable value is invalid: PrecompileUpgrade (txAllowListConfig) at [0], disable should be true',
        { txAllowListConfig: { blockTimestamp: 1607144400, adminAddresses: [admin.address] } },
      ],
      [
        {
          precompileUpgrades: [
            { txAllowListConfig: { blockTimestamp: START + 100, adminAddresses: [admin.address] } },
            { txAllowListConfig: { blockTimestamp: START + 100, disable: true } },
          ],
        },
        `failed to verify genesis: invalid precompile upgrades: precompile upgrade config block timestamp for same key must be strictly greater than previous timestamp: PrecompileUpgrade (txAllowListConfig) at [1] has timestamp ${START + 100}, previous timestamp of same key ${START + 100}`,
      ],
      [
        { precompileUpgrades: [{ txAllowListConfigg: { blockTimestamp: START + 100, adminAddresses: [admin.address] } }] },
        'failed to parse upgrade bytes: unknown precompile config: txAllowListConfigg',
      ],
      [
        {
          precompileUpgrades: [
            {
              txAllowListConfig: { blockTimestamp: START + 100, adminAddresses: [admin.address] },
              contractNativeMinterConfig: { blockTimestamp: START + 100, adminAddresses: [admin.address] },
            },
          ],
        },
        'failed to parse upgrade bytes: PrecompileUpgrade must have exactly one key, got 2',
      ],
      [{ precompileUpgrades: [{}] }, 'failed to parse upgrade bytes: PrecompileUpgrade cannot be empty'],
    ]
    for (const [upgrade, message, config] of cases) {
      let created: unknown
      const error = await create(upgrade, config).then((n) => (created = n), (e: unknown) => e)
      expect(created, message).toBeUndefined()
      expect(error).toBeInstanceOf(Error)
      expect((error as Error).message).toContain(message)
    }
  })

  it('a genesis whose gasLimit differs from feeConfig.gasLimit is refused', async () => {
    await expect(create(undefined, {}, { gasLimit: '0xE4E1C0' })).rejects.toThrow(
      'failed to verify genesis: gas limit in fee config (20000000) does not match gas limit in header (15000000)',
    )
  })

  it('a valid upgrade still creates the network (the failures left nothing behind)', async () => {
    const network = await create({ precompileUpgrades: [{ txAllowListConfig: { blockTimestamp: START + 100, adminAddresses: [admin.address] } }] })
    expect(network.l1s.map((l) => l.name)).toEqual(['dex'])
    await network.close()
  })
})

describe('changing upgrade.json on a running chain', () => {
  it('refuses a retroactive upgrade and accepts a future one, which then activates', async () => {
    const h = await l1Network(testGenesis(), { clock: { start: START } })
    await transfer(h, alice)
    await transfer(h, alice)
    const head = await headTime(h)
    const config = h.l1.rules.config
    const at = (t: bigint) => ({ precompileUpgrades: [{ txAllowListConfig: { blockTimestamp: Number(t), adminAddresses: [admin.address] } }] })
    // At or before the last accepted block: the compatibility check refuses it.
    expect(() => withUpgradeJson(config, at(head), head)).toThrow(
      `mismatching cannot retroactively enable PrecompileUpgrade[0] in database (have timestamp nil, want timestamp ${head}, rewindto timestamp ${head - 1n})`,
    )
    expect(() => withUpgradeJson(config, at(head - 1n), head)).toThrow(/^mismatching cannot retroactively enable PrecompileUpgrade\[0\]/)
    // Verification comes first: a bad list fails as it would at creation.
    expect(() => withUpgradeJson(config, { precompileUpgrades: [{ txAllowListConfig: { blockTimestamp: Number(head) + 10, disable: true } }] }, head)).toThrow(
      'failed to verify genesis: invalid precompile upgrades: precompile upgrade disable value is invalid: PrecompileUpgrade (txAllowListConfig) at [0], disable should be false',
    )
    // After the head: accepted, and it activates as one given at creation.
    const next = withUpgradeJson(config, at(head + 50n), head)
    h.l1.rules.config = next
    await h.network.advanceTime(Number(head + 50n) - h.network.clock.now())
    await expect(transfer(h, alice)).rejects.toThrow(notAllowListed(alice.address))
    expect(await h.publicClient.getCode({ address: TX_ALLOW_LIST })).toBe('0x01')
    // Once active, changing or dropping it is refused too.
    expect(() => withUpgradeJson(next, { precompileUpgrades: [] }, head + 50n)).toThrow(
      `mismatching missing PrecompileUpgrade[0] in database (have timestamp ${head + 50n}, want timestamp nil, rewindto timestamp ${head + 49n})`,
    )
    await h.network.close()
  })
})
