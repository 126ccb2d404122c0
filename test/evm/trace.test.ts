import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeAbiParameters, encodeDeployData, encodeFunctionData, toFunctionSelector, type Abi } from 'viem'
import type { Hex } from '../../src/core/hex.js'
import type { EvmChain } from '../../src/evm/chain.js'
import { sendTransaction, type TransactionRequest } from '../../src/evm/send.js'
import {
  traceCall,
  traceTransaction,
  type CallFrameJson,
  type StructLogJson,
  type StructLoggerResult,
} from '../../src/evm/trace.js'
import { setCode } from '../../src/evm/cheats.js'
import { suggestTip } from '../../src/evm/gasPrice.js'
import { createNetwork, type Network } from '../../src/network/network.js'
import { createEthDispatcher } from '../../src/rpc/dispatcher.js'
import { debugMethods } from '../../src/rpc/methods/debug/index.js'
import { Reverter } from '../fixtures/contracts/index.js'

const abi = Reverter.abi as Abi
const fn = (functionName: string, args: unknown[] = []) => encodeFunctionData({ abi, functionName, args })
const hexToBytes = (hex: string) => Uint8Array.from(Buffer.from(hex.slice(2), 'hex'))
const word = (n: bigint | number) => BigInt(n).toString(16).padStart(64, '0')

let network: Network
let chain: EvmChain
let sender: Hex
let receiver: Hex
let a: Hex
let b: Hex
/** Labels for the addresses of this test, so snapshots do not depend on key derivation. */
let names: Map<string, string>

async function send(request: Omit<TransactionRequest, 'from'> & { from?: Hex }): Promise<Hex> {
  return sendTransaction(chain, chain.miner, { from: sender, ...request }, network.signers, suggestTip(chain))
}

function receiptOf(hash: Hex) {
  return chain.store.tx(hash)!.receipt
}

/** Addresses replaced by their label; every hex quantity kept. */
function named<T>(value: T): T {
  return JSON.parse(
    JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' && names.has(v.toLowerCase()) ? names.get(v.toLowerCase()) : v)),
  ) as T
}

/** Gas fields replaced by a marker (checked separately, they change with the compiler). */
function shape(frame: CallFrameJson): unknown {
  const { gas: _gas, gasUsed: _used, calls, ...rest } = named(frame)
  return { ...rest, gas: '<gas>', gasUsed: '<gas>', ...(calls ? { calls: calls.map(shape) } : {}) }
}

beforeAll(async () => {
  network = await createNetwork()
  chain = network.cChain
  sender = network.devAccounts[0]!.address.toLowerCase() as Hex
  receiver = network.devAccounts[1]!.address.toLowerCase() as Hex
  const deploy = encodeDeployData({ abi, bytecode: Reverter.bytecode as Hex })
  const deployA = await send({ data: hexToBytes(deploy) })
  const deployB = await send({ data: hexToBytes(deploy) })
  a = receiptOf(deployA).contractAddress!
  b = receiptOf(deployB).contractAddress!
  await send({ to: b, data: hexToBytes(fn('setValue', [42n])) })
  names = new Map([
    [sender, '<sender>'],
    [receiver, '<receiver>'],
    [a, '<A>'],
    [b, '<B>'],
  ])
})

afterAll(async () => {
  await network.close()
})

describe('debug_traceTransaction, struct logger', () => {
  it('a plain transfer runs no code: gas 21000, no logs', async () => {
    const hash = await send({ to: receiver, value: 1n })
    expect(await traceTransaction(chain, hash)).toEqual({ gas: 21000, failed: false, returnValue: '', structLogs: [] })
  })

  it('logs each step with geth fields: depth from 1, hex stack without leading zeros, gas as numbers', async () => {
    const hash = await send({ to: a, data: hexToBytes(fn('setValue', [5n])) })
    const result = (await traceTransaction(chain, hash)) as StructLoggerResult
    expect(result.failed).toBe(false)
    expect(result.returnValue).toBe('')
    expect(result.gas).toBe(Number(receiptOf(hash).gasUsed))
    const [first, second] = result.structLogs
    expect(first).toEqual({ pc: 0, op: 'PUSH1', gas: first!.gas, gasCost: 3, depth: 1, stack: [] })
    expect(second).toEqual({ pc: 2, op: 'PUSH1', gas: first!.gas - 3, gasCost: 3, depth: 1, stack: ['0x80'] })
    // Gas left at the first step is the limit less the intrinsic gas (21000 + calldata).
    const tx = chain.store.tx(hash)!.tx
    const calldata = tx.data.reduce((sum, byte) => sum + (byte === 0 ? 4 : 16), 0)
    expect(first!.gas).toBe(Number(tx.gasLimit) - 21000 - calldata)
    // Each step's gas is the previous one's less its cost (one frame, no calls).
    for (let i = 1; i < result.structLogs.length; i++) {
      expect(result.structLogs[i]!.gas).toBe(result.structLogs[i - 1]!.gas - result.structLogs[i - 1]!.gasCost)
    }
    expect(result.structLogs.at(-1)!.op).toBe('STOP')
    for (const log of result.structLogs) {
      expect(Object.keys(log)).toEqual(['pc', 'op', 'gas', 'gasCost', 'depth', 'stack', ...('storage' in log ? ['storage'] : [])])
      for (const item of log.stack!) expect(item).toMatch(/^0x(0|[1-9a-f][0-9a-f]*)$/)
    }
  })

  it('shows the storage a contract has read and written at SLOAD and SSTORE, accumulated', async () => {
    const hash = await send({ to: a, data: hexToBytes(fn('setValue', [7n])) })
    const { structLogs } = (await traceTransaction(chain, hash)) as StructLoggerResult
    const storageSteps = structLogs.filter((l) => l.storage !== undefined).map((l) => ({ op: l.op, gasCost: l.gasCost, storage: l.storage }))
    // setValue emits ValueSet(value, newValue): SLOAD of the old value (5, cold: 2100), then SSTORE 5 → 7.
    expect(storageSteps).toMatchInlineSnapshot(`
      [
        {
          "gasCost": 2100,
          "op": "SLOAD",
          "storage": {
            "0000000000000000000000000000000000000000000000000000000000000000": "0000000000000000000000000000000000000000000000000000000000000005",
          },
        },
        {
          "gasCost": 2900,
          "op": "SSTORE",
          "storage": {
            "0000000000000000000000000000000000000000000000000000000000000000": "0000000000000000000000000000000000000000000000000000000000000007",
          },
        },
      ]
    `)
    expect(structLogs.filter((l) => l.op !== 'SLOAD' && l.op !== 'SSTORE').every((l) => l.storage === undefined)).toBe(true)
  })

  it('disableStack, disableStorage, enableMemory and limit shape the logs', async () => {
    const hash = await send({ to: a, data: hexToBytes(fn('setValue', [8n])) })
    const { structLogs } = (await traceTransaction(chain, hash, { disableStack: true, disableStorage: true, enableMemory: true })) as StructLoggerResult
    expect(structLogs.length).toBeGreaterThan(10)
    for (const log of structLogs) {
      expect(log.stack).toBeUndefined()
      expect(log.storage).toBeUndefined()
      expect(Array.isArray(log.memory)).toBe(true)
      for (const w of log.memory!) expect(w).toMatch(/^[0-9a-f]{64}$/)
    }
    expect(structLogs[0]!.memory).toEqual([])
    // After `PUSH1 0x80 PUSH1 0x40 MSTORE` the free memory pointer is in memory.
    expect(structLogs[3]!.memory).toEqual([word(0), word(0), word(0x80)])
    const limited = (await traceTransaction(chain, hash, { limit: 5 })) as StructLoggerResult
    expect(limited.structLogs).toHaveLength(5)
  })

  it('a nested CALL: the cost includes the gas handed over, depth 2 inside, return data after', async () => {
    const hash = await send({ to: a, data: hexToBytes(fn('callOther', [b, fn('getValue')])) })
    const value = ((await traceCall(chain, { to: b, data: hexToBytes(fn('getValue')) }, 'latest')) as StructLoggerResult).returnValue
    const { structLogs, failed, returnValue } = (await traceTransaction(chain, hash, { enableReturnData: true })) as StructLoggerResult
    expect(failed).toBe(false)
    // callOther returns the callee's return data as `bytes`.
    expect(returnValue).toBe(word(0x20) + word(0x20) + value)
    const callAt = structLogs.findIndex((l) => l.op === 'CALL')
    const call = structLogs[callAt]!
    const firstInner = structLogs[callAt + 1]!
    expect(firstInner).toMatchObject({ depth: 2, pc: 0, op: 'PUSH1' })
    const requested = BigInt(call.stack!.at(-1)!)
    // B is cold (2600); memory does not grow; no value. The callee gets all but a 64th of the rest.
    const base = 2600
    const available = BigInt(call.gas - base)
    const handed = requested < available - available / 64n ? requested : available - available / 64n
    expect(call.gasCost).toBe(base + Number(handed))
    expect(firstInner.gas).toBe(Number(handed))
    // Back in the caller: the gas is what was left plus what the callee did not use.
    const back = structLogs.findIndex((l, i) => i > callAt && l.depth === 1)
    const lastInner = structLogs[back - 1]!
    expect(lastInner.op).toBe('RETURN')
    expect(structLogs[back]!.gas).toBe(call.gas - call.gasCost + lastInner.gas - lastInner.gasCost)
    // The return-data buffer: empty (left out) before the call, the callee's output after it.
    expect(structLogs.slice(0, back).every((l) => l.returnData === undefined)).toBe(true)
    expect(structLogs[back]!.returnData).toBe(`0x${value}`)
  })

  it('a revert: failed, the revert data as returnValue, no error on the REVERT step', async () => {
    const hash = await send({ to: a, data: hexToBytes(fn('revertWithReason')), gas: 100_000n })
    expect(receiptOf(hash).status).toBe(0)
    const result = (await traceTransaction(chain, hash)) as StructLoggerResult
    const reason = toFunctionSelector('Error(string)').slice(2) + encodeAbiParameters([{ type: 'string' }], ['boom']).slice(2)
    expect(result.failed).toBe(true)
    expect(result.returnValue).toBe(reason)
    expect(result.gas).toBe(Number(receiptOf(hash).gasUsed))
    const last = result.structLogs.at(-1)!
    expect(last.op).toBe('REVERT')
    expect(last.error).toBeUndefined()
  })

  it('out of gas: the failing step carries the error, returnValue is empty', async () => {
    const hash = await send({ to: a, data: hexToBytes(fn('runOutOfGas')), gas: 60_000n })
    const result = (await traceTransaction(chain, hash)) as StructLoggerResult
    expect(result).toMatchObject({ gas: 60000, failed: true, returnValue: '' })
    const last = result.structLogs.at(-1)!
    expect(last.error).toBe('out of gas')
    // The loop dies at an SSTORE with at most 2300 gas left (EIP-2200's sentry): geth's dynamic
    // gas fails there before adding anything, so the logged cost is 0.
    expect(last).toMatchObject({ op: 'SSTORE', gasCost: 0 })
    expect(last.gas).toBeLessThanOrEqual(2300)
    expect(result.structLogs.filter((l: StructLogJson) => l.error !== undefined)).toHaveLength(1)
  })
})

describe('debug_traceTransaction, callTracer', () => {
  it('a plain transfer is one CALL frame with the value', async () => {
    const hash = await send({ to: receiver, value: 1n })
    expect(named(await traceTransaction(chain, hash, { tracer: 'callTracer' }))).toEqual({
      from: '<sender>',
      gas: '0x5208',
      gasUsed: '0x5208',
      to: '<receiver>',
      input: '0x',
      value: '0x1',
      type: 'CALL',
    })
  })

  it('a nested CALL with its output, in geth key order', async () => {
    const hash = await send({ to: a, data: hexToBytes(fn('callOther', [b, fn('getValue')])) })
    const frame = (await traceTransaction(chain, hash, { tracer: 'callTracer' })) as CallFrameJson
    expect(JSON.stringify(Object.keys(frame))).toBe('["from","gas","gasUsed","to","input","output","calls","value","type"]')
    expect(BigInt(frame.gas)).toBe(chain.store.tx(hash)!.tx.gasLimit)
    expect(BigInt(frame.gasUsed)).toBe(receiptOf(hash).gasUsed)
    expect(shape(frame)).toMatchInlineSnapshot(`
      {
        "calls": [
          {
            "from": "<A>",
            "gas": "<gas>",
            "gasUsed": "<gas>",
            "input": "0x20965255",
            "output": "0x000000000000000000000000000000000000000000000000000000000000002a",
            "to": "<B>",
            "type": "CALL",
            "value": "0x0",
          },
        ],
        "from": "<sender>",
        "gas": "<gas>",
        "gasUsed": "<gas>",
        "input": "0x905f10fe000000000000000000000000e7f1725e7734ce288f8367e1bb143e90bb3f0512000000000000000000000000000000000000000000000000000000000000004000000000000000000000000000000000000000000000000000000000000000042096525500000000000000000000000000000000000000000000000000000000",
        "output": "0x00000000000000000000000000000000000000000000000000000000000000200000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000002a",
        "to": "<A>",
        "type": "CALL",
        "value": "0x0",
      }
    `)
    const struct = (await traceTransaction(chain, hash)) as StructLoggerResult
    const callAt = struct.structLogs.findIndex((l) => l.op === 'CALL')
    // The child's gas is the gas its first step had; its gasUsed what it spent.
    expect(Number(frame.calls![0]!.gas)).toBe(struct.structLogs[callAt + 1]!.gas)
  })

  it('onlyTopCall leaves out the inner frames', async () => {
    const hash = await send({ to: a, data: hexToBytes(fn('callOther', [b, fn('getValue')])) })
    const frame = (await traceTransaction(chain, hash, { tracer: 'callTracer', tracerConfig: { onlyTopCall: true } })) as CallFrameJson
    expect(frame.calls).toBeUndefined()
    expect(frame.type).toBe('CALL')
    expect(frame.output).toBeDefined()
  })

  it('a STATICCALL has no value; withLog puts logs on their frame with their position', async () => {
    const read = await send({ to: a, data: hexToBytes(fn('readOther', [b])) })
    const readFrame = (await traceTransaction(chain, read, { tracer: 'callTracer' })) as CallFrameJson
    expect(shape(readFrame)).toMatchInlineSnapshot(`
      {
        "calls": [
          {
            "from": "<A>",
            "gas": "<gas>",
            "gasUsed": "<gas>",
            "input": "0x20965255",
            "output": "0x000000000000000000000000000000000000000000000000000000000000002a",
            "to": "<B>",
            "type": "STATICCALL",
          },
        ],
        "from": "<sender>",
        "gas": "<gas>",
        "gasUsed": "<gas>",
        "input": "0xb883170a000000000000000000000000e7f1725e7734ce288f8367e1bb143e90bb3f0512",
        "output": "0x000000000000000000000000000000000000000000000000000000000000002a",
        "to": "<A>",
        "type": "CALL",
        "value": "0x0",
      }
    `)
    const hash = await send({ to: a, data: hexToBytes(fn('setAndPingOther', [b, 9n, 'hi'])) })
    const frame = (await traceTransaction(chain, hash, { tracer: 'callTracer', tracerConfig: { withLog: true } })) as CallFrameJson
    expect(shape(frame)).toMatchInlineSnapshot(`
      {
        "calls": [
          {
            "from": "<A>",
            "gas": "<gas>",
            "gasUsed": "<gas>",
            "input": "0x552410770000000000000000000000000000000000000000000000000000000000000009",
            "logs": [
              {
                "address": "<B>",
                "data": "0x000000000000000000000000000000000000000000000000000000000000002a0000000000000000000000000000000000000000000000000000000000000009",
                "position": "0x0",
                "topics": [
                  "0x69be06033bef8d755e18606a27d6d07393aabbd1800776e503af2c8a03b7c681",
                ],
              },
            ],
            "to": "<B>",
            "type": "CALL",
            "value": "0x0",
          },
          {
            "from": "<A>",
            "gas": "<gas>",
            "gasUsed": "<gas>",
            "input": "0xcba2a3160000000000000000000000000000000000000000000000000000000000000009000000000000000000000000000000000000000000000000000000000000004000000000000000000000000000000000000000000000000000000000000000026869000000000000000000000000000000000000000000000000000000000000",
            "logs": [
              {
                "address": "<B>",
                "data": "0x000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000000026869000000000000000000000000000000000000000000000000000000000000",
                "position": "0x0",
                "topics": [
                  "0x70b9fa9db7248779b82f3212f84983f03b8f0b0df01c3e83a8c642df6897002a",
                  "0x0000000000000000000000005fbdb2315678afecb367f032d93f642f64180aa3",
                  "0x0000000000000000000000000000000000000000000000000000000000000009",
                ],
              },
            ],
            "to": "<B>",
            "type": "CALL",
            "value": "0x0",
          },
        ],
        "from": "<sender>",
        "gas": "<gas>",
        "gasUsed": "<gas>",
        "input": "0x6f9651fd000000000000000000000000e7f1725e7734ce288f8367e1bb143e90bb3f05120000000000000000000000000000000000000000000000000000000000000009000000000000000000000000000000000000000000000000000000000000006000000000000000000000000000000000000000000000000000000000000000026869000000000000000000000000000000000000000000000000000000000000",
        "to": "<A>",
        "type": "CALL",
        "value": "0x0",
      }
    `)
  })

  it('a revert with Error(string): error, output and revertReason; Panic decodes too', async () => {
    const hash = await send({ to: a, data: hexToBytes(fn('revertWithReason')), gas: 100_000n })
    const frame = (await traceTransaction(chain, hash, { tracer: 'callTracer' })) as CallFrameJson
    expect(shape(frame)).toMatchInlineSnapshot(`
      {
        "error": "execution reverted",
        "from": "<sender>",
        "gas": "<gas>",
        "gasUsed": "<gas>",
        "input": "0x5b2dd100",
        "output": "0x08c379a000000000000000000000000000000000000000000000000000000000000000200000000000000000000000000000000000000000000000000000000000000004626f6f6d00000000000000000000000000000000000000000000000000000000",
        "revertReason": "boom",
        "to": "<A>",
        "type": "CALL",
        "value": "0x0",
      }
    `)
    const panic = await send({ to: a, data: hexToBytes(fn('callOther', [b, fn('assertFalse')])), gas: 200_000n })
    const panicFrame = (await traceTransaction(chain, panic, { tracer: 'callTracer' })) as CallFrameJson
    expect(panicFrame.revertReason).toBe('assert(false)')
    expect(panicFrame.calls![0]!.revertReason).toBe('assert(false)')
    expect(panicFrame.calls![0]!.error).toBe('execution reverted')
  })

  it('out of gas in a frame: the error, all its gas used, no output', async () => {
    const hash = await send({ to: a, data: hexToBytes(fn('callOther', [b, fn('runOutOfGas')])), gas: 200_000n })
    const frame = (await traceTransaction(chain, hash, { tracer: 'callTracer' })) as CallFrameJson
    const inner = frame.calls![0]!
    expect(inner.error).toBe('out of gas')
    expect(inner.gasUsed).toBe(inner.gas)
    expect(inner.output).toBeUndefined()
    // callOther bubbles the failure up as a revert with empty data.
    expect(frame.error).toBe('execution reverted')
    expect(frame.output).toBeUndefined()
  })

  it('a deployment is a CREATE frame whose output is the runtime code', async () => {
    const deploy = encodeDeployData({ abi, bytecode: Reverter.bytecode as Hex })
    const hash = await send({ data: hexToBytes(deploy) })
    const frame = (await traceTransaction(chain, hash, { tracer: 'callTracer' })) as CallFrameJson
    expect(frame.type).toBe('CREATE')
    expect(frame.to).toBe(receiptOf(hash).contractAddress)
    expect(frame.input).toBe(deploy)
    expect(frame.output).toBe(Reverter.deployedBytecode)
  })
})

describe('replay', () => {
  it('traces a transaction after the earlier ones of its block, as they ran', async () => {
    const manual = await createNetwork({ mining: { mode: 'manual' } })
    const c = manual.cChain
    const from = manual.devAccounts[0]!.address.toLowerCase() as Hex
    const sendOn = (request: Omit<TransactionRequest, 'from'>) => sendTransaction(c, c.miner, { from, ...request }, manual.signers, suggestTip(c))
    const deployHash = await sendOn({ data: hexToBytes(encodeDeployData({ abi, bytecode: Reverter.bytecode as Hex })), gas: 1_000_000n })
    await c.miner.mine()
    const target = c.store.tx(deployHash)!.receipt.contractAddress!
    const first = await sendOn({ to: target, data: hexToBytes(fn('setValue', [11n])), gas: 100_000n })
    const second = await sendOn({ to: target, data: hexToBytes(fn('setValue', [12n])), gas: 100_000n })
    const block = await c.miner.mine()
    expect(block.txs.map((t) => t.hash)).toEqual([first, second])
    const { structLogs, gas } = (await traceTransaction(c, second)) as StructLoggerResult
    // The SLOAD reads what the first transaction of the block wrote.
    expect(structLogs.find((l) => l.op === 'SLOAD')!.storage).toEqual({ [word(0)]: word(11) })
    expect(gas).toBe(Number(c.store.tx(second)!.receipt.gasUsed))
    // debug_traceCall's txIndex: the state before that transaction of the block.
    const getValue = { to: target, data: hexToBytes(fn('getValue')) }
    const at = async (txIndex: number) => ((await traceCall(c, getValue, block.number, { txIndex })) as StructLoggerResult).returnValue
    expect([await at(0), await at(1)]).toEqual([word(0), word(11)])
    expect(((await traceCall(c, getValue, block.number)) as StructLoggerResult).returnValue).toBe(word(12))
    await expect(at(2)).rejects.toThrow(`transaction index 2 out of range for block ${block.hash}`)
    await manual.close()
  })

  it('credits the coinbase the whole fee after each earlier transaction, as the miner does', async () => {
    const manual = await createNetwork({ mining: { mode: 'manual' } })
    const c = manual.cChain
    const from = manual.devAccounts[0]!.address.toLowerCase() as Hex
    const sendOn = (request: Omit<TransactionRequest, 'from'>) => sendTransaction(c, c.miner, { from, ...request }, manual.signers, suggestTip(c))
    // Runtime COINBASE BALANCE PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN, deployed by a transaction
    // (a block is replayed from its parent's state root, which cheat-code edits may not be in).
    const deployed = await sendOn({ data: hexToBytes('0x69413160005260206000f3600052600a6016f3'), gas: 100_000n })
    await c.miner.mine()
    const probe = c.store.tx(deployed)!.receipt.contractAddress!
    const first = await sendOn({ to: manual.devAccounts[1]!.address, value: 1n, gas: 21_000n })
    const second = await sendOn({ to: probe, gas: 100_000n })
    const block = await c.miner.mine()
    expect(block.txs.map((t) => t.hash)).toEqual([first, second])
    const coinbase = block.block.header.coinbase.toString() as Hex
    const before = (await c.getAccountFields(coinbase, block.number - 1n)).balance
    const r1 = c.store.tx(first)!.receipt
    const frame = (await traceTransaction(c, second, { tracer: 'callTracer' })) as CallFrameJson
    expect(BigInt(frame.output!)).toBe(before + r1.gasUsed * r1.effectiveGasPrice)
    await manual.close()
  })
})

describe('debug_traceCall', () => {
  it('traces a view call on the state at a block', async () => {
    const request = { from: sender, to: b, data: hexToBytes(fn('getValue')) }
    const old = ((await traceCall(chain, request, 'latest')) as StructLoggerResult).returnValue
    const hash = await send({ to: b, data: hexToBytes(fn('setValue', [77n])) })
    const struct = (await traceCall(chain, request, 'latest')) as StructLoggerResult
    expect(struct.failed).toBe(false)
    expect(struct.returnValue).toBe(word(77))
    expect(struct.structLogs.find((l) => l.op === 'SLOAD')!.storage).toEqual({ [word(0)]: word(77) })
    const frame = (await traceCall(chain, request, 'latest', { tracer: 'callTracer' })) as CallFrameJson
    expect(named(frame)).toEqual({
      from: '<sender>',
      gas: '0x2faf080',
      gasUsed: frame.gasUsed,
      to: '<B>',
      input: fn('getValue'),
      output: `0x${word(77)}`,
      value: '0x0',
      type: 'CALL',
    })
    expect(BigInt(frame.gasUsed)).toBe(BigInt(struct.gas))
    // The block before the write still has the old value.
    const before = chain.store.tx(hash)!.blockNumber - 1n
    expect(((await traceCall(chain, request, before)) as StructLoggerResult).returnValue).toBe(old)
    expect(old).not.toBe(word(77))
    // State overrides apply before the trace.
    const overridden = (await traceCall(chain, request, 'latest', { stateOverrides: { [b]: { stateDiff: { [`0x${word(0)}` as Hex]: `0x${word(5)}` as Hex } } } })) as StructLoggerResult
    expect(overridden.returnValue).toBe(word(5))
  })

  it('fails as geth: pending, unknown block, insufficient funds', async () => {
    const request = { from: sender, to: b, data: hexToBytes(fn('getValue')) }
    await expect(traceCall(chain, request, 'pending')).rejects.toThrow('tracing on top of pending is not supported')
    await expect(traceCall(chain, request, 1000n)).rejects.toThrow('cannot query unfinalized data')
    await expect(traceCall(chain, request, { hash: `0x${'cd'.repeat(32)}` })).rejects.toThrow(`block 0x${'cd'.repeat(32)} not found`)
    const poor = '0x00000000000000000000000000000000000000aa'
    await expect(traceCall(chain, { from: poor, to: b, value: 1n }, 'latest')).rejects.toThrow(
      'tracing failed: insufficient funds for gas * price + value: address 0x00000000000000000000000000000000000000AA have 0 want 1',
    )
  })
})

describe('hand-written code: what geth logs that ethereumjs does not run', () => {
  const at = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Hex
  /** Gas at the first step of a traced call without data: the RPC gas cap less 21000. */
  const G = 50_000_000 - 21_000

  it('code that runs off its end gets the STOP geth reads there', async () => {
    await setCode(chain, at(0xc0de01), hexToBytes('0x6001600101'))
    expect(await traceCall(chain, { from: sender, to: at(0xc0de01) }, 'latest')).toEqual({
      gas: 21_009,
      failed: false,
      returnValue: '',
      structLogs: [
        { pc: 0, op: 'PUSH1', gas: G, gasCost: 3, depth: 1, stack: [] },
        { pc: 2, op: 'PUSH1', gas: G - 3, gasCost: 3, depth: 1, stack: ['0x1'] },
        { pc: 4, op: 'ADD', gas: G - 6, gasCost: 3, depth: 1, stack: ['0x1', '0x1'] },
        { pc: 5, op: 'STOP', gas: G - 9, gasCost: 0, depth: 1, stack: ['0x2'] },
      ],
    })
  })

  it('a stack underflow is logged on its step, with geth\'s numbers', async () => {
    await setCode(chain, at(0xc0de02), hexToBytes('0x600101'))
    const request = { from: sender, to: at(0xc0de02), gas: 100_000n }
    expect(await traceCall(chain, request, 'latest')).toEqual({
      gas: 100_000,
      failed: true,
      returnValue: '',
      structLogs: [
        { pc: 0, op: 'PUSH1', gas: 79_000, gasCost: 3, depth: 1, stack: [] },
        { pc: 2, op: 'ADD', gas: 78_997, gasCost: 3, depth: 1, error: 'stack underflow (1 <=> 2)', stack: ['0x1'] },
      ],
    })
    expect(((await traceCall(chain, request, 'latest', { tracer: 'callTracer' })) as CallFrameJson).error).toBe('stack underflow (1 <=> 2)')
  })

  it('an undefined opcode: geth\'s name for it, the error on the frame only', async () => {
    await setCode(chain, at(0xc0de03), hexToBytes('0x0c'))
    const request = { from: sender, to: at(0xc0de03), gas: 100_000n }
    const struct = (await traceCall(chain, request, 'latest')) as StructLoggerResult
    expect(struct.structLogs).toEqual([{ pc: 0, op: 'opcode 0xc not defined', gas: 79_000, gasCost: 0, depth: 1, stack: [] }])
    const frame = (await traceCall(chain, request, 'latest', { tracer: 'callTracer' })) as CallFrameJson
    expect(frame.error).toBe('invalid opcode: opcode 0xc not defined')
    expect(frame.gasUsed).toBe('0x186a0')
  })

  it('SELFDESTRUCT is a frame of its own in the callTracer', async () => {
    const beneficiary = at(0xbeef)
    await setCode(chain, at(0xc0de04), hexToBytes(`0x73${beneficiary.slice(2)}ff`))
    const frame = (await traceCall(chain, { from: sender, to: at(0xc0de04), value: 5n }, 'latest', { tracer: 'callTracer' })) as CallFrameJson
    expect(named(frame.calls)).toEqual([
      { from: at(0xc0de04), gas: '0x0', gasUsed: '0x0', to: beneficiary, input: '0x', value: '0x5', type: 'SELFDESTRUCT' },
    ])
  })
})

describe('RPC methods', () => {
  const dispatcher = createEthDispatcher({ methods: debugMethods })
  const rpc = async (method: string, params: unknown[]) =>
    JSON.parse((await dispatcher.handle(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), { network, chain }))!)

  it('debug_traceTransaction: unknown hash is geth-coreth`s error, config keys match case-insensitively', async () => {
    expect(await rpc('debug_traceTransaction', [`0x${'ab'.repeat(32)}`])).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32000, message: 'transaction not found' },
    })
    const hash = await send({ to: receiver, value: 1n })
    expect((await rpc('debug_traceTransaction', [hash, { tracer: 'callTracer' }])).result.type).toBe('CALL')
    expect((await rpc('debug_traceTransaction', [hash, { disableStack: true }])).result).toEqual({
      gas: 21000,
      failed: false,
      returnValue: '',
      structLogs: [],
    })
    expect((await rpc('debug_traceTransaction', [hash, { enableMemory: 'yes' }])).error).toEqual({
      code: -32602,
      message: 'invalid argument 1: json: cannot unmarshal string into Go struct field TraceConfig.EnableMemory of type bool',
    })
    expect((await rpc('debug_traceTransaction', [hash, { tracer: 'callTracer', tracerConfig: { onlyTopCall: 1 } }])).error).toEqual({
      code: -32000,
      message: 'json: cannot unmarshal number into Go struct field callTracerConfig.onlyTopCall of type bool',
    })
  })

  it('debug_traceCall: the block is required; a callTracer result through the wire', async () => {
    expect((await rpc('debug_traceCall', [{ to: b }])).error).toEqual({ code: -32602, message: 'missing value for required argument 1' })
    const answer = await rpc('debug_traceCall', [{ from: sender, to: b, data: fn('getValue') }, 'latest', { tracer: 'callTracer' }])
    expect(answer.result.type).toBe('CALL')
    expect(answer.result.output).toMatch(/^0x[0-9a-f]{64}$/)
    expect((await rpc('debug_traceCall', [{ to: b }, 'pending'])).error).toEqual({
      code: -32000,
      message: 'tracing on top of pending is not supported',
    })
  })
})
