/**
 * keccak256 in WebAssembly, its module written out below (no toolchain, no binary file): the
 * 1600-bit permutation on 25 64-bit locals, 24 rounds in a loop. The native sponge of the
 * `keccak` package costs ~1.5 µs a call whatever the input (four N-API calls and a Buffer made
 * for each digest): a trie node, an address or a slot is hashed in a fraction of that here, and
 * a block hashes some thirty such inputs per transaction. Inputs longer than the module's buffer
 * go to `fallback` (code, long call data): same digest.
 */

/** Where things sit in the module's memory: round constants, digest, then the padded input. */
const RC_AT = 0
const DIGEST_AT = 192
const INPUT_AT = 256
const RATE = 136
/** Two 64 KiB pages: the padded input must end inside them. */
const PAGES = 2
const MAX_INPUT = PAGES * 65536 - INPUT_AT - RATE

const ROUND_CONSTANTS = [
  0x0000000000000001n, 0x0000000000008082n, 0x800000000000808an, 0x8000000080008000n, 0x000000000000808bn, 0x0000000080000001n,
  0x8000000080008081n, 0x8000000000008009n, 0x000000000000008an, 0x0000000000000088n, 0x0000000080008009n, 0x000000008000000an,
  0x000000008000808bn, 0x800000000000008bn, 0x8000000000008089n, 0x8000000000008003n, 0x8000000000008002n, 0x8000000000000080n,
  0x000000000000800an, 0x800000008000000an, 0x8000000080008081n, 0x8000000000008080n, 0x0000000080000001n, 0x8000000080008008n,
]

/** Rotation of lane x + 5y (the Keccak reference's ρ offsets). */
const RHO = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14]

// WebAssembly opcodes used.
const LOCAL_GET = 0x20
const LOCAL_SET = 0x21
const LOCAL_TEE = 0x22
const I64_LOAD = 0x29
const I64_STORE = 0x37
const I32_CONST = 0x41
const I64_CONST = 0x42
const I32_EQZ = 0x45
const I32_NE = 0x47
const I32_ADD = 0x6a
const I32_SUB = 0x6b
const I64_AND = 0x83
const I64_XOR = 0x85
const I64_ROTL = 0x89
const BLOCK = 0x02
const LOOP = 0x03
const BR = 0x0c
const BR_IF = 0x0d
const END = 0x0b
const VOID = 0x40

function uleb(value: number): number[] {
  const out: number[] = []
  do {
    let byte = value & 0x7f
    value >>>= 7
    if (value !== 0) byte |= 0x80
    out.push(byte)
  } while (value !== 0)
  return out
}

function sleb(value: number): number[] {
  const out: number[] = []
  for (;;) {
    const byte = value & 0x7f
    value >>= 7
    if ((value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0)) return [...out, byte]
    out.push(byte | 0x80)
  }
}

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body]
}

function name(text: string): number[] {
  return [...uleb(text.length), ...Buffer.from(text, 'latin1')]
}

/** `absorb(blocks)`: xors `blocks` padded rate-sized blocks from INPUT_AT into a zero state, permuting after each; writes the digest at DIGEST_AT. */
function absorbBody(): number[] {
  // Locals: 0 blocks (param), 1 ptr, 2 round offset; A 3–27, B 28–52, C 53–57, D 58–62.
  const ptr = 1
  const round = 2
  const A = (i: number) => 3 + i
  const B = (i: number) => 28 + i
  const C = (i: number) => 53 + i
  const D = (i: number) => 58 + i
  const code: number[] = []
  const get = (local: number) => code.push(LOCAL_GET, ...uleb(local))
  const set = (local: number) => code.push(LOCAL_SET, ...uleb(local))

  code.push(I32_CONST, ...sleb(INPUT_AT))
  set(ptr)
  code.push(BLOCK, VOID, LOOP, VOID)
  get(0)
  code.push(I32_EQZ, BR_IF, 1)
  for (let i = 0; i < RATE / 8; i++) {
    get(A(i))
    get(ptr)
    code.push(I64_LOAD, 3, ...uleb(8 * i), I64_XOR)
    set(A(i))
  }
  code.push(I32_CONST, 0)
  set(round)
  code.push(LOOP, VOID)
  // θ
  for (let x = 0; x < 5; x++) {
    get(A(x))
    for (let y = 1; y < 5; y++) {
      get(A(x + 5 * y))
      code.push(I64_XOR)
    }
    set(C(x))
  }
  for (let x = 0; x < 5; x++) {
    get(C((x + 4) % 5))
    get(C((x + 1) % 5))
    code.push(I64_CONST, 1, I64_ROTL, I64_XOR)
    set(D(x))
  }
  // θ applied, then ρ and π: B[y, 2x + 3y] = rotl(A[x, y] ^ D[x], ρ[x, y])
  for (let y = 0; y < 5; y++) {
    for (let x = 0; x < 5; x++) {
      get(A(x + 5 * y))
      get(D(x))
      code.push(I64_XOR)
      if (RHO[x + 5 * y] !== 0) code.push(I64_CONST, ...sleb(RHO[x + 5 * y]!), I64_ROTL)
      set(B(y + 5 * ((2 * x + 3 * y) % 5)))
    }
  }
  // χ
  for (let y = 0; y < 5; y++) {
    for (let x = 0; x < 5; x++) {
      get(B(x + 5 * y))
      get(B(((x + 1) % 5) + 5 * y))
      code.push(I64_CONST, 0x7f, I64_XOR)
      get(B(((x + 2) % 5) + 5 * y))
      code.push(I64_AND, I64_XOR)
      set(A(x + 5 * y))
    }
  }
  // ι
  get(A(0))
  get(round)
  code.push(I64_LOAD, 3, ...uleb(RC_AT), I64_XOR)
  set(A(0))
  get(round)
  code.push(I32_CONST, 8, I32_ADD, LOCAL_TEE, ...uleb(round), I32_CONST, ...sleb(8 * 24), I32_NE, BR_IF, 0, END)
  get(ptr)
  code.push(I32_CONST, ...sleb(RATE), I32_ADD)
  set(ptr)
  get(0)
  code.push(I32_CONST, 1, I32_SUB)
  set(0)
  code.push(BR, 0, END, END)
  for (let i = 0; i < 4; i++) {
    code.push(I32_CONST, 0)
    get(A(i))
    code.push(I64_STORE, 3, ...uleb(DIGEST_AT + 8 * i))
  }
  code.push(END)
  const locals = [2, ...uleb(2), 0x7f, ...uleb(60), 0x7e]
  const body = [...locals, ...code]
  return [...uleb(body.length), ...body]
}

function moduleBytes(): Uint8Array {
  const constants = new Uint8Array(8 * ROUND_CONSTANTS.length)
  const view = new DataView(constants.buffer)
  ROUND_CONSTANTS.forEach((rc, i) => view.setBigUint64(8 * i, rc, true))
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 1, 0x7f, 0]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0, ...uleb(PAGES)]),
    ...section(7, [2, ...name('memory'), 2, 0, ...name('absorb'), 0, 0]),
    ...section(10, [1, ...absorbBody()]),
    ...section(11, [1, 0, I32_CONST, ...sleb(RC_AT), END, ...uleb(constants.length), ...constants]),
  ])
}

/** What is used of the WebAssembly global (the project's TypeScript libs do not declare it). */
type WasmApi = { Module: new (bytes: Uint8Array) => object; Instance: new (module: object) => { exports: object } }

/**
 * The keccak256 function, or undefined where WebAssembly cannot run; `fallback` hashes inputs
 * too long for the module's memory. Each call runs to completion synchronously, so one module
 * instance serves every caller.
 */
export function createWasmKeccak256(fallback: (data: Uint8Array) => Uint8Array): ((data: Uint8Array) => Uint8Array) | undefined {
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly
  let exports: { memory: { buffer: ArrayBuffer }; absorb: (blocks: number) => void }
  try {
    exports = new wasm!.Instance(new wasm!.Module(moduleBytes())).exports as typeof exports
  } catch {
    return undefined
  }
  const memory = new Uint8Array(exports.memory.buffer)
  const absorb = exports.absorb
  return (data) => {
    const length = data.length
    if (length > MAX_INPUT) return fallback(data)
    const padded = (Math.floor(length / RATE) + 1) * RATE
    memory.set(data, INPUT_AT)
    memory.fill(0, INPUT_AT + length, INPUT_AT + padded)
    memory[INPUT_AT + length] = 0x01
    memory[INPUT_AT + padded - 1]! |= 0x80
    absorb(padded / RATE)
    return memory.slice(DIGEST_AT, DIGEST_AT + 32)
  }
}
