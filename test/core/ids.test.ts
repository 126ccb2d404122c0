import { describe, expect, it } from 'vitest'
import { DecodeError, InvalidArgumentError } from '../../src/core/errors.js'
import {
  EMPTY_ID,
  EMPTY_NODE_ID,
  idFromString,
  idToString,
  nodeIdToString,
  parseNodeId,
  parseNodeIdJson,
  vmIdFromName,
} from '../../src/core/ids.js'
import { expectThrows } from '../helpers/expectThrows.js'


describe('ids', () => {
  it('EMPTY_ID is 32 zero bytes: the primary network subnet id and the P-chain id', () => {
    expect(idFromString(EMPTY_ID)).toEqual(new Uint8Array(32))
    expect(idToString(new Uint8Array(32))).toBe(EMPTY_ID)
    expect(EMPTY_ID).toBe('11111111111111111111111111111111LpoYY')
  })

  it('EMPTY_NODE_ID is 20 zero bytes', () => {
    expect(parseNodeId(EMPTY_NODE_ID)).toEqual(new Uint8Array(20))
    expect(nodeIdToString(new Uint8Array(20))).toBe(EMPTY_NODE_ID)
    expect(EMPTY_NODE_ID).toBe('NodeID-111111111111111111116DBWJs')
  })

  it.each([
    // X, C and AVAX asset ids of mainnet, fuji and local (genesis_test.go), and local's old C-chain id.
    '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM',
    '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5',
    'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z',
    '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm',
    'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp',
    'U8iRqJoiJm8xZHAacmvYyZVwqQx6uDNtQeP3CQ6fcgQk3JqnK',
    '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed',
    '2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC',
    '2CA6j5zYzasynPsFeNoqWkmTCt3VScMvXUZHbfDJ8k3oGzAPtU',
    '2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe',
  ])('well-known id %s decodes to 32 bytes and re-encodes identically', (id) => {
    const bytes = idFromString(id)
    expect(bytes).toHaveLength(32)
    expect(idToString(bytes)).toBe(id)
  })

  // The P-chain VM's alias is `platform` but its id pads the name `platformvm`
  // (constants.PlatformVMID = ids.ID{'p','l','a','t','f','o','r','m','v','m'}).
  it.each([
    ['platformvm', 'rWhpuQPF1kb72esV2momhMuTYGkEb1oL29pt2EBXWmSy4kxnT'],
    ['avm', 'jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq'],
    ['evm', 'mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6'],
    ['subnetevm', 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy'],
    ['xsvm', 'v3m4wPxaHpvGr8qfMeyK6PRW3idZrPHmYcMTt7oXdK47yurVH'],
    ['secp256k1fx', 'spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ'],
    ['nftfx', 'qd2U4HDWUvMrVUeTcCHp6xH3Qpnn1XbU5MDdnBoiifFqvgXwT'],
    ['propertyfx', 'rXJsCSEYXg2TehWxCEEGj6JU2PWKTkd6cBdNLjoe2SpsKD9cy'],
  ])('vmIdFromName(%s)', (name, id) => {
    expect(vmIdFromName(name)).toBe(id)
    const bytes = idFromString(id)
    expect(new TextDecoder().decode(bytes.subarray(0, name.length))).toBe(name)
    expect(bytes.subarray(name.length).every((b) => b === 0)).toBe(true)
  })

  it('the alias `platform` is not the name the platform VM id pads', () => {
    expect(vmIdFromName('platform')).not.toBe('rWhpuQPF1kb72esV2momhMuTYGkEb1oL29pt2EBXWmSy4kxnT')
  })

  it('rejects VM names that do not fit an id', () => {
    expectThrows(() => vmIdFromName('x'.repeat(33)), InvalidArgumentError, 'VM name must be at most 32 bytes but got 33')
    expectThrows(() => vmIdFromName('évm'), InvalidArgumentError, 'VM name must be ASCII: évm')
  })

  it('round-trips a node id', () => {
    const bytes = Uint8Array.from({ length: 20 }, (_, i) => i * 11)
    const str = nodeIdToString(bytes)
    expect(str.startsWith('NodeID-')).toBe(true)
    expect(parseNodeId(str)).toEqual(bytes)
    expect(parseNodeIdJson(str)).toEqual(bytes)
  })

  it('parses the node ids of the local genesis', () => {
    expect(parseNodeId('NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg')).toHaveLength(20)
    expect(nodeIdToString(parseNodeId('NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ'))).toBe(
      'NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ',
    )
  })

  it.each([
    ['7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg', 'ID: 7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg is missing the prefix: NodeID-'],
    ['nodeid-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg', 'ID: nodeid-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg is missing the prefix: NodeID-'],
    ['NodeID-', 'base58 decoding error: zero length string'],
    ['NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3L0', "base58 decoding error: Invalid base58 digit ('0')"],
    ['NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lh', 'invalid input checksum'],
    ['NodeID-11111111111111111111111111111111LpoYY', 'invalid hash length: expected 20 bytes but got 32'],
  ])('parseNodeId(%j) fails', (input, message) => {
    expectThrows(() => parseNodeId(input), DecodeError, message)
  })

  it('parseNodeIdJson reports short strings as Go JSON unmarshalling does', () => {
    expectThrows(() => parseNodeIdJson('NodeID-'), DecodeError, 'insufficient NodeID length: expected to be > 9')
    expectThrows(() => parseNodeIdJson(''), DecodeError, 'insufficient NodeID length: expected to be > 9')
    expectThrows(() => parseNodeIdJson('NodeID-1'), DecodeError, 'input string is smaller than the checksum size')
    expectThrows(() => parseNodeIdJson('abcdefgh'), DecodeError, 'ID: abcdefgh is missing the prefix: NodeID-')
  })

  it.each([
    ['', 'base58 decoding error: zero length string'],
    ['11111111111111111111111111111111LpoYZ', 'invalid input checksum'],
    ['6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV', 'invalid hash length: expected 32 bytes but got 20'],
    ['I1111111111111111111111111111111LpoYY', "base58 decoding error: Invalid base58 digit ('I')"],
  ])('idFromString(%j) fails', (input, message) => {
    expectThrows(() => idFromString(input), DecodeError, message)
  })

  it('refuses to format bytes of the wrong length', () => {
    expectThrows(() => idToString(new Uint8Array(20)), InvalidArgumentError, 'expected 32 bytes for an ID but got 20')
    expectThrows(() => nodeIdToString(new Uint8Array(32)), InvalidArgumentError, 'expected 20 bytes for a NodeID but got 32')
  })
})
