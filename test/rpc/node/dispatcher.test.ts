import { describe, expect, test, vi } from 'vitest'
import { InvalidStateError, NotFoundError } from '../../../src/core/errors.js'
import { createNodeDispatcher, type NodeDispatcherOptions } from '../../../src/rpc/node/dispatcher.js'
import { noParams, nodeId, objectParams, optional, str, uint64 } from '../../../src/rpc/node/params.js'
import { defineNodeMethod, INVALID_ARGUMENT_MESSAGE, NodeArgumentError, NodeRpcError, type NodeService } from '../../../src/rpc/node/types.js'

type Ctx = { calls: string[] }

const NODE_ID = 'NodeID-6L5yRNPTuciSgXGHqYwn9N6NeoKMvqvy'

const admin: NodeService<Ctx> = {
  alias: defineNodeMethod(objectParams({ endpoint: str, alias: str }), (p, ctx: Ctx) => {
    ctx.calls.push(`alias ${p.endpoint} ${p.alias}`)
    return {}
  }),
  getChainAliases: defineNodeMethod(objectParams({ chain: str }), (p) => ({ aliases: [p.chain, `bc/${p.chain}`] })),
  echo: defineNodeMethod(
    objectParams({ text: str, amount: optional(uint64), nodeID: optional(nodeId) }),
    (p) => ({ text: p.text, amount: p.amount ?? null, nodeID: p.nodeID ?? null }),
  ),
  raw: defineNodeMethod((raw) => raw, (raw) => ({ raw: raw === undefined ? 'absent' : raw })),
  result: defineNodeMethod(noParams, () => ({ z: 1, a: 'x<y>&z\u2028', big: 2n ** 70n, nested: { b: [1n, null, true] }, gone: undefined })),
  nothing: defineNodeMethod(noParams, () => undefined),
  fail: defineNodeMethod(objectParams({ kind: str }), (p) => {
    switch (p.kind) {
      case 'node':
        throw new NodeRpcError('chain is not bootstrapped', { details: 'not on the wire' })
      case 'base':
        throw new NotFoundError('alias not found', { details: 'hidden' })
      case 'state':
        throw new InvalidStateError('a <b> & c')
      case 'plain':
        throw new TypeError('plain failure')
      default:
        throw 'a string'
    }
  }),
  badParams: defineNodeMethod(
    (): unknown => {
      throw new RangeError('a decoder bug')
    },
    () => 'never',
  ),
}

const health: NodeService<Ctx> = {
  health: defineNodeMethod(noParams, () => ({ healthy: true })),
}

function setup(extra: Partial<NodeDispatcherOptions<Ctx>> = {}) {
  const ctx: Ctx = { calls: [] }
  const dispatcher = createNodeDispatcher<Ctx>({ services: { admin, health }, ...extra })
  const call = async (body: string) => (await dispatcher.handle(body, ctx)).body
  return { ctx, dispatcher, call }
}

const EMPTY_REQUEST = '{"jsonrpc":"","method":"","params":null,"id":null}'
const parseError = (message: string, data = EMPTY_REQUEST, id = 'null') =>
  `{"jsonrpc":"2.0","error":{"code":-32700,"message":${JSON.stringify(message)},"data":${data}},"id":${id}}\n`
const serverError = (message: string, id = '1') => `{"jsonrpc":"2.0","error":{"code":-32000,"message":${JSON.stringify(message)},"data":null},"id":${id}}\n`
const request = (method: string, rest = '"id":1') => `{"jsonrpc":"2.0",${rest},"method":${JSON.stringify(method)}}`

describe('node-api.md §2 worked examples', () => {
  test('an unknown method is -32000 with the converted name', async () => {
    const { call } = setup()
    expect(await call('{"jsonrpc":"2.0","id":1,"method":"admin.nope"}')).toBe(
      '{"jsonrpc":"2.0","error":{"code":-32000,"message":"rpc: can\'t find method \\"admin.Nope\\"","data":null},"id":1}\n',
    )
  })

  test('a wrong version is -32600 echoing the request', async () => {
    const { call, ctx } = setup()
    expect(await call('{"jsonrpc":"1.0","id":7,"method":"admin.alias","params":{}}')).toBe(
      '{"jsonrpc":"2.0","error":{"code":-32600,"message":"jsonrpc must be 2.0","data":{"jsonrpc":"1.0","method":"admin.alias","params":{},"id":7}},"id":7}\n',
    )
    expect(ctx.calls).toEqual([])
  })

  test('a batch is a -32700 parse error with id null', async () => {
    const { call } = setup()
    expect(await call('[{"jsonrpc":"2.0","id":1,"method":"admin.getChainAliases"}]')).toBe(
      '{"jsonrpc":"2.0","error":{"code":-32700,"message":"json: cannot unmarshal array into Go value of type json2.serverRequest","data":{"jsonrpc":"","method":"","params":null,"id":null}},"id":null}\n',
    )
  })
})

describe('decoding the request (json2 newCodecRequest)', () => {
  test.each([
    ['', 'EOF'],
    [' \r\n\t ', 'EOF'],
    ['{bad', "invalid character 'b' looking for beginning of object key string"],
    ['{"jsonrpc":"2.0"', 'unexpected EOF'],
    ['{"jsonrpc":"2.0","id":1,', 'unexpected EOF'],
    ['{', 'unexpected EOF'],
    ['"abc', 'unexpected EOF'],
    ['-', 'unexpected EOF'],
    ['1.', 'unexpected EOF'],
    ['{"a":nul', 'unexpected EOF'],
    ['[1,2]', 'json: cannot unmarshal array into Go value of type json2.serverRequest'],
    ['123', 'json: cannot unmarshal number into Go value of type json2.serverRequest'],
    ['-1.5e3x', 'json: cannot unmarshal number into Go value of type json2.serverRequest'],
    ['"x"', 'json: cannot unmarshal string into Go value of type json2.serverRequest'],
    ['true', 'json: cannot unmarshal bool into Go value of type json2.serverRequest'],
    ['falsey', 'json: cannot unmarshal bool into Go value of type json2.serverRequest'],
    ['}', "invalid character '}' looking for beginning of value"],
    ['x', "invalid character 'x' looking for beginning of value"],
    ["'a'", "invalid character '\\'' looking for beginning of value"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 2}', "invalid character '2' after object key:value pair"],
    ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
    ['{"a":[1 2]}', "invalid character '2' after array element"],
    ['{"a":[1,]}', "invalid character ']' looking for beginning of value"],
    ['{"a":tru}', "invalid character '}' in literal true (expecting 'e')"],
    ['{"a":fx}', "invalid character 'x' in literal false (expecting 'a')"],
    ['{"a":nUll}', "invalid character 'U' in literal null (expecting 'u')"],
    ['{"a":-}', "invalid character '}' in numeric literal"],
    ['{"a":01}', "invalid character '1' after object key:value pair"],
    ['{"a":1.}', "invalid character '}' after decimal point in numeric literal"],
    ['{"a":1e}', "invalid character '}' in exponent of numeric literal"],
    ['{"a":1e+}', "invalid character '}' in exponent of numeric literal"],
    ['{"a":"\\x"}', "invalid character 'x' in string escape code"],
    ['{"a":"\\u12g4"}', "invalid character 'g' in \\u hexadecimal character escape"],
    ['{"a":"\u0001"}', "invalid character '\\x01' in string literal"],
    ['{"a":"\n"}', "invalid character '\\n' in string literal"],
    ['{"a":"\t"}', "invalid character '\\t' in string literal"],
    ['{é', "invalid character 'Ã' looking for beginning of object key string"],
    ['\ufeff{}', "invalid character 'ï' looking for beginning of value"],
    ['{"a":"b"', 'unexpected EOF'],
    ['{"x":"<&>"', 'unexpected EOF'],
  ])('%j → -32700 %j', async (body, message) => {
    const { call } = setup()
    expect(await call(body)).toBe(parseError(message))
  })

  test('a syntax error anywhere wins over the fields before it', async () => {
    const { call } = setup()
    expect(await call('{"jsonrpc":"2.0","id":5,"method":"admin.alias","params":{"a":[1,}}')).toBe(
      parseError("invalid character '}' looking for beginning of value"),
    )
  })

  test('nesting deeper than 10000 is refused, 10000 is not', async () => {
    const { call } = setup()
    expect(await call('['.repeat(10001))).toBe(parseError("invalid character '[' exceeded max depth"))
    expect(await call(`{"a":${'['.repeat(9999)}${']'.repeat(9999)},"jsonrpc":"2.0","id":1,"method":"health.health"}`)).toBe(
      '{"jsonrpc":"2.0","result":{"healthy":true},"id":1}\n',
    )
  })

  test('a field of the wrong type is -32700 after the other fields decoded, answered with their id', async () => {
    const { call, ctx } = setup()
    expect(await call('{"jsonrpc":2,"id":[1, 2],"method":"admin.alias","params": {"b" : "<"}}')).toBe(
      parseError(
        'json: cannot unmarshal number into Go struct field serverRequest.jsonrpc of type string',
        '{"jsonrpc":"","method":"admin.alias","params":{"b":"\\u003c"},"id":[1,2]}',
        '[1,2]',
      ),
    )
    expect(await call('{"jsonrpc":"2.0","method":{"a":1},"id":3}')).toBe(
      parseError('json: cannot unmarshal object into Go struct field serverRequest.method of type string', '{"jsonrpc":"2.0","method":"","params":null,"id":3}', '3'),
    )
    // The first type error is reported; a parse error is answered even without an id.
    expect(await call('{"method":true,"jsonrpc":["2.0"]}')).toBe(
      parseError('json: cannot unmarshal bool into Go struct field serverRequest.method of type string'),
    )
    expect(ctx.calls).toEqual([])
  })

  test('anything after the first value is ignored', async () => {
    const { call } = setup()
    expect(await call('{"jsonrpc":"2.0","id":1,"method":"health.health"} {"jsonrpc":"2.0"} garbage')).toBe(
      '{"jsonrpc":"2.0","result":{"healthy":true},"id":1}\n',
    )
    expect(await call('  {"jsonrpc":"2.0","id":1,"method":"health.health"}}')).toBe('{"jsonrpc":"2.0","result":{"healthy":true},"id":1}\n')
  })

  test('jsonrpc other than "2.0" (missing, null, "2") is -32600; data echoes params and id compacted and escaped', async () => {
    const { call } = setup()
    expect(await call('{"id":1,"method":"health.health"}')).toBe(
      '{"jsonrpc":"2.0","error":{"code":-32600,"message":"jsonrpc must be 2.0","data":{"jsonrpc":"","method":"health.health","params":null,"id":1}},"id":1}\n',
    )
    expect(await call('{"jsonrpc":null,"id":"x","method":"a<b"}')).toBe(
      '{"jsonrpc":"2.0","error":{"code":-32600,"message":"jsonrpc must be 2.0","data":{"jsonrpc":"","method":"a\\u003cb","params":null,"id":"x"}},"id":"x"}\n',
    )
    expect(await call('{"jsonrpc":"2","id": 1.0 ,"method":"admin.alias","params":[ { "endpoint" : "<&>" } , 2 ]}')).toBe(
      '{"jsonrpc":"2.0","error":{"code":-32600,"message":"jsonrpc must be 2.0","data":{"jsonrpc":"2","method":"admin.alias","params":[{"endpoint":"\\u003c\\u0026\\u003e"},2],"id":1.0}},"id":1.0}\n',
    )
  })

  test('a version error without an id is not answered; `null` as the body is one', async () => {
    const { call } = setup()
    expect(await call('{"jsonrpc":"1.0","method":"health.health"}')).toBe('')
    expect(await call('null')).toBe('')
    expect(await call('{}')).toBe('')
  })

  test('field names match case-insensitively (Go folding); a repeated key: the last value wins, null keeps a string', async () => {
    const { call } = setup()
    expect(await call('{"JSONRPC":"2.0","Method":"health.health","ID":4}')).toBe('{"jsonrpc":"2.0","result":{"healthy":true},"id":4}\n')
    expect(await call('{"jſonrpc":"2.0","method":"health.health","\u212Aid":1,"id":5}')).toBe('{"jsonrpc":"2.0","result":{"healthy":true},"id":5}\n')
    expect(await call('{"jsonrpc":"1.0","jsonrpc":"2.0","jsonrpc":null,"method":"admin.nope","method":"health.health","id":1,"Id":2}')).toBe(
      '{"jsonrpc":"2.0","result":{"healthy":true},"id":2}\n',
    )
    // A null id after a real one makes the call a notification.
    expect(await call('{"jsonrpc":"2.0","method":"health.health","id":1,"id":null}')).toBe('')
  })
})

describe('ids', () => {
  test.each([
    ['1', '1'],
    ['1.0', '1.0'],
    ['-0', '-0'],
    ['1e3', '1e3'],
    ['12345678901234567890123', '12345678901234567890123'],
    [' 7 ', '7'],
    ['"a"', '"a"'],
    ['"<a&b>"', '"\\u003ca\\u0026b\\u003e"'],
    ['"\\u0041\\/"', '"\\u0041\\/"'],
    ['"\u2028"', '"\\u2028"'],
    ['"a b"', '"a b"'],
    ['{ "k" : [ 1 , "x y" ] }', '{"k":[1,"x y"]}'],
    ['[]', '[]'],
    ['true', 'true'],
    ['false', 'false'],
  ])('id %s is echoed as %s', async (id, echoed) => {
    const { call } = setup()
    expect(await call(`{"jsonrpc":"2.0","id":${id},"method":"health.health"}`)).toBe(`{"jsonrpc":"2.0","result":{"healthy":true},"id":${echoed}}\n`)
    expect(await call(`{"jsonrpc":"2.0","id":${id},"method":"admin.nope"}`)).toBe(serverError('rpc: can\'t find method "admin.Nope"', echoed))
  })
})

describe('method names (avalanchego codec Method, gorilla serviceMap.get)', () => {
  test.each([
    ['admin.Alias', 'method must start with a non-uppercase letter'],
    ['admin.Éx', 'method must start with a non-uppercase letter'],
    ['admin.nope', 'rpc: can\'t find method "admin.Nope"'],
    ['admin.éx', 'rpc: can\'t find method "admin.Éx"'],
    ['admin.1x', 'rpc: can\'t find method "admin.1x"'],
    ['admin._alias', 'rpc: can\'t find method "admin._alias"'],
    ['admin.', 'rpc: can\'t find method "admin."'],
    ['admin', 'rpc: service/method request ill-formed: "admin"'],
    ['', 'rpc: service/method request ill-formed: ""'],
    ['a.b.c', 'rpc: service/method request ill-formed: "a.B.c"'],
    ['admin.alias.x', 'rpc: service/method request ill-formed: "admin.Alias.x"'],
    ['.alias', 'rpc: can\'t find service ".Alias"'],
    ['foo.bar', 'rpc: can\'t find service "foo.Bar"'],
    ['Admin.alias', 'rpc: can\'t find service "Admin.Alias"'],
    ['ADMIN.alias', 'rpc: can\'t find service "ADMIN.Alias"'],
    ['foo."x\n\u0001\u00a0é', 'rpc: can\'t find service "foo.\\"x\\n\\x01\\u00a0é"'],
  ])('%j → %j', async (method, message) => {
    const { call } = setup()
    expect(await call(request(method))).toBe(serverError(message))
  })

  test('the HTML in a message is escaped on the wire', async () => {
    const { call } = setup()
    expect(await call(request('x.<b>'))).toBe(
      '{"jsonrpc":"2.0","error":{"code":-32000,"message":"rpc: can\'t find service \\"x.\\u003cb\\u003e\\"","data":null},"id":1}\n',
    )
  })

  test('lower-case wire names reach their methods', async () => {
    const { call, ctx } = setup()
    expect(await call('{"jsonrpc":"2.0","id":1,"method":"admin.alias","params":{"endpoint":"bc/X","alias":"x"}}')).toBe(
      '{"jsonrpc":"2.0","result":{},"id":1}\n',
    )
    expect(ctx.calls).toEqual(['alias bc/X x'])
  })

  test('lookup errors are not answered for a notification', async () => {
    const { call } = setup()
    expect(await call('{"jsonrpc":"2.0","method":"admin.nope"}')).toBe('')
    expect(await call('{"jsonrpc":"2.0","method":"admin.Alias","id":null}')).toBe('')
    expect(await call('{"jsonrpc":"2.0","method":"admin"}')).toBe('')
  })
})

describe('params (json2 ReadRequest + avalanchego codec)', () => {
  const chainAliases = (params: string) => `{"jsonrpc":"2.0","id":1,"method":"admin.getChainAliases"${params}}`

  test.each([
    [',"params":{"chain":"X"}', '["X","bc/X"]'],
    [',"params":{"Chain":"X","unknown":[1,{"a":2}]}', '["X","bc/X"]'],
    [',"params":{"CHAIN":"X","chain":"Y"}', '["Y","bc/Y"]'],
    [',"params":{"chain":"X","chain":null}', '["X","bc/X"]'],
    [',"params":[{"chain":"X"}]', '["X","bc/X"]'],
    [',"params":[{"chain":"X"},5,"extra"]', '["X","bc/X"]'],
    [',"params":[]', '["","bc/"]'],
    [',"params":[null]', '["","bc/"]'],
    [',"params":{}', '["","bc/"]'],
    [',"params":null', '["","bc/"]'],
    ['', '["","bc/"]'],
    [',"params":{"chain":"\\u003c\\ud800"}', '["\\u003c\ufffd","bc/\\u003c\ufffd"]'],
  ])('params%s decode', async (params, aliases) => {
    const { call } = setup()
    expect(await call(chainAliases(params))).toBe(`{"jsonrpc":"2.0","result":{"aliases":${aliases}},"id":1}\n`)
  })

  test.each([
    ',"params":5',
    ',"params":"X"',
    ',"params":true',
    ',"params":{"chain":5}',
    ',"params":{"chain":["X"]}',
    ',"params":{"chain":true}',
    ',"params":[5]',
    ',"params":["X"]',
    ',"params":[[{"chain":"X"}]]',
    ',"params":[{"chain":1}]',
  ])('params%s → the generic argument error', async (params) => {
    const { call } = setup()
    expect(await call(chainAliases(params))).toBe(serverError(INVALID_ARGUMENT_MESSAGE))
    expect(INVALID_ARGUMENT_MESSAGE).toBe(
      "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls",
    )
  })

  test('methods without args still want an object, an array or nothing', async () => {
    const { call } = setup()
    const healthCall = (params: string) => `{"jsonrpc":"2.0","id":1,"method":"health.health"${params}}`
    for (const ok of ['', ',"params":{}', ',"params":{"x":1}', ',"params":[]', ',"params":[{},1]', ',"params":[null]', ',"params":null']) {
      expect(await call(healthCall(ok))).toBe('{"jsonrpc":"2.0","result":{"healthy":true},"id":1}\n')
    }
    for (const bad of [',"params":1', ',"params":[1]', ',"params":"{}"', ',"params":[[]]']) {
      expect(await call(healthCall(bad))).toBe(serverError(INVALID_ARGUMENT_MESSAGE))
    }
  })

  test('numbers and ids are checked on their raw text', async () => {
    const { call } = setup()
    const echo = (params: string) => call(`{"jsonrpc":"2.0","id":1,"method":"admin.echo","params":${params}}`)
    expect(await echo('{"text":"t","amount":18446744073709551615}')).toBe(
      '{"jsonrpc":"2.0","result":{"text":"t","amount":18446744073709551615,"nodeID":null},"id":1}\n',
    )
    expect(await echo(`{"amount":"12","nodeID":"${NODE_ID}"}`)).toBe(`{"jsonrpc":"2.0","result":{"text":"","amount":12,"nodeID":"${NODE_ID}"},"id":1}\n`)
    expect(await echo('{"amount":null,"nodeID":null}')).toBe('{"jsonrpc":"2.0","result":{"text":"","amount":null,"nodeID":null},"id":1}\n')
    for (const bad of ['1.0', '1e2', '-1', '"0x10"', '18446744073709551616', '"1\\u0032"', '" 1"', 'true', '[1]']) {
      expect(await echo(`{"amount":${bad}}`)).toBe(serverError(INVALID_ARGUMENT_MESSAGE))
    }
    for (const bad of ['"NodeID-"', '"6L5yRNPTuciSgXGHqYwn9N6NeoKMvqvy"', '"NodeID-6L5yRNPTuciSgXGHqYwn9N6NeoKMvqvz"', `"${NODE_ID.replace('N', '\\u004e')}"`, '5']) {
      expect(await echo(`{"nodeID":${bad}}`)).toBe(serverError(INVALID_ARGUMENT_MESSAGE))
    }
  })

  test('a method’s decoder sees undefined for absent or null params, else the value', async () => {
    const { call } = setup()
    const raw = (params: string) => call(`{"jsonrpc":"2.0","id":1,"method":"admin.raw"${params}}`)
    expect(await raw('')).toBe('{"jsonrpc":"2.0","result":{"raw":"absent"},"id":1}\n')
    expect(await raw(',"params":null')).toBe('{"jsonrpc":"2.0","result":{"raw":"absent"},"id":1}\n')
    expect(await raw(',"params":[1,"<",{"b":2,"a":1}]')).toBe('{"jsonrpc":"2.0","result":{"raw":[1,"\\u003c",{"b":2,"a":1}]},"id":1}\n')
    expect(await raw(',"params":"s"')).toBe('{"jsonrpc":"2.0","result":{"raw":"s"},"id":1}\n')
  })

  test('any error from a params decoder is the generic message, reported to onError; the handler does not run', async () => {
    const onError = vi.fn()
    const { dispatcher, ctx } = setup({ onError })
    const answer = await dispatcher.handle('{"jsonrpc":"2.0","id":1,"method":"admin.badParams","params":{"a":1}}', ctx)
    expect(answer).toEqual({ body: serverError(INVALID_ARGUMENT_MESSAGE), nosniff: false })
    expect(onError).toHaveBeenCalledTimes(1)
    expect(onError.mock.calls[0]![0]).toBeInstanceOf(RangeError)
    expect(onError.mock.calls[0]![1]).toEqual({ method: 'admin.BadParams', params: { a: 1 } })
    const argument = await dispatcher.handle('{"jsonrpc":"2.0","id":1,"method":"admin.alias","params":{"alias":1}}', ctx)
    expect(argument.body).toBe(serverError(INVALID_ARGUMENT_MESSAGE))
    expect(onError.mock.calls[1]![0]).toBeInstanceOf(NodeArgumentError)
    expect(ctx.calls).toEqual([])
  })
})

describe('results and handler errors', () => {
  test('results keep their key order; HTML and U+2028 escaped, bigints bare, undefined members dropped', async () => {
    const { dispatcher, ctx } = setup()
    expect(await dispatcher.handle(request('admin.result', '"id":"r"'), ctx)).toEqual({
      body: '{"jsonrpc":"2.0","result":{"z":1,"a":"x\\u003cy\\u003e\\u0026z\\u2028","big":1180591620717411303424,"nested":{"b":[1,null,true]}},"id":"r"}\n',
      nosniff: true,
    })
  })

  test('a handler returning nothing gives result null', async () => {
    const { call } = setup()
    expect(await call(request('admin.nothing'))).toBe('{"jsonrpc":"2.0","result":null,"id":1}\n')
  })

  test.each([
    ['node', 'chain is not bootstrapped'],
    ['base', 'alias not found'],
    ['state', 'a \\u003cb\\u003e \\u0026 c'],
    ['plain', 'plain failure'],
    ['other', 'a string'],
  ])('a %s error is -32000 with its short message', async (kind, wireMessage) => {
    const onError = vi.fn()
    const { dispatcher, ctx } = setup({ onError })
    const answer = await dispatcher.handle(`{"jsonrpc":"2.0","id":9,"method":"admin.fail","params":{"kind":"${kind}"}}`, ctx)
    expect(answer).toEqual({ body: `{"jsonrpc":"2.0","error":{"code":-32000,"message":"${wireMessage}","data":null},"id":9}\n`, nosniff: true })
    expect(onError).toHaveBeenCalledTimes(1)
  })

  test('notifications run but get an empty body, error or not; nosniff only once the method ran', async () => {
    const { dispatcher, ctx } = setup()
    expect(await dispatcher.handle('{"jsonrpc":"2.0","method":"admin.alias","params":{"alias":"a"}}', ctx)).toEqual({ body: '', nosniff: true })
    expect(await dispatcher.handle('{"jsonrpc":"2.0","method":"admin.alias","params":{"alias":"b"},"id":null}', ctx)).toEqual({ body: '', nosniff: true })
    expect(await dispatcher.handle('{"jsonrpc":"2.0","method":"admin.fail","params":{"kind":"node"}}', ctx)).toEqual({ body: '', nosniff: true })
    expect(await dispatcher.handle('{"jsonrpc":"2.0","method":"admin.alias","params":5}', ctx)).toEqual({ body: '', nosniff: false })
    expect(await dispatcher.handle('{"method":"admin.alias"', ctx)).toEqual({ body: parseError('unexpected EOF'), nosniff: false })
    expect(ctx.calls).toEqual(['alias  a', 'alias  b'])
  })
})
