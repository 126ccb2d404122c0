import { bytesToHex, concatBytes, hexToBytes, setLengthLeft, bigIntToBytes } from '@ethereumjs/util'
import type { Hex } from '../../../src/core/hex.js'
import type { PrecompileCall, PrecompileResult, PrecompileState, StatefulPrecompile } from '../../../src/evm/precompiles/types.js'

/** A Map-backed PrecompileState that also records balances. */
export class MemoryState implements PrecompileState {
  readonly storage = new Map<string, Uint8Array>()
  readonly balances = new Map<Hex, bigint>()

  async getStorage(address: Hex, slot: Uint8Array): Promise<Uint8Array> {
    if (slot.length !== 32) throw new Error(`slot of ${slot.length} bytes`)
    return this.storage.get(`${address}:${bytesToHex(slot)}`) ?? new Uint8Array(32)
  }
  async putStorage(address: Hex, slot: Uint8Array, value: Uint8Array): Promise<void> {
    if (slot.length !== 32 || value.length !== 32) throw new Error('slot and value must be 32 bytes')
    this.storage.set(`${address}:${bytesToHex(slot)}`, Uint8Array.from(value))
  }
  async addBalance(address: Hex, amount: bigint): Promise<void> {
    this.balances.set(address, (this.balances.get(address) ?? 0n) + amount)
  }
}

export type Log = { topics: Hex[]; data: Hex }

export const DURANGO = { isDurango: true, isGranite: false, blockNumber: 7n, timestamp: 1_000n }
export const PRE_DURANGO = { isDurango: false, isGranite: false, blockNumber: 7n, timestamp: 1_000n }

export type Invoke = {
  state: MemoryState
  caller: Hex
  input: Uint8Array | Hex
  gas?: bigint
  readOnly?: boolean
  durango?: boolean
  blockNumber?: bigint
}

export async function invoke(
  run: StatefulPrecompile,
  address: Hex,
  o: Invoke,
): Promise<PrecompileResult & { logs: Log[]; gasUsed: bigint; ret: Hex }> {
  const logs: Log[] = []
  const gas = o.gas ?? 1_000_000n
  const rules = { ...(o.durango === false ? PRE_DURANGO : DURANGO) }
  if (o.blockNumber !== undefined) rules.blockNumber = o.blockNumber
  const call: PrecompileCall = {
    address,
    caller: o.caller,
    origin: o.caller,
    input: typeof o.input === 'string' ? hexToBytes(o.input) : o.input,
    gas,
    readOnly: o.readOnly ?? false,
    value: 0n,
    rules,
    state: o.state,
    log: (topics, data) => logs.push({ topics: topics.map((t) => bytesToHex(t)), data: bytesToHex(data) }),
  }
  const result = await run(call)
  return { ...result, logs, gasUsed: gas - result.gasLeft, ret: bytesToHex(result.returnData) }
}

export const word = (v: bigint | Hex): Uint8Array =>
  typeof v === 'bigint' ? setLengthLeft(bigIntToBytes(v), 32) : setLengthLeft(hexToBytes(v), 32)
export const wordHex = (v: bigint | Hex): Hex => bytesToHex(word(v))

/** selector followed by the given words. */
export const calldata = (selector: Hex, ...args: (bigint | Hex | Uint8Array)[]): Uint8Array =>
  concatBytes(hexToBytes(selector), ...args.map((a) => (a instanceof Uint8Array ? a : word(a))))

export const ADMIN: Hex = '0x1000000000000000000000000000000000000001'
export const MANAGER: Hex = '0x2000000000000000000000000000000000000002'
export const ENABLED: Hex = '0x3000000000000000000000000000000000000003'
export const NOBODY: Hex = '0xabcdefabcdefabcdefabcdefabcdefabcdefabcd'
/** EIP-55 of NOBODY (viem's getAddress). */
export const NOBODY_CHECKSUM = '0xABcdEFABcdEFabcdEfAbCdefabcdeFABcDEFabCD'
