/**
 * Go renderings of floats the info and validators services need, as JS values the node encoder
 * (`encodeGoJson`, or `JSON.stringify`) turns into the bytes a node sends.
 */

/**
 * `json.Float64` (avalanchego `utils/json`): `strconv.FormatFloat(f, 'f', 4, 64)`, quoted. Go
 * rounds the exact binary value half to even; `toFixed` rounds exact ties up, so ties are settled
 * here from the exact decimal expansion.
 * @example float64String(99) // '99.0000'
 */
export function float64String(value: number): string {
  if (Number.isNaN(value)) return 'NaN'
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf'
  const rounded = value.toFixed(4)
  if (Math.abs(value) >= 1e21) return rounded
  const exact = Math.abs(value).toFixed(100) // exact for every double not far below 1e-4
  const tail = exact.slice(exact.indexOf('.') + 5)
  if (!/^50*$/.test(tail)) return rounded
  // An exact tie: toFixed went up (away from zero); Go keeps the even last digit.
  const up = rounded.replace('-', '')
  const lastDigit = Number(up[up.length - 1])
  if (lastDigit % 2 === 0) return rounded
  const down = Math.abs(value) - 0.00005 // the tie's lower neighbour, exactly representable at 4 places
  return (value < 0 ? '-' : '') + down.toFixed(4)
}

/**
 * A float32 as Go's encoder writes it: the shortest decimal that reads back as the same float32
 * (`strconv.FormatFloat(f, 'f', -1, 32)`), returned as the JS number whose own shortest form is
 * that decimal. `JSON.stringify(Math.fround(x))` would print the float64 digits instead
 * (`99.98999786376953` where Go writes `99.99`). Values below 1e-6 (which Go writes with an
 * exponent, `1e-07`) do not occur in uptimes.
 */
export function float32Json(value: number): number {
  const f = Math.fround(value)
  if (!Number.isFinite(f) || f === 0) return f
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(f.toPrecision(digits))
    if (Math.fround(candidate) === f) return candidate
  }
  return f
}
