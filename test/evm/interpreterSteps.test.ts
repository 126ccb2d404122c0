/**
 * The interpreter loop of ethereumjsInternals/interpreterSteps.ts (synchronous opcodes without a
 * promise each, MSTORE through one buffer, a frame's run state built when read) computes what
 * the stock loop computes: memory words at aligned and unaligned offsets, return data, gas, and
 * debug_traceCall's steps, through viem on the in-process provider.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { concat, createPublicClient, custom, defineChain, numberToHex, pad, type Hex, type PublicClient } from 'viem'
import { createNetwork, type Network } from '../../src/index.js'
import { createEIP1193Provider } from '../../src/rpc/provider.js'

const PROBE = '0x00000000000000000000000000000000000f00d5' as Hex
/**
 * MSTORE(0, calldata[0:32]); MSTORE(0x25, calldata[32:64]); RETURN(0, 0x45): the first word, five
 * zero bytes, the second word.
 */
const CODE = '0x60003560005260203560255260456000f3' as Hex

describe('interpreter loop', () => {
  let network: Network
  let client: PublicClient
  let provider: ReturnType<typeof createEIP1193Provider>
  beforeAll(async () => {
    network = await createNetwork()
    provider = createEIP1193Provider({ network })
    client = createPublicClient({ chain: defineChain({ id: 43112, name: 'c', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: ['http://unused'] } } }), transport: custom(provider) })
  })
  afterAll(() => network.close())

  it('MSTORE writes each word as its 32 big-endian bytes, at aligned and unaligned offsets', async () => {
    const words: [Hex, Hex][] = [
      [numberToHex(2n ** 256n - 1n), numberToHex(1n, { size: 32 })],
      [numberToHex(0n, { size: 32 }), pad('0x0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f')],
      [pad('0x80'), numberToHex(2n ** 255n)],
    ]
    for (const [a, b] of words) {
      const { data } = await client.call({ to: PROBE, data: concat([a, b]), stateOverride: [{ address: PROBE, code: CODE }] })
      expect(data).toBe(concat([a, '0x0000000000', b]))
    }
  })

  it("a frame's result has the stock method's keys, in its order, and its composite run state", async () => {
    const chain = network.cChain
    const { createAddressFromString, hexToBytes } = await import('@ethereumjs/util')
    const frame = async (code: Hex) =>
      chain.withState('latest', async () => {
        const sm = chain.vm.stateManager
        await sm.checkpoint()
        try {
          const to = createAddressFromString(PROBE)
          await sm.putCode(to, hexToBytes(code))
          const { execResult } = await chain.vm.evm.runCall({ to, caller: to, origin: to, data: hexToBytes(concat([numberToHex(7n, { size: 32 }), numberToHex(9n, { size: 32 })])), gasLimit: 100_000n, skipBalance: true, block: chain.store.head.block })
          return execResult as unknown as Record<string, unknown> & { runState: Record<string, unknown> }
        } finally {
          await sm.revert()
          chain.vm.evm.journal.cleanJournal()
        }
      })
    const stockKeys = ['logs', 'returnValue', 'selfdestruct', 'createdAddresses', 'runState', 'exceptionError', 'gas', 'executionGasUsed', 'gasRefund', 'stateGasSpilled']
    const ok = await frame(CODE)
    expect(Object.keys(ok)).toEqual(stockKeys)
    expect(ok.exceptionError).toBeUndefined()
    // The stock `{ ...runState, ...result, ...env }`: the interpreter's state, the frame's result and its environment.
    expect(ok.runState.programCounter).toBe(CODE.length / 2 - 1)
    expect(ok.runState.returnValue).toEqual(ok.returnValue)
    expect(ok.runState.address).toEqual(createAddressFromString(PROBE))
    expect(ok.runState).toBe(ok.runState)
    // A spread reads it (as ethereumjs' create frames spread results); a write replaces it.
    expect({ ...ok }.runState).toBe(ok.runState)
    ok.runState = { replaced: true }
    expect(ok.runState).toEqual({ replaced: true })
    // PUSH1 0 PUSH1 0 REVERT: a failed frame keeps the same keys, with its own empty logs and sets.
    const reverted = await frame('0x60006000fd')
    expect(Object.keys(reverted)).toEqual(stockKeys)
    expect((reverted.exceptionError as { error: string }).error).toBe('revert')
    expect(reverted.runState.logs).toEqual([])
  })

  it("a call's gas and its traced steps are the stock interpreter's", async () => {
    const data = concat([numberToHex(7n, { size: 32 }), numberToHex(9n, { size: 32 })])
    const trace = (await provider.request({ method: 'debug_traceCall', params: [{ to: PROBE, data }, 'latest', { stateOverrides: { [PROBE]: { code: CODE } } }] })) as { gas: number; failed: boolean; structLogs: { op: string }[] }
    // Intrinsic 21,000 + 2 non-zero data bytes at 16 + 62 zero ones at 4; eight fixed-fee opcodes
    // at 3; MSTOREs at 3 plus memory growth to 1 word (3) and to 3 words (9 - 3); RETURN within it.
    expect(trace.gas).toBe(21_000 + 2 * 16 + 62 * 4 + 8 * 3 + (3 + 3) + (3 + 6))
    expect(trace.failed).toBe(false)
    expect(trace.structLogs.map((s) => s.op)).toEqual(['PUSH1', 'CALLDATALOAD', 'PUSH1', 'MSTORE', 'PUSH1', 'CALLDATALOAD', 'PUSH1', 'MSTORE', 'PUSH1', 'PUSH1', 'RETURN'])
  })
})
