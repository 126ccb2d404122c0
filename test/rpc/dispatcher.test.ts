import { describe, expect, test, vi } from 'vitest'
import { DecodeError, InvalidArgumentError, InvalidStateError, NotFoundError } from '../../src/core/errors.js'
import { hexToBytes } from '../../src/core/hex.js'
import { createEthDispatcher, ETH_HTTP, ETH_MAX_REQUEST_BYTES, parseJSONBody, type RpcMethod } from '../../src/rpc/dispatcher.js'
import {
  callFailedError,
  InvalidParamsError,
  NotificationsUnsupportedError,
  revertError,
  stateTransitionErrors,
  txPoolErrors,
} from '../../src/rpc/errors.js'
import { address, any, blockTag, optional, string, tuple } from '../../src/rpc/params.js'

type Ctx = { calls: string[] }

class SnapshotMissingError extends NotFoundError {
  static code = -32001
}

const SENDER = '0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc'

/** ABI encoding of `Error(string)` for a short ASCII reason. */
function errorString(reason: string): Uint8Array {
  const hex = Buffer.from(reason).toString('hex')
  const word = (n: number) => n.toString(16).padStart(64, '0')
  return hexToBytes(`0x08c379a0${word(32)}${word(reason.length)}${hex.padEnd(64, '0')}`)
}

const THROWS: Record<string, () => unknown> = {
  revert: () => revertError(errorString('not owner')),
  panic: () => revertError(hexToBytes(`0x4e487b71${'11'.padStart(64, '0')}`)),
  customRevert: () => revertError(hexToBytes('0xdeadbeef')),
  emptyRevert: () => revertError(new Uint8Array()),
  poolNonce: () => txPoolErrors.nonceTooLow({ next: 5, txNonce: 3 }),
  callNonce: () => callFailedError(stateTransitionErrors.nonceTooLow({ from: SENDER, txNonce: 3, stateNonce: 5 }), 50_000_000),
  feeCap: () => stateTransitionErrors.feeCapTooLow({ from: SENDER, maxFeePerGas: 1n, baseFee: 25_000_000_000n }),
  invalidParams: () => new InvalidParamsError('bad things'),
  invalidArgument: () => new InvalidArgumentError('bad argument'),
  decode: () => new DecodeError('bad hex'),
  notFound: () => new NotFoundError('header not found', { details: 'height 9' }),
  invalidState: () => new InvalidStateError('chain is busy'),
  ownCode: () => new SnapshotMissingError('snapshot 3 not found'),
  bug: () => new TypeError("Cannot read properties of undefined (reading 'x')"),
  string: () => 'boom',
}

const methods: Record<string, RpcMethod<any, unknown, Ctx>> = {
  eth_chainId: { params: tuple(), handler: (_, ctx) => (ctx.calls.push('eth_chainId'), '0xa868') },
  eth_getBalance: { params: tuple(address, blockTag), handler: () => '0x0' },
  test_echo: { params: tuple(string, any, optional(any)), handler: ([s, n, extra]) => ({ s, n, extra: extra ?? null }) },
  test_noArgsRets: { params: tuple(), handler: () => undefined },
  test_throw: {
    params: tuple(string),
    handler: ([kind]) => {
      throw (THROWS[kind] as () => unknown)()
    },
  },
  test_bigint: { params: tuple(), handler: () => ({ big: 2n ** 70n, small: 1 }) },
  test_cyclic: { params: tuple(), handler: () => { const o: Record<string, unknown> = {}; o.self = o; return o } },
  test_html: { params: tuple(), handler: () => '<b>&\u2028' },
  test_sized: { params: tuple(any), handler: ([n]) => 'x'.repeat(n as number) },
  test_record: { params: tuple(string), handler: ([s], ctx) => (ctx.calls.push(s), s) },
  eth_subscribe: {
    params: tuple(),
    handler: () => {
      throw new NotificationsUnsupportedError()
    },
  },
}

const dispatcher = createEthDispatcher<Ctx>({ methods })
const http = (body: string, ctx: Ctx = { calls: [] }) => dispatcher.handle(body, ctx)
const call = (method: string, params?: unknown, id: unknown = 1) =>
  http(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }))

describe('envelope', () => {
  test('a call and its result, newline-terminated as Go writes it', async () => {
    expect(await call('eth_chainId', [])).toBe('{"jsonrpc":"2.0","id":1,"result":"0xa868"}\n')
    expect(await call('eth_chainId')).toBe('{"jsonrpc":"2.0","id":1,"result":"0xa868"}\n')
    expect(await call('eth_chainId', null)).toBe('{"jsonrpc":"2.0","id":1,"result":"0xa868"}\n')
    expect(await call('test_noArgsRets', [], 'foo')).toBe('{"jsonrpc":"2.0","id":"foo","result":null}\n')
  })

  test('malformed JSON is a parse error, written without a newline', async () => {
    const parseError = '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}'
    expect(await http('{"jsonrpc":')).toBe(parseError)
    expect(await http("'f")).toBe(parseError)
    expect(await http('[1,')).toBe(parseError)
    expect(await http('1.')).toBe(parseError)
  })

  test('an empty or blank body gets no answer', async () => {
    expect(await http('')).toBeUndefined()
    expect(await http(' \r\n\t')).toBeUndefined()
  })

  test('only the first JSON value of a body is read', async () => {
    expect(await http('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"} trailing junk')).toBe(
      '{"jsonrpc":"2.0","id":1,"result":"0xa868"}\n',
    )
    expect(await http('[{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}]]')).toBe('[{"jsonrpc":"2.0","id":1,"result":"0xa868"}]\n')
    expect(parseJSONBody('1.5.3')).toEqual({ empty: false, value: 1.5 })
  })

  test('a message that is not a request is an invalid request', async () => {
    const invalid = (id: string) => `{"jsonrpc":"2.0","id":${id},"error":{"code":-32600,"message":"invalid request"}}\n`
    expect(await http('1')).toBe(invalid('null'))
    expect(await http('null')).toBe(invalid('null'))
    expect(await http('{"id":1}')).toBe(invalid('1'))
    expect(await http('{"jsonrpc":"2.0","id":1}')).toBe(invalid('1'))
    expect(await http('{"id":1,"method":"eth_chainId"}')).toBe(invalid('1'))
    expect(await http('{"jsonrpc":"2.1","id":1,"method":"eth_chainId"}')).toBe(invalid('1'))
    expect(await http('{"jsonrpc":2.0,"id":1,"method":"eth_chainId"}')).toBe(invalid('1'))
    expect(await http('{"jsonrpc":"2.0","id":1,"method":5}')).toBe(invalid('1'))
    expect(await http('{"id":[],"method":"eth_chainId"}')).toBe(invalid('null'))
    expect(await http('{"jsonrpc":"2.0","id":{},"method":"eth_chainId"}')).toBe(invalid('null'))
  })

  test('ids are echoed: string, number, null, bool', async () => {
    expect(await call('eth_chainId', [], 'abc')).toBe('{"jsonrpc":"2.0","id":"abc","result":"0xa868"}\n')
    expect(await call('eth_chainId', [], 7)).toBe('{"jsonrpc":"2.0","id":7,"result":"0xa868"}\n')
    expect(await call('eth_chainId', [], null)).toBe('{"jsonrpc":"2.0","id":null,"result":"0xa868"}\n')
    expect(await call('eth_chainId', [], true)).toBe('{"jsonrpc":"2.0","id":true,"result":"0xa868"}\n')
    expect(await call('eth_chainId', [], '<x>')).toBe('{"jsonrpc":"2.0","id":"\\u003cx\\u003e","result":"0xa868"}\n')
  })

  test('keys match case-insensitively and unknown keys are ignored', async () => {
    expect(await http('{"JSONRPC":"2.0","Id":3,"METHOD":"eth_chainId","extra":1}')).toBe(
      '{"jsonrpc":"2.0","id":3,"result":"0xa868"}\n',
    )
  })

  test('strings are escaped as Go escapes them', async () => {
    expect(await call('test_html', [])).toBe('{"jsonrpc":"2.0","id":1,"result":"\\u003cb\\u003e\\u0026\\u2028"}\n')
    // Each character alone, so none is found only because another one came first.
    for (const [c, escaped] of [['<', '\\u003c'], ['>', '\\u003e'], ['&', '\\u0026'], ['\u2028', '\\u2028'], ['\u2029', '\\u2029']])
      expect(await call('test_echo', [`a${c}b`, 0])).toBe(`{"jsonrpc":"2.0","id":1,"result":{"s":"a${escaped}b","n":0,"extra":null}}\n`)
  })

  test('an unknown method', async () => {
    expect(await call('eth_nope', [2, 3], 2)).toMatchInlineSnapshot(`
      "{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"the method eth_nope does not exist/is not available"}}
      "
    `)
    expect(await call('toString', [])).toContain('"message":"the method toString does not exist/is not available"')
    expect(await call('__proto__', [])).toContain('"code":-32601')
  })
})

describe('params', () => {
  test('a bad argument, a missing one, an extra one, named params', async () => {
    expect(await call('eth_getBalance', ['0x1234', 'latest'])).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"invalid argument 0: hex string has length 4, want 40 for common.Address"}}\n',
    )
    expect(await call('eth_getBalance', [SENDER, 'newest'])).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"invalid argument 1: hex string without 0x prefix"}}\n',
    )
    expect(await call('eth_getBalance', [SENDER])).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"missing value for required argument 1"}}\n',
    )
    expect(await call('eth_chainId', [1])).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"too many arguments, want at most 0"}}\n',
    )
    expect(await call('test_echo', { int: 23 }, 3)).toBe(
      '{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"non-array args"}}\n',
    )
    expect(await call('test_echo', ['x', 3, { S: 'foo' }])).toBe(
      '{"jsonrpc":"2.0","id":1,"result":{"s":"x","n":3,"extra":{"S":"foo"}}}\n',
    )
  })
})

describe('notifications', () => {
  test('a notification runs but is not answered', async () => {
    const ctx: Ctx = { calls: [] }
    expect(await http('{"jsonrpc":"2.0","method":"test_record","params":["n"]}', ctx)).toBeUndefined()
    expect(await http('{"jsonrpc":"2.0","method":"eth_nope"}', ctx)).toBeUndefined()
    expect(ctx.calls).toEqual(['n'])
  })

  test('a batch of notifications gets no answer', async () => {
    expect(await http('[{"jsonrpc":"2.0","method":"eth_chainId"},{"jsonrpc":"2.0","method":"eth_chainId"}]')).toBeUndefined()
  })

  test('responses and *_subscription notifications are dropped', async () => {
    const ctx: Ctx = { calls: [] }
    expect(await http('{"jsonrpc":"2.0","id":1,"result":"0x1"}', ctx)).toBeUndefined()
    expect(await http('{"jsonrpc":"2.0","method":"test_subscription","params":{}}', ctx)).toBeUndefined()
    expect(await http('[{"jsonrpc":"2.0","id":1,"error":{"code":1}}]', ctx)).toBeUndefined()
  })
})

describe('batches', () => {
  test('an empty batch is one unwrapped error, without a newline', async () => {
    expect(await http('[]')).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"empty batch"}}')
  })

  test('junk members are answered in place (geth testdata invalid-batch.js)', async () => {
    const body =
      '[{"jsonrpc":"2.0","id":1,"method":"test_echo","params":["foo",1]},55,{"jsonrpc":"2.0","id":2,"method":"unknown_method"},{"foo":"bar"},null]'
    expect(await http(body)).toBe(
      '[{"jsonrpc":"2.0","id":1,"result":{"s":"foo","n":1,"extra":null}},' +
        '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request"}},' +
        '{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"the method unknown_method does not exist/is not available"}},' +
        '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request"}},' +
        '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request"}}]\n',
    )
  })

  test('members run in order, one after another; notifications leave no trace', async () => {
    const ctx: Ctx = { calls: [] }
    const body = JSON.stringify([
      { jsonrpc: '2.0', id: 'a', method: 'test_record', params: ['1'] },
      { jsonrpc: '2.0', method: 'test_record', params: ['2'] },
      { jsonrpc: '2.0', id: 'c', method: 'test_record', params: ['3'] },
    ])
    expect(await http(body, ctx)).toBe('[{"jsonrpc":"2.0","id":"a","result":"1"},{"jsonrpc":"2.0","id":"c","result":"3"}]\n')
    expect(ctx.calls).toEqual(['1', '2', '3'])
  })

  test('too many members: one error naming the first call, without a newline', async () => {
    const small = createEthDispatcher<Ctx>({ methods, maxBatchSize: 2 })
    const note = { jsonrpc: '2.0', method: 'eth_chainId' }
    expect(await small.handle(JSON.stringify([note, note, note]), { calls: [] })).toBe(
      '[{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"batch too large"}}]',
    )
    expect(await small.handle(JSON.stringify([note, { ...note, id: 3 }, note]), { calls: [] })).toBe(
      '[{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"batch too large"}}]',
    )
  })

  test('results past the byte limit: the rest are answered with response too large', async () => {
    const small = createEthDispatcher<Ctx>({ methods, maxBatchResponseBytes: 10 })
    const sized = (id: number, n: number) => ({ jsonrpc: '2.0', id, method: 'test_sized', params: [n] })
    const body = JSON.stringify([sized(1, 4), sized(2, 6), { jsonrpc: '2.0', method: 'eth_chainId' }, sized(3, 1)])
    expect(await small.handle(body, { calls: [] })).toBe(
      '[{"jsonrpc":"2.0","id":1,"result":"xxxx"},{"jsonrpc":"2.0","id":2,"result":"xxxxxx"},' +
        '{"jsonrpc":"2.0","id":3,"error":{"code":-32003,"message":"response too large"}}]',
    )
  })
})

describe('errors from handlers', () => {
  const thrown = async (kind: string) => JSON.parse((await call('test_throw', [kind])) as string).error

  test('reverts: code 3 with the data, or -32000 without data', async () => {
    expect(await thrown('revert')).toEqual({
      code: 3,
      message: 'execution reverted: not owner',
      data: '0x08c379a0000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000000096e6f74206f776e65720000000000000000000000000000000000000000000000',
    })
    expect(await thrown('panic')).toEqual({
      code: 3,
      message: 'execution reverted: arithmetic underflow or overflow',
      data: `0x4e487b71${'11'.padStart(64, '0')}`,
    })
    expect(await thrown('customRevert')).toEqual({ code: 3, message: 'execution reverted', data: '0xdeadbeef' })
    expect(await thrown('emptyRevert')).toEqual({ code: -32000, message: 'execution reverted' })
  })

  test('transaction rejections carry geth messages', async () => {
    expect(await thrown('poolNonce')).toEqual({ code: -32000, message: 'nonce too low: next nonce 5, tx nonce 3' })
    expect(await thrown('callNonce')).toEqual({
      code: -32000,
      message: 'err: nonce too low: address 0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC, tx: 3 state: 5 (supplied gas 50000000)',
    })
    expect(await thrown('feeCap')).toEqual({
      code: -32000,
      message:
        'max fee per gas less than block base fee: address 0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC, maxFeePerGas: 1, baseFee: 25000000000',
    })
  })

  test('domain and unexpected errors', async () => {
    expect(await thrown('invalidParams')).toEqual({ code: -32602, message: 'bad things' })
    expect(await thrown('invalidArgument')).toEqual({ code: -32602, message: 'bad argument' })
    expect(await thrown('decode')).toEqual({ code: -32602, message: 'bad hex' })
    expect(await thrown('notFound')).toEqual({ code: -32000, message: 'header not found' })
    expect(await thrown('invalidState')).toEqual({ code: -32000, message: 'chain is busy' })
    expect(await thrown('ownCode')).toEqual({ code: -32001, message: 'snapshot 3 not found' })
    expect(await thrown('bug')).toEqual({ code: -32603, message: "Cannot read properties of undefined (reading 'x')" })
    expect(await thrown('string')).toEqual({ code: -32603, message: 'boom' })
  })

  test('big integers are written as bare JSON numbers, as Go writes a *big.Int', async () => {
    expect(await call('test_bigint', [])).toBe('{"jsonrpc":"2.0","id":1,"result":{"big":1180591620717411303424,"small":1}}\n')
  })

  test('a result JSON cannot hold is an internal error', async () => {
    expect(JSON.parse((await call('test_cyclic', []))!).error.code).toBe(-32603)
  })

  test('subscriptions over HTTP', async () => {
    expect(await call('eth_subscribe', [])).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"notifications not supported"}}\n',
    )
  })

  test('onError sees what handlers and params raised', async () => {
    const onError = vi.fn()
    const watched = createEthDispatcher<Ctx>({ methods, onError })
    await watched.handle('{"jsonrpc":"2.0","id":1,"method":"test_throw","params":["bug"]}', { calls: [] })
    await watched.handle('{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[1]}', { calls: [] })
    expect(onError.mock.calls.map(([err, info]) => [(err as Error).name, info.method])).toEqual([
      ['TypeError', 'test_throw'],
      ['InvalidParamsError', 'eth_chainId'],
    ])
  })
})

describe('WebSocket messages', () => {
  test('every frame ends with a newline and ctx reaches the handler', async () => {
    const ctx: Ctx = { calls: [] }
    expect(await dispatcher.handleMessage({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }, ctx)).toBe(
      '{"jsonrpc":"2.0","id":1,"result":"0xa868"}\n',
    )
    expect(ctx.calls).toEqual(['eth_chainId'])
    expect(await dispatcher.handleMessage([], ctx)).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"empty batch"}}\n')
    expect(await dispatcher.handleMessage({ jsonrpc: '2.0', method: 'eth_chainId' }, ctx)).toBeUndefined()
  })
})

describe('HTTP constants', () => {
  test('body limit and refusals as geth writes them', () => {
    expect(ETH_MAX_REQUEST_BYTES).toBe(5_242_880)
    expect(ETH_HTTP.requestTooLarge(6_000_000)).toEqual({ status: 413, body: 'content length too large (6000000>5242880)\n' })
    expect(ETH_HTTP.unsupportedMediaType).toEqual({ status: 415, body: 'invalid content type, only application/json is supported\n' })
  })
})
