/**
 * Parameter parsers for the eth JSON-RPC dialect, failing with the messages the real node
 * (go-ethereum's `rpc` package and `encoding/json` over hexutil/common types) writes. A parser is a
 * function of the raw JSON value carrying the Go type name geth names in its messages and whether
 * geth would treat the argument as optional (a Go pointer). {@link tuple} turns parsers into the
 * `params` function of a method.
 *
 * @example
 * const params = tuple(address, blockTag) // eth_getBalance
 * params(['0x12', 'latest']) // throws InvalidParamsError: invalid argument 0: json: cannot unmarshal hex string of odd length into Go value of type common.Address
 */
import { BaseError, DecodeError } from '../core/errors.js'
import { type Hex, parseData, parseQuantity } from '../core/hex.js'
import { InvalidParamsError } from './errors.js'

export type Parser<T> = {
  (raw: unknown): T
  /** The Go type geth names in its messages, e.g. `common.Address`. */
  readonly goType: string
  /** A Go pointer: a missing trailing argument or `null` gives `undefined`. */
  readonly optional: boolean
}

export type ParserOutput<P> = P extends Parser<infer T> ? T : never

/**
 * encoding/json's `UnmarshalTypeError`. `deferred` marks the errors the Go decoder records and
 * continues past (a JSON kind that does not fit a plain Go type); errors of hexutil/common types
 * stop decoding at once. The first recorded one wins unless a stopping one comes later.
 */
export class UnmarshalTypeError extends InvalidParamsError {
  override name = 'UnmarshalTypeError'
  constructor(
    readonly value: string,
    readonly goType: string,
    readonly deferred = false,
    readonly struct?: string,
    readonly field?: string,
    /** Came out of a nested `json.Unmarshal` (a gencodec struct): an enclosing struct renames it. */
    readonly rebased = false,
  ) {
    super(
      struct !== undefined
        ? `json: cannot unmarshal ${value} into Go struct field ${struct}.${field} of type ${goType}`
        : `json: cannot unmarshal ${value} into Go value of type ${goType}`,
    )
  }

  /** The same error seen from the struct field `name` of the struct `struct`. */
  inField(struct: string, name: string): UnmarshalTypeError {
    const field = this.field === undefined ? name : `${name}.${this.field}`
    const owner = this.rebased || this.struct === undefined ? struct : this.struct
    return new UnmarshalTypeError(this.value, this.goType, this.deferred, owner, field)
  }

  /** The error as a Go `UnmarshalJSON` method returns it: it stops decoding, and the caller's struct names it. */
  fromUnmarshaler(): UnmarshalTypeError {
    return new UnmarshalTypeError(this.value, this.goType, false, this.struct, this.field, true)
  }
}

/** Makes a parser of `fn`, for types this file does not cover (e.g. `math.HexOrDecimal64`). */
export function createParser<T>(goType: string, fn: (raw: unknown) => T, options: { optional?: boolean } = {}): Parser<T> {
  return Object.assign((raw: unknown) => fn(raw), { goType, optional: options.optional ?? false })
}

/** The JSON kind as encoding/json names it in `cannot unmarshal <kind>`. */
export function jsonKind(raw: unknown): string {
  if (raw === null) return 'null'
  if (Array.isArray(raw)) return 'array'
  if (typeof raw === 'boolean') return 'bool'
  return typeof raw === 'object' ? 'object' : typeof raw
}

// --- hexutil / common types: UnmarshalJSON wraps hexutil's messages in an UnmarshalTypeError ---

function hexParser<T>(goType: string, empty: T, decode: (text: string) => T): Parser<T> {
  return createParser(goType, (raw) => {
    if (typeof raw !== 'string') throw new UnmarshalTypeError('non-string', goType)
    if (raw === '') return empty
    try {
      return decode(raw)
    } catch (err) {
      if (err instanceof DecodeError) throw new UnmarshalTypeError(err.shortMessage, goType)
      throw err
    }
  })
}

function boundedQuantity(goType: string, maxDigits: number, rangeMessage: string): Parser<bigint> {
  return hexParser(goType, 0n, (text) => {
    // geth checks the width after the prefix and leading zero but before the digits themselves.
    const digits = text.slice(2)
    if (/^0[xX]/.test(text) && digits.length > maxDigits && digits[0] !== '0') throw new DecodeError(rangeMessage)
    return parseQuantity(text)
  })
}

/** `*hexutil.Big`: a quantity of at most 256 bits. `""` is 0, as in geth. */
export const quantity: Parser<bigint> = hexParser('*hexutil.Big', 0n, parseQuantity)

/** `hexutil.Uint64`: a quantity of at most 64 bits (nonce, gas). */
export const uint64Quantity: Parser<bigint> = boundedQuantity('hexutil.Uint64', 16, 'hex number > 64 bits')

/** `hexutil.Uint`: a quantity of at most 64 bits (transaction index). */
export const uintQuantity: Parser<bigint> = boundedQuantity('hexutil.Uint', 16, 'hex number > 64 bits')

/** `hexutil.Bytes`. `""` is no bytes, as in geth. */
export const data: Parser<Uint8Array> = hexParser('hexutil.Bytes', new Uint8Array(), parseData)

function fixedHex(goType: string, byteLength: number): Parser<Hex> {
  return createParser(goType, (raw) => {
    if (typeof raw !== 'string') throw new UnmarshalTypeError('non-string', goType)
    return decodeFixed(raw, byteLength, goType, (message) => new UnmarshalTypeError(message, goType))
  })
}

/** hexutil.UnmarshalFixedText: the length error is a plain error, the others go through `wrap`. */
function decodeFixed(text: string, byteLength: number, typeName: string, wrap: (message: string) => Error): Hex {
  let digits = text
  if (text !== '') {
    if (text[0] !== '0' || (text[1] !== 'x' && text[1] !== 'X')) throw wrap('hex string without 0x prefix')
    digits = text.slice(2)
    if (digits.length % 2 !== 0) throw wrap('hex string of odd length')
  }
  if (digits.length !== byteLength * 2)
    throw new InvalidParamsError(`hex string has length ${digits.length}, want ${byteLength * 2} for ${typeName}`)
  if (!/^[0-9a-fA-F]*$/.test(digits)) throw wrap('invalid hex string')
  return `0x${digits.toLowerCase()}`
}

/** `common.Address`, returned in lower case. */
export const address: Parser<Hex> = fixedHex('common.Address', 20)

/** `common.Hash`, returned in lower case. */
export const hash32: Parser<Hex> = fixedHex('common.Hash', 32)

// --- plain Go types: a JSON kind that does not fit is recorded and decoding goes on ---

/** Go `bool`. `null` leaves it false, as encoding/json does. */
export const bool: Parser<boolean> = createParser('bool', (raw) => {
  if (raw === null) return false
  if (typeof raw !== 'boolean') throw new UnmarshalTypeError(jsonKind(raw), 'bool', true)
  return raw
})

/** Go `string`. `null` leaves it empty. */
export const string: Parser<string> = createParser('string', (raw) => {
  if (raw === null) return ''
  if (typeof raw !== 'string') throw new UnmarshalTypeError(jsonKind(raw), 'string', true)
  return raw
})

/** Go `interface{}` / `json.RawMessage`: anything, as it came. Required unless wrapped in {@link optional}. */
export const any: Parser<unknown> = createParser('interface {}', (raw) => raw)

/** A Go pointer: `null` (or a missing trailing argument) is `undefined`. */
export function optional<T>(parser: Parser<T>): Parser<T | undefined> {
  return createParser(parser.goType, (raw) => (raw === null || raw === undefined ? undefined : parser(raw)), { optional: true })
}

/** A Go slice `[]T`. `null` is an empty list. */
export function array<T>(parser: Parser<T>, goType = `[]${parser.goType}`): Parser<T[]> {
  return createParser(goType, (raw) => {
    if (raw === null) return []
    if (!Array.isArray(raw)) throw new UnmarshalTypeError(jsonKind(raw), goType, true)
    let saved: UnmarshalTypeError | undefined
    const out: T[] = []
    for (const item of raw) {
      try {
        out.push(parser(item))
      } catch (err) {
        if (!(err instanceof UnmarshalTypeError && err.deferred)) throw err
        saved ??= err
      }
    }
    if (saved) throw saved
    return out
  })
}

type Fields = Record<string, Parser<unknown>>
export type ObjectOutput<F extends Fields> = { [K in keyof F]?: ParserOutput<F[K]> }

export type ObjectOptions<F extends Fields> = {
  /**
   * The Go type decodes itself with a gencodec-generated `UnmarshalJSON` (e.g. `types.AccessTuple`):
   * its errors stop decoding, an enclosing struct's name replaces its own in them, and each
   * `required` field that is absent or null fails with `missing required field 'x' for T`.
   */
  gencodec?: { required: (keyof F & string)[] }
}

/**
 * A Go struct named `goType` (package-qualified, e.g. `ethapi.TransactionArgs`) whose JSON fields
 * are `fields`. As encoding/json: keys match case-insensitively, unknown keys are ignored, a
 * missing key leaves the field unset, `null` for the whole struct leaves every field unset, and an
 * error inside a field is reported as `Go struct field TransactionArgs.gas`.
 */
export function object<F extends Fields>(goType: string, fields: F, options: ObjectOptions<F> = {}): Parser<ObjectOutput<F>> {
  const structName = goType.slice(goType.lastIndexOf('.') + 1)
  const decode = structDecoder(goType, structName, fields)
  const gencodec = options.gencodec
  if (gencodec === undefined) return createParser(goType, decode)
  return createParser(goType, (raw) => {
    let out: ObjectOutput<F>
    try {
      out = decode(raw)
    } catch (err) {
      throw err instanceof UnmarshalTypeError ? err.fromUnmarshaler() : err
    }
    for (const name of gencodec.required)
      if (out[name] === undefined || out[name] === null) throw new InvalidParamsError(`missing required field '${name}' for ${structName}`)
    return out
  })
}

function structDecoder<F extends Fields>(goType: string, structName: string, fields: F): (raw: unknown) => ObjectOutput<F> {
  const byFoldedName = new Map(Object.keys(fields).map((name) => [name.toLowerCase(), name]))
  return (raw) => {
    if (raw === null) return {}
    if (typeof raw !== 'object' || Array.isArray(raw)) throw new UnmarshalTypeError(jsonKind(raw), goType, true)
    let saved: UnmarshalTypeError | undefined
    const out: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(raw)) {
      const name = Object.hasOwn(fields, key) ? key : byFoldedName.get(key.toLowerCase())
      if (name === undefined) continue
      try {
        out[name] = (fields[name] as Parser<unknown>)(value)
      } catch (err) {
        if (!(err instanceof UnmarshalTypeError)) throw err
        const located = err.inField(structName, name)
        if (!located.deferred) throw located
        saved ??= located
      }
    }
    if (saved) throw saved
    return out as ObjectOutput<F>
  }
}

// --- block numbers: coreth's rpc.BlockNumber and rpc.BlockNumberOrHash ---

/** A block number or tag. `earliest` is block 0 in geth, so it parses to `0n`; coreth's `accepted` is `finalized`. */
export type BlockNumber = bigint | 'latest' | 'pending' | 'safe' | 'finalized'

/** EIP-1898. At most one of the two is set; when neither is, coreth answers `invalid arguments; neither block nor hash specified`. */
export type BlockNumberOrHash = { blockNumber?: BlockNumber; blockHash?: Hex; requireCanonical: boolean }

const TAGS: Record<string, BlockNumber> = {
  earliest: 0n,
  latest: 'latest',
  pending: 'pending',
  accepted: 'finalized',
  finalized: 'finalized',
  safe: 'safe',
}

const MAX_INT64 = (1n << 63n) - 1n

/** hexutil.DecodeUint64, with strconv.ParseUint's order of syntax and range errors. */
function decodeUint64(text: string): bigint {
  if (text === '') throw new InvalidParamsError('empty hex string')
  if (text[0] !== '0' || (text[1] !== 'x' && text[1] !== 'X')) throw new InvalidParamsError('hex string without 0x prefix')
  const digits = text.slice(2)
  if (digits === '') throw new InvalidParamsError('hex string "0x"')
  if (digits.length > 1 && digits[0] === '0') throw new InvalidParamsError('hex number with leading zero digits')
  let n = 0n
  for (const c of digits) {
    const nibble = Number.parseInt(c, 16)
    if (Number.isNaN(nibble)) throw new InvalidParamsError('invalid hex string')
    n = n * 16n + BigInt(nibble)
    if (n > 0xffffffffffffffffn) throw new InvalidParamsError('hex number > 64 bits')
  }
  return n
}

/** `rpc.BlockNumber`: a tag or a quantity. Any JSON that is not a string reads as its raw text, so fails on the prefix. */
export const blockNumber: Parser<BlockNumber> = createParser('rpc.BlockNumber', (raw) => {
  if (typeof raw !== 'string') throw new InvalidParamsError('hex string without 0x prefix')
  const tag = Object.hasOwn(TAGS, raw) ? TAGS[raw] : undefined
  if (tag !== undefined) return tag
  const n = decodeUint64(raw)
  if (n > MAX_INT64) throw new InvalidParamsError('block number larger than int64')
  return n
})

const blockNumberOrHashObject = object('rpc.erased', {
  blockNumber: optional(blockNumber),
  blockHash: optional(hash32),
  requireCanonical: bool,
})

/**
 * `rpc.BlockNumberOrHash` (EIP-1898): a tag, a quantity, a 32-byte hash, or
 * `{blockNumber}` / `{blockHash, requireCanonical}`. An object geth cannot read fails with
 * `json: cannot unmarshal object into Go value of type string`, because geth then retries it as a string.
 */
export const blockTag: Parser<BlockNumberOrHash> = createParser('rpc.BlockNumberOrHash', (raw) => {
  if (raw === null || (typeof raw === 'object' && !Array.isArray(raw))) {
    let fields: ParserOutput<typeof blockNumberOrHashObject>
    try {
      fields = blockNumberOrHashObject(raw)
    } catch {
      throw new UnmarshalTypeError('object', 'string')
    }
    if (fields.blockNumber !== undefined && fields.blockHash !== undefined)
      throw new InvalidParamsError('cannot specify both BlockHash and BlockNumber, choose one or the other')
    const out: BlockNumberOrHash = { requireCanonical: fields.requireCanonical ?? false }
    if (fields.blockNumber !== undefined) out.blockNumber = fields.blockNumber
    if (fields.blockHash !== undefined) out.blockHash = fields.blockHash
    return out
  }
  if (typeof raw !== 'string') throw new UnmarshalTypeError(jsonKind(raw), 'string')
  const tag = Object.hasOwn(TAGS, raw) ? TAGS[raw] : undefined
  if (tag !== undefined) return { blockNumber: tag, requireCanonical: false }
  if (raw.length === 66)
    return { blockHash: decodeFixed(raw, 32, 'Hash', (message) => new InvalidParamsError(message)), requireCanonical: false }
  const n = decodeUint64(raw)
  if (n > MAX_INT64) throw new InvalidParamsError('blocknumber too high')
  return { blockNumber: n, requireCanonical: false }
})

type Outputs<P extends readonly Parser<unknown>[]> = { -readonly [K in keyof P]: ParserOutput<P[K]> }

/**
 * The positional `params` of a method, checked as geth's `parsePositionalArguments`: absent or
 * `null` params are no arguments; anything but an array is `non-array args`; arguments are read
 * in order and the first bad one is `invalid argument N: <reason>`; one beyond the list is
 * `too many arguments, want at most N`; a missing one that is not optional is
 * `missing value for required argument N`.
 */
export function tuple<const P extends readonly Parser<unknown>[]>(...parsers: P): Parser<Outputs<P>> {
  return createParser('params', (raw) => {
    if (raw === undefined || raw === null) raw = []
    if (!Array.isArray(raw)) throw new InvalidParamsError('non-array args')
    const out: unknown[] = []
    for (const [i, value] of raw.entries()) {
      const parser = parsers[i]
      if (parser === undefined) throw new InvalidParamsError(`too many arguments, want at most ${parsers.length}`)
      try {
        out.push(parser(value))
      } catch (err) {
        throw new InvalidParamsError(`invalid argument ${i}: ${messageOf(err)}`, { cause: err })
      }
    }
    for (let i = raw.length; i < parsers.length; i++) {
      if (!parsers[i]?.optional) throw new InvalidParamsError(`missing value for required argument ${i}`)
      out.push(undefined)
    }
    return out as Outputs<P>
  })
}

function messageOf(err: unknown): string {
  if (err instanceof BaseError) return err.shortMessage
  return err instanceof Error ? err.message : String(err)
}
