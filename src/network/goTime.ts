/**
 * Go's text forms of time values, as avalanchego's health API writes them: `time.Duration.String()`
 * (`"0s"`, `"1.5s"`, `"293.098ms"`, `"1m0s"`) and `time.Time` in JSON (RFC3339Nano, trailing
 * fractional zeros removed). Durations and instants are integer nanoseconds (bigint) so the
 * int64 values Go prints are exact; plain numbers are accepted and rounded to whole nanoseconds.
 */

/** One second in nanoseconds. */
export const NANOS_PER_SECOND = 1_000_000_000n

/** Go's zero `time.Time` as JSON writes it: `0001-01-01T00:00:00Z`. */
export const GO_ZERO_TIME = '0001-01-01T00:00:00Z'

const toNanos = (value: bigint | number): bigint => (typeof value === 'bigint' ? value : BigInt(Math.round(value)))

/**
 * The fractional digits of `v / 10^prec`, without trailing zeros, and the integer part.
 * Mirrors `fmtFrac`: when every fractional digit is zero the decimal point is left out too.
 */
function fraction(v: bigint, prec: number): { int: bigint; frac: string } {
  const scale = 10n ** BigInt(prec)
  const digits = (v % scale).toString().padStart(prec, '0').replace(/0+$/, '')
  return { int: v / scale, frac: digits.length > 0 ? `.${digits}` : '' }
}

/**
 * `time.Duration(ns).String()`: `0s`, `1ns`, `1.5µs`, `293.098ms`, `1.5s`, `1m0s`, `1h2m3s`,
 * `-1.5s`. Below one second the largest unit that keeps the integer part non-zero is used
 * (with U+00B5 for micro); from one second on it is `[h]…[m]…s` with up to 9 fractional digits.
 */
export function formatGoDuration(nanoseconds: bigint | number): string {
  const d = toNanos(nanoseconds)
  if (d === 0n) return '0s'
  const sign = d < 0n ? '-' : ''
  const u = d < 0n ? -d : d
  if (u < NANOS_PER_SECOND) {
    if (u < 1_000n) return `${sign}${u}ns`
    const [prec, unit] = u < 1_000_000n ? [3, 'µs'] : [6, 'ms']
    const { int, frac } = fraction(u, prec)
    return `${sign}${int}${frac}${unit}`
  }
  const { int: totalSeconds, frac } = fraction(u, 9)
  const seconds = totalSeconds % 60n
  const totalMinutes = totalSeconds / 60n
  if (totalMinutes === 0n) return `${sign}${seconds}${frac}s`
  const minutes = totalMinutes % 60n
  const hours = totalMinutes / 60n
  if (hours === 0n) return `${sign}${minutes}m${seconds}${frac}s`
  return `${sign}${hours}h${minutes}m${seconds}${frac}s`
}

/** Seconds (fractional allowed) as integer nanoseconds, rounded to the millisecond first so large instants stay exact. */
export function secondsToNanos(seconds: number): bigint {
  return BigInt(Math.round(seconds * 1000)) * 1_000_000n
}

const pad = (n: number, width: number) => String(n).padStart(width, '0')

/**
 * A UTC instant in unix nanoseconds as Go's `time.Time.MarshalJSON` writes it on a UTC host
 * (`time.RFC3339Nano`): `2026-01-01T00:00:30Z`, `2024-03-26T19:44:45.2931Z`. Trailing zeros of
 * the fraction are dropped, and the point with them when the fraction is zero.
 */
export function formatRFC3339Nano(unixNanos: bigint | number): string {
  const ns = toNanos(unixNanos)
  // Floor division, so instants before 1970 keep a positive fraction as Go's do.
  let seconds = ns / NANOS_PER_SECOND
  let frac = ns % NANOS_PER_SECOND
  if (frac < 0n) {
    frac += NANOS_PER_SECOND
    seconds -= 1n
  }
  const date = new Date(Number(seconds) * 1000)
  const fracText = frac === 0n ? '' : `.${frac.toString().padStart(9, '0').replace(/0+$/, '')}`
  return (
    `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}` +
    `T${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)}${fracText}Z`
  )
}
