import { describe, expect, test } from 'vitest'
import { InvalidParamsError } from '../../src/rpc/errors.js'
import {
  address,
  any,
  array,
  blockNumber,
  blockTag,
  bool,
  data,
  hash32,
  object,
  optional,
  type Parser,
  quantity,
  string,
  tuple,
  uint64Quantity,
  uintQuantity,
} from '../../src/rpc/params.js'

/** The message geth would put on the wire when `raw` is argument 0 of a one-argument method. */
function failure(parser: Parser<unknown>, raw: unknown): string {
  try {
    tuple(parser)([raw])
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidParamsError)
    return (err as InvalidParamsError).shortMessage
  }
  throw new Error(`parsed ${JSON.stringify(raw)}`)
}

const ADDRESS = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC'
const HASH = `0x${'ab'.repeat(32)}`

describe('tuple', () => {
  const params = tuple(address, optional(blockTag))

  test('absent or null params are no arguments', () => {
    expect(tuple()(undefined)).toEqual([])
    expect(tuple()(null)).toEqual([])
    expect(() => tuple(address)(null)).toThrow('missing value for required argument 0')
  })

  test('named params are refused', () => {
    expect(() => params({ address: ADDRESS })).toThrow(new InvalidParamsError('non-array args'))
    expect(() => params('x')).toThrow('non-array args')
  })

  test('too many arguments', () => {
    expect(() => params([ADDRESS, 'latest', true])).toThrow('too many arguments, want at most 2')
    expect(() => tuple()([1])).toThrow('too many arguments, want at most 0')
  })

  test('the first bad argument is reported before an extra one', () => {
    expect(() => params(['0x1', 'latest', true])).toThrow(
      'invalid argument 0: json: cannot unmarshal hex string of odd length into Go value of type common.Address',
    )
  })

  test('missing required and optional arguments', () => {
    expect(() => tuple(blockNumber, bool)(['latest'])).toThrow('missing value for required argument 1')
    expect(() => tuple(optional(address), address)([])).toThrow('missing value for required argument 1')
    expect(params([ADDRESS])).toEqual([ADDRESS.toLowerCase(), undefined])
    expect(params([ADDRESS, null])).toEqual([ADDRESS.toLowerCase(), undefined])
  })

  test('a required argument given as null is decoded, not missing', () => {
    expect(() => params([null])).toThrow('invalid argument 0: json: cannot unmarshal non-string into Go value of type common.Address')
    expect(tuple(blockNumber, bool)(['latest', null])).toEqual(['latest', false])
  })
})

describe('quantities', () => {
  test.each([
    ['0x0', 0n],
    ['0x1a', 26n],
    ['0X1A', 26n],
    ['', 0n],
    [`0x${'f'.repeat(64)}`, (1n << 256n) - 1n],
  ])('quantity %j', (raw, value) => expect(quantity(raw)).toBe(value))

  test.each([
    [1, 'json: cannot unmarshal non-string into Go value of type *hexutil.Big'],
    [null, 'json: cannot unmarshal non-string into Go value of type *hexutil.Big'],
    ['1', 'json: cannot unmarshal hex string without 0x prefix into Go value of type *hexutil.Big'],
    ['0x', 'json: cannot unmarshal hex string "0x" into Go value of type *hexutil.Big'],
    ['0x01', 'json: cannot unmarshal hex number with leading zero digits into Go value of type *hexutil.Big'],
    ['0x0z', 'json: cannot unmarshal hex number with leading zero digits into Go value of type *hexutil.Big'],
    ['0xz', 'json: cannot unmarshal invalid hex string into Go value of type *hexutil.Big'],
    [`0x1${'0'.repeat(64)}`, 'json: cannot unmarshal hex number > 256 bits into Go value of type *hexutil.Big'],
    [`0x${'z'.repeat(65)}`, 'json: cannot unmarshal hex number > 256 bits into Go value of type *hexutil.Big'],
  ])('quantity %j fails', (raw, message) => expect(failure(quantity, raw)).toBe(`invalid argument 0: ${message}`))

  test('uint64 and uint bound the width before reading the digits', () => {
    expect(uint64Quantity('0xffffffffffffffff')).toBe(2n ** 64n - 1n)
    expect(failure(uint64Quantity, '0x10000000000000000')).toBe(
      'invalid argument 0: json: cannot unmarshal hex number > 64 bits into Go value of type hexutil.Uint64',
    )
    expect(failure(uint64Quantity, `0xz${'0'.repeat(16)}`)).toBe(
      'invalid argument 0: json: cannot unmarshal hex number > 64 bits into Go value of type hexutil.Uint64',
    )
    expect(failure(uint64Quantity, `0x0${'0'.repeat(16)}`)).toBe(
      'invalid argument 0: json: cannot unmarshal hex number with leading zero digits into Go value of type hexutil.Uint64',
    )
    expect(failure(uintQuantity, true)).toBe('invalid argument 0: json: cannot unmarshal non-string into Go value of type hexutil.Uint')
  })
})

describe('data', () => {
  test('decodes bytes; an empty string is no bytes', () => {
    expect(data('0x0aFF')).toEqual(new Uint8Array([10, 255]))
    expect(data('0x')).toEqual(new Uint8Array())
    expect(data('')).toEqual(new Uint8Array())
  })

  test.each([
    [{}, 'json: cannot unmarshal non-string into Go value of type hexutil.Bytes'],
    ['aa', 'json: cannot unmarshal hex string without 0x prefix into Go value of type hexutil.Bytes'],
    ['0xa', 'json: cannot unmarshal hex string of odd length into Go value of type hexutil.Bytes'],
    ['0xzz', 'json: cannot unmarshal invalid hex string into Go value of type hexutil.Bytes'],
  ])('data %j fails', (raw, message) => expect(failure(data, raw)).toBe(`invalid argument 0: ${message}`))
})

describe('address and hash32', () => {
  test('return lower case', () => {
    expect(address(ADDRESS)).toBe(ADDRESS.toLowerCase())
    expect(hash32(HASH.toUpperCase().replace('0X', '0x'))).toBe(HASH)
  })

  test.each([
    [42, 'json: cannot unmarshal non-string into Go value of type common.Address'],
    ['', 'hex string has length 0, want 40 for common.Address'],
    [ADDRESS.slice(2), 'json: cannot unmarshal hex string without 0x prefix into Go value of type common.Address'],
    [ADDRESS.slice(0, -1), 'json: cannot unmarshal hex string of odd length into Go value of type common.Address'],
    [ADDRESS.slice(0, -2), 'hex string has length 38, want 40 for common.Address'],
    [`${ADDRESS.slice(0, -2)}zz`, 'json: cannot unmarshal invalid hex string into Go value of type common.Address'],
  ])('address %j fails', (raw, message) => expect(failure(address, raw)).toBe(`invalid argument 0: ${message}`))

  test('hash32 names common.Hash', () => {
    expect(failure(hash32, '0x00')).toBe('invalid argument 0: hex string has length 2, want 64 for common.Hash')
    expect(failure(hash32, false)).toBe('invalid argument 0: json: cannot unmarshal non-string into Go value of type common.Hash')
  })
})

describe('blockNumber (rpc.BlockNumber)', () => {
  test.each([
    ['latest', 'latest'],
    ['pending', 'pending'],
    ['safe', 'safe'],
    ['finalized', 'finalized'],
    ['accepted', 'finalized'],
    ['earliest', 0n],
    ['0x10', 16n],
  ])('%j', (raw, value) => expect(blockNumber(raw)).toBe(value))

  test.each([
    [5, 'hex string without 0x prefix'],
    [null, 'hex string without 0x prefix'],
    ['Latest', 'hex string without 0x prefix'],
    ['', 'empty hex string'],
    ['0x', 'hex string "0x"'],
    ['0x01', 'hex number with leading zero digits'],
    ['0xg', 'invalid hex string'],
    ['0x10000000000000000', 'hex number > 64 bits'],
    ['0x8000000000000000', 'block number larger than int64'],
  ])('%j fails', (raw, message) => expect(failure(blockNumber, raw)).toBe(`invalid argument 0: ${message}`))
})

describe('blockTag (rpc.BlockNumberOrHash)', () => {
  test.each([
    ['latest', { blockNumber: 'latest', requireCanonical: false }],
    ['earliest', { blockNumber: 0n, requireCanonical: false }],
    ['0x2', { blockNumber: 2n, requireCanonical: false }],
    [HASH, { blockHash: HASH, requireCanonical: false }],
    [{ blockNumber: '0x2' }, { blockNumber: 2n, requireCanonical: false }],
    [{ blockHash: HASH, requireCanonical: true }, { blockHash: HASH, requireCanonical: true }],
    [{ BLOCKHASH: HASH }, { blockHash: HASH, requireCanonical: false }],
    [{}, { requireCanonical: false }],
    [null, { requireCanonical: false }],
  ])('%j', (raw, value) => expect(blockTag(raw)).toEqual(value))

  test.each([
    [{ blockNumber: '0x1', blockHash: HASH }, 'cannot specify both BlockHash and BlockNumber, choose one or the other'],
    [{ blockNumber: 'latest!' }, 'json: cannot unmarshal object into Go value of type string'],
    [{ blockHash: HASH, requireCanonical: 'yes' }, 'json: cannot unmarshal object into Go value of type string'],
    [7, 'json: cannot unmarshal number into Go value of type string'],
    [[], 'json: cannot unmarshal array into Go value of type string'],
    [`0x${'zz'.repeat(32)}`, 'invalid hex string'],
    [`00${'ab'.repeat(32)}`, 'hex string without 0x prefix'],
    ['0x8000000000000000', 'blocknumber too high'],
    ['pendin', 'hex string without 0x prefix'],
  ])('%j fails', (raw, message) => expect(failure(blockTag, raw)).toBe(`invalid argument 0: ${message}`))
})

describe('plain Go types', () => {
  test('bool and string leave null as the zero value', () => {
    expect(bool(null)).toBe(false)
    expect(string(null)).toBe('')
    expect(failure(bool, 'true')).toBe('invalid argument 0: json: cannot unmarshal string into Go value of type bool')
    expect(failure(string, 1)).toBe('invalid argument 0: json: cannot unmarshal number into Go value of type string')
  })

  test('any takes anything but is required', () => {
    expect(tuple(any)([{ a: 1 }])).toEqual([{ a: 1 }])
    expect(() => tuple(any)([])).toThrow('missing value for required argument 0')
  })

  test('array', () => {
    const hashes = array(hash32)
    expect(hashes([HASH])).toEqual([HASH])
    expect(hashes(null)).toEqual([])
    expect(failure(hashes, HASH)).toBe('invalid argument 0: json: cannot unmarshal string into Go value of type []common.Hash')
    expect(failure(hashes, [HASH, 1])).toBe('invalid argument 0: json: cannot unmarshal non-string into Go value of type common.Hash')
    expect(failure(array(bool), [1, 'x'])).toBe('invalid argument 0: json: cannot unmarshal number into Go value of type bool')
  })
})

describe('object (a Go struct)', () => {
  const accessTuple = object(
    'types.AccessTuple',
    { address: optional(address), storageKeys: array(hash32) },
    { gencodec: { required: ['address', 'storageKeys'] } },
  )
  const inner = object('ethapi.Inner', { flag: bool, at: optional(address) })
  const txArgs = object('ethapi.TransactionArgs', {
    from: optional(address),
    gas: optional(uint64Quantity),
    value: optional(quantity),
    accessList: optional(array(accessTuple, 'types.AccessList')),
    inner: optional(inner),
    note: optional(string),
  })

  test('keys match case-insensitively; unknown keys are ignored; null is an empty struct', () => {
    expect(txArgs({ FROM: ADDRESS, gas: '0x5208', other: 1 })).toEqual({ from: ADDRESS.toLowerCase(), gas: 21000n })
    expect(txArgs(null)).toEqual({})
    expect(txArgs({ value: null })).toEqual({ value: undefined })
  })

  test('a value that is not an object', () => {
    expect(failure(txArgs, '0x1')).toBe('invalid argument 0: json: cannot unmarshal string into Go value of type ethapi.TransactionArgs')
    expect(failure(txArgs, [])).toBe('invalid argument 0: json: cannot unmarshal array into Go value of type ethapi.TransactionArgs')
  })

  test('errors name the struct field', () => {
    expect(failure(txArgs, { gas: '21000' })).toBe(
      'invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go struct field TransactionArgs.gas of type hexutil.Uint64',
    )
    expect(failure(txArgs, { value: 1 })).toBe(
      'invalid argument 0: json: cannot unmarshal non-string into Go struct field TransactionArgs.value of type *hexutil.Big',
    )
    expect(failure(txArgs, { from: '0x12' })).toBe('invalid argument 0: hex string has length 2, want 40 for common.Address')
  })

  test('a nested plain struct names the innermost struct and the whole path', () => {
    expect(failure(txArgs, { inner: { at: 5 } })).toBe(
      'invalid argument 0: json: cannot unmarshal non-string into Go struct field Inner.inner.at of type common.Address',
    )
    expect(failure(txArgs, { inner: { flag: 'x' } })).toBe(
      'invalid argument 0: json: cannot unmarshal string into Go struct field Inner.inner.flag of type bool',
    )
  })

  test('a gencodec struct is renamed by its enclosing struct and checks required fields', () => {
    expect(failure(txArgs, { accessList: [{ address: 5 }] })).toBe(
      'invalid argument 0: json: cannot unmarshal non-string into Go struct field TransactionArgs.accessList.address of type common.Address',
    )
    expect(failure(accessTuple, { address: 5 })).toBe(
      'invalid argument 0: json: cannot unmarshal non-string into Go struct field AccessTuple.address of type common.Address',
    )
    expect(failure(txArgs, { accessList: [{ address: ADDRESS }] })).toBe(
      "invalid argument 0: missing required field 'storageKeys' for AccessTuple",
    )
    expect(failure(txArgs, { accessList: [null] })).toBe("invalid argument 0: missing required field 'address' for AccessTuple")
    expect(failure(txArgs, { accessList: [{ address: ADDRESS, storageKeys: ['0xzz'] }] })).toBe(
      'invalid argument 0: hex string has length 2, want 64 for common.Hash',
    )
  })

  test('a kind mismatch is reported only if no hexutil error follows it', () => {
    expect(failure(txArgs, { note: 1, gas: '0x5208' })).toBe(
      'invalid argument 0: json: cannot unmarshal number into Go struct field TransactionArgs.note of type string',
    )
    expect(failure(txArgs, { note: 1, gas: 'x' })).toBe(
      'invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go struct field TransactionArgs.gas of type hexutil.Uint64',
    )
  })
})
