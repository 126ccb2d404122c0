/**
 * Amounts as scenarios write them. Apart from the schema (`values.ts`) so that the step runner,
 * which reads amounts in ABI arguments (`abi.ts`), loads without the YAML parser: a start from a
 * parsed scenario (the CLI's preparsed default one) never parses YAML.
 */

/** `"1.5 ether"` → wei with the unit's decimals; a bare integer is in the smallest unit. */
export function parseAmount(text: string, units: Record<string, number>): bigint | undefined {
  const m = /^([0-9][0-9_]*)(?:\.([0-9]+))?\s*([A-Za-z]+)?$/.exec(text.trim())
  if (!m) return undefined
  const unit = m[3]?.toLowerCase()
  const decimals = unit === undefined ? 0 : units[unit]
  if (decimals === undefined) return undefined
  const fraction = m[2] ?? ''
  if (fraction.length > decimals) return undefined
  return BigInt(m[1]!.replace(/_/g, '')) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0')
}
