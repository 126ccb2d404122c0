import { describe, expect, it } from 'vitest'
import { formatGoDuration, formatRFC3339Nano, GO_ZERO_TIME, secondsToNanos } from '../../src/network/goTime.js'

const ns = 1n
const us = 1_000n * ns
const ms = 1_000n * us
const s = 1_000n * ms
const min = 60n * s
const h = 60n * min

describe('formatGoDuration', () => {
  // Go's time_test.go durationTests, plus the forms the health API shows.
  it.each([
    ['0s', 0n],
    ['1ns', 1n * ns],
    ['1.1µs', 1100n * ns],
    ['2.2ms', 2200n * us],
    ['3.3s', 3300n * ms],
    ['4m5s', 4n * min + 5n * s],
    ['4m5.001s', 4n * min + 5001n * ms],
    ['5h6m7.001s', 5n * h + 6n * min + 7001n * ms],
    ['8m0.000000001s', 8n * min + 1n * ns],
    ['2562047h47m16.854775807s', 9223372036854775807n],
    ['-2562047h47m16.854775808s', -9223372036854775808n],
    ['1.5s', 1500n * ms],
    ['293.098ms', 293098n * us],
    ['1m0s', min],
    ['1h0m0s', h],
    ['1h2m3s', h + 2n * min + 3n * s],
    ['30s', 30n * s],
    ['5m0s', 5n * min],
    ['999ns', 999n],
    ['1µs', us],
    ['-1.5s', -1500n * ms],
  ])('%s', (expected, value) => {
    expect(formatGoDuration(value)).toBe(expected)
  })

  it('takes plain numbers of nanoseconds too', () => {
    expect(formatGoDuration(20375)).toBe('20.375µs')
    expect(formatGoDuration(0)).toBe('0s')
  })
})

describe('formatRFC3339Nano', () => {
  const at = (iso: string, fracNanos = 0n) => BigInt(Date.parse(iso)) * 1_000_000n + fracNanos

  it('writes whole seconds without a fraction', () => {
    expect(formatRFC3339Nano(at('2026-01-01T00:00:30Z'))).toBe('2026-01-01T00:00:30Z')
    expect(formatRFC3339Nano(at('2009-11-10T23:00:00Z'))).toBe('2009-11-10T23:00:00Z')
  })

  it('trims trailing zeros of the fraction, keeping nanoseconds', () => {
    expect(formatRFC3339Nano(at('2024-03-26T19:44:45Z', 293_100_000n))).toBe('2024-03-26T19:44:45.2931Z')
    expect(formatRFC3339Nano(at('2024-03-26T19:44:45Z', 293_078_000n))).toBe('2024-03-26T19:44:45.293078Z')
    expect(formatRFC3339Nano(at('2025-01-01T00:00:00Z', 123_456_000n))).toBe('2025-01-01T00:00:00.123456Z')
    expect(formatRFC3339Nano(at('2025-01-01T00:00:00Z', 1n))).toBe('2025-01-01T00:00:00.000000001Z')
  })

  it("gives Go's zero time for 0001-01-01", () => {
    expect(formatRFC3339Nano(-62_135_596_800n * 1_000_000_000n)).toBe(GO_ZERO_TIME)
    expect(GO_ZERO_TIME).toBe('0001-01-01T00:00:00Z')
  })

  it('floors instants before 1970', () => {
    expect(formatRFC3339Nano(-1n)).toBe('1969-12-31T23:59:59.999999999Z')
  })

  it('secondsToNanos keeps large instants exact to the millisecond', () => {
    expect(secondsToNanos(1_767_225_630.5)).toBe(1_767_225_630_500_000_000n)
    expect(formatRFC3339Nano(secondsToNanos(1_767_225_630))).toBe('2026-01-01T00:00:30Z')
  })
})
