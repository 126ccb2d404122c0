import { secp256k1 } from '@noble/curves/secp256k1.js'
import { bech32, bech32m } from '@scure/base'
import { describe, expect, it } from 'vitest'
import { formatAddress, hrpForNetworkId, parseAddress, shortIdFromPublicKey } from '../../src/core/address.js'
import { cb58Encode } from '../../src/core/cb58.js'
import { DecodeError, InvalidArgumentError } from '../../src/core/errors.js'
import { bytesToHex, hexToBytes } from '../../src/core/hex.js'
import { expectThrows } from '../helpers/expectThrows.js'


// The ewoq key funded in avalanchego's local genesis (genesis/genesis_local.go).
const EWOQ_PRIVATE_KEY = hexToBytes('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027')
const EWOQ_SHORT_ID = '0x3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c'

describe('address', () => {
  const ewoq = shortIdFromPublicKey(secp256k1.getPublicKey(EWOQ_PRIVATE_KEY, true))

  it('derives the ewoq short id from its public key', () => {
    expect(bytesToHex(ewoq)).toBe(EWOQ_SHORT_ID)
    expect(cb58Encode(ewoq)).toBe('6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV')
    expect(`PrivateKey-${cb58Encode(EWOQ_PRIVATE_KEY)}`).toBe(
      'PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN',
    )
  })

  it.each([
    ['X', 1, 'X-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5'],
    ['X', 5, 'X-fuji18jma8ppw3nhx5r4ap8clazz0dps7rv5u6wmu4t'],
    ['X', 12345, 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u'],
    ['P', 99999, 'P-custom18jma8ppw3nhx5r4ap8clazz0dps7rv5u9xde7p'],
  ])('formats ewoq on %s of network %i as %s', (chain, networkId, expected) => {
    const hrp = hrpForNetworkId(networkId)
    expect(formatAddress(chain, hrp, ewoq)).toBe(expected)
    expect(parseAddress(expected)).toEqual({ chainAlias: chain, hrp, bytes: ewoq })
  })

  it.each([
    [1, 'avax'], [2, 'cascade'], [3, 'denali'], [4, 'everest'], [5, 'fuji'], [10, 'testing'],
    [12345, 'local'], [0, 'custom'], [6, 'custom'], [1337, 'custom'],
  ])('hrpForNetworkId(%i) = %s', (id, hrp) => {
    expect(hrpForNetworkId(id)).toBe(hrp)
  })

  it('splits at the first separator and accepts upper case as btcutil does', () => {
    expect(parseAddress('X-LOCAL18JMA8PPW3NHX5R4AP8CLAZZ0DPS7RV5U00Z96U')).toEqual({
      chainAlias: 'X', hrp: 'local', bytes: ewoq,
    })
    // A chain id as the alias, and an empty alias, both pass: resolving the alias is the caller's job.
    const id = '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed'
    expect(parseAddress(`${id}-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u`).chainAlias).toBe(id)
    expect(parseAddress('-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u').chainAlias).toBe('')
  })

  it('returns payloads of any length, as address.Parse does', () => {
    const tenBytes = Uint8Array.from({ length: 10 }, (_, i) => i + 1)
    expect(parseAddress(`X-${bech32.encode('local', bech32.toWords(tenBytes))}`).bytes).toEqual(tenBytes)
  })

  it('zero-pads a trailing partial byte like btcutil ConvertBits(…, true)', () => {
    // 31 words = 155 bits: @scure's fromWords rejects it, btcutil pads it to 20 bytes.
    const words = bech32.toWords(ewoq).slice(0, 31)
    const str = bech32.encode('local', words)
    expect(() => bech32.fromWords(words)).toThrow()
    const bytes = parseAddress(`X-${str}`).bytes
    expect(bytes).toHaveLength(20)
    expect(bytes.subarray(0, 19)).toEqual(ewoq.subarray(0, 19))
  })

  it.each([
    ['local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u', 'no separator found in address'],
    ['X-', 'invalid bech32 string length 0'],
    ['X-local1q', 'invalid bech32 string length 7'],
    [`X-local1${'q'.repeat(90)}`, 'invalid bech32 string length 96'],
    ['X-local1 8jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u', "invalid character in string: ' '"],
    ['X-Local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u', 'string not all lowercase or all uppercase'],
    ['X-local8jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u', 'invalid separator index -1'],
    ['X-18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u', 'invalid separator index 0'],
    ['X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z916', 'invalid separator index 42'],
    ['X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96b', 'invalid character not part of charset: 98'],
    [
      'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96v',
      'invalid checksum (expected (bech32=00z96u, bech32m=00z96u' + mChecksum('local', '8jma8ppw3nhx5r4ap8clazz0dps7rv5u') + '), got 00z96v)',
    ],
  ])('parseAddress(%j) fails', (input, message) => {
    expectThrows(() => parseAddress(input), DecodeError, message)
  })

  it('rejects keys that are not compressed secp256k1 and short ids of the wrong length', () => {
    const uncompressed = secp256k1.getPublicKey(EWOQ_PRIVATE_KEY, false)
    expectThrows(
      () => shortIdFromPublicKey(uncompressed),
      InvalidArgumentError,
      'expected a 33-byte compressed secp256k1 public key but got 65 bytes',
    )
    expectThrows(() => formatAddress('X', 'local', new Uint8Array(32)), InvalidArgumentError, 'expected 20 address bytes but got 32')
  })
})

/** The bech32m checksum btcutil also reports, computed independently of the code under test. */
function mChecksum(hrp: string, data: string): string {
  const charset = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'
  return bech32m.encode(hrp, [...data].map((c) => charset.indexOf(c))).slice(-6)
}
