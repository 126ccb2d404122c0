import { describe, expect, test } from 'vitest'
import { EMPTY_ID, EMPTY_NODE_ID } from '../../../src/core/ids.js'
import { decodeGoJson } from '../../../src/rpc/node/goJson.js'
import {
  array,
  bool,
  cb58Id,
  noParams,
  nodeId,
  nodeIdArray,
  objectParams,
  optional,
  str,
  strArray,
  struct,
  uint32,
  uint64,
} from '../../../src/rpc/node/params.js'
import { NodeArgumentError } from '../../../src/rpc/node/types.js'

const NODE_ID = 'NodeID-6L5yRNPTuciSgXGHqYwn9N6NeoKMvqvy'
const ID = 'SkB92YpWm4Q2ijQHH34cqbKkCZWszsiQgHVjtNeFF2HdvDQU'

/** Params as the dispatcher hands them over: parsed by the Go-style reader, raw texts kept. */
const wire = (json: string): unknown => decodeGoJson(json).value

const params = objectParams({
  name: str,
  flag: bool,
  amount: uint64,
  weight: uint32,
  node: nodeId,
  id: cb58Id,
  tags: strArray,
  nodes: nodeIdArray,
  level: optional(str),
  inner: struct({ x: str }),
})

const ZERO = {
  name: '',
  flag: false,
  amount: 0n,
  weight: 0,
  node: EMPTY_NODE_ID,
  id: EMPTY_ID,
  tags: [],
  nodes: [],
  level: undefined,
  inner: { x: '' },
}

describe('objectParams', () => {
  test('absent, null, [] and [null] give the zero values', () => {
    for (const raw of [undefined, null, [], [null], wire('[]'), wire('[null, 5]')]) expect(params(raw)).toEqual(ZERO)
  })

  test('an object or [object] decode every field, case-insensitively, ignoring unknown fields', () => {
    const json = `{"NAME":"n","flag":true,"amount":"18446744073709551615","Weight":4294967295,"node":"${NODE_ID}","ID":"${ID}",
      "tags":["a","b"],"nodes":["${NODE_ID}",null],"level":"debug","inner":{"X":"y"},"other":{"deep":[1]}}`
    const expected = {
      name: 'n',
      flag: true,
      amount: 2n ** 64n - 1n,
      weight: 2 ** 32 - 1,
      node: NODE_ID,
      id: ID,
      tags: ['a', 'b'],
      nodes: [NODE_ID, EMPTY_NODE_ID],
      level: 'debug',
      inner: { x: 'y' },
    }
    expect(params(wire(json))).toEqual(expected)
    expect(params(wire(`[${json}, "ignored"]`))).toEqual(expected)
  })

  test('members apply in order: the last repeated key wins, null keeps a value or unsets a pointer', () => {
    expect(params(wire('{"name":"a","Name":"b","NAME":null,"level":"x","level":null,"flag":true,"flag":null}'))).toEqual({
      ...ZERO,
      name: 'b',
      flag: true,
    })
    expect(params(wire('{"tags":["a","b"],"tags":[null]}')).tags).toEqual(['a'])
    expect(params(wire('{"tags":["a"],"tags":null}')).tags).toEqual([])
  })

  test('bare numbers are exact (raw text), quoted ones too', () => {
    expect(params(wire('{"amount":12345678901234567891}')).amount).toBe(12345678901234567891n)
    expect(params(wire('{"amount":"0"}')).amount).toBe(0n)
    expect(params(wire('{"amount":null}')).amount).toBe(0n)
  })

  test.each([
    '5',
    '"x"',
    'true',
    '[5]',
    '[[]]',
    '{"name":5}',
    '{"name":["a"]}',
    '{"flag":"true"}',
    '{"flag":1}',
    '{"amount":1.0}',
    '{"amount":1e3}',
    '{"amount":-1}',
    '{"amount":"+1"}',
    '{"amount":""}',
    '{"amount":18446744073709551616}',
    '{"amount":"1\\u0030"}',
    '{"weight":4294967296}',
    '{"node":"NodeID-"}',
    '{"node":"6L5yRNPTuciSgXGHqYwn9N6NeoKMvqvy"}',
    '{"node":"NodeID-6L5yRNPTuciSgXGHqYwn9N6NeoKMvqvz"}',
    '{"node":"\\u004eodeID-6L5yRNPTuciSgXGHqYwn9N6NeoKMvqvy"}',
    '{"node":12345678901}',
    `{"id":"${ID}x"}`,
    `{"id":"${NODE_ID}"}`,
    '{"id":5}',
    '{"tags":"a"}',
    '{"tags":[1]}',
    '{"nodes":["NodeID-x"]}',
    '{"level":5}',
    '{"inner":"x"}',
    '{"inner":{"x":1}}',
  ])('%s → NodeArgumentError', (json) => {
    expect(() => params(wire(json))).toThrow(NodeArgumentError)
  })

  test('plain JS values (no raw text) decode by value', () => {
    expect(params({ name: 'n', amount: 5, weight: '7', node: NODE_ID, id: ID, tags: ['t'], level: null })).toEqual({
      ...ZERO,
      name: 'n',
      amount: 5n,
      weight: 7,
      node: NODE_ID,
      id: ID,
      tags: ['t'],
    })
    expect(params([{ amount: 10n }]).amount).toBe(10n)
    for (const bad of [{ amount: 1.5 }, { amount: -1 }, { node: 'x' }, { id: 5 }, 'x', 5, true]) {
      expect(() => params(bad)).toThrow(NodeArgumentError)
    }
  })

  test('the generic message is what the error says on the wire', () => {
    try {
      params(wire('{"name":5}'))
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(NodeArgumentError)
      expect((error as NodeArgumentError).shortMessage).toBe(
        "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls",
      )
      expect((error as NodeArgumentError).code).toBe(-32000)
    }
  })

  test('noParams accepts objects, arrays of an object or null, and nothing', () => {
    for (const ok of [undefined, null, {}, { a: 1 }, [], [null], [{}, 2]]) expect(noParams(ok)).toEqual({})
    for (const bad of [1, 'x', [1], [[]], false]) expect(() => noParams(bad)).toThrow(NodeArgumentError)
  })

  test('array() of a custom decoder; optional() of a struct', () => {
    const p = objectParams({ list: array(uint32), maybe: optional(struct({ a: bool })) })
    expect(p(wire('{"list":[1,"2",null],"maybe":{"a":true}}'))).toEqual({ list: [1, 2, 0], maybe: { a: true } })
    expect(p(wire('{"maybe":null}'))).toEqual({ list: [], maybe: undefined })
    expect(p(wire('{"maybe":{}}'))).toEqual({ list: [], maybe: { a: false } })
  })
})
