/**
 * Prices for the data API's `Money` fields. The emulator has no market: every price comes from
 * the network's configuration (`dataApi.prices`), so answers are deterministic, and a token
 * without a configured price gets no price fields at all (the hosted models make them optional
 * "if available"; an invented market price would be worse than none).
 *
 * Arithmetic is exact, on integers: a price is a USD price times a fixed rate, a balance's value
 * is `balance × price / 10^decimals`. The result is answered as a JSON number, which is what
 * `Money.value` is in the vendored Glacier schema (`"type": "number"`) and in both SDKs
 * (`value: number`; avacloud-sdk's zod refuses a string), although SPEC.md §2.2 lists it as a
 * string and the schema's example is `"42.42"`: the exact decimal is converted once, at the end,
 * so it is the nearest double (exact for any value with up to 15 significant digits).
 */
import { InvalidArgumentError } from '../../../core/errors.js'

/** `CurrencyCode` of the hosted API (SPEC.md §2.2, data-api.md §5). */
export const CURRENCY_CODES = ['usd', 'eur', 'aud', 'cad', 'chf', 'clp', 'cny', 'czk', 'dkk', 'gbp', 'hkd', 'huf', 'jpy', 'nzd'] as const
export type CurrencyCode = (typeof CURRENCY_CODES)[number]

/** `Money`: a currency and an amount of it. */
export type Money = { currencyCode: CurrencyCode; value: number }

export type PriceOptions = {
  /**
   * The USD price of one whole token (one `10^decimals` units), as a number or a decimal string,
   * keyed by an ERC-20 contract address (any case), by `native:<evmChainId>` for a chain's
   * native token (`native:43112`), or by a native token's symbol (`AVAX`, any case) for every
   * chain with that symbol; `native:<evmChainId>` wins over the symbol.
   */
  usd?: Record<string, number | string>
  /** Units of each currency per 1 USD; {@link DEFAULT_RATES} for those not given. */
  rates?: Partial<Record<CurrencyCode, number | string>>
}

/**
 * Fixed illustrative rates (units per 1 USD, rounded late-2024 levels). They are not live data:
 * tests that care about a currency's value set `rates` themselves.
 */
export const DEFAULT_RATES: Readonly<Record<CurrencyCode, string>> = Object.freeze({
  usd: '1',
  eur: '0.92',
  aud: '1.52',
  cad: '1.36',
  chf: '0.88',
  clp: '940',
  cny: '7.2',
  czk: '23',
  dkk: '6.9',
  gbp: '0.79',
  hkd: '7.8',
  huf: '360',
  jpy: '150',
  nzd: '1.65',
})

/** `digits / 10^scale`, non-negative. */
type Decimal = { digits: bigint; scale: number }

const DECIMAL = /^(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$|^\.(\d+)(?:[eE]([+-]?\d+))?$/

function parseDecimal(value: unknown, what: string): Decimal {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value.trim() : undefined
  const m = text === undefined ? null : DECIMAL.exec(text)
  if (!m) throw new InvalidArgumentError(`${what} must be a non-negative decimal number, got ${JSON.stringify(value)}`)
  const whole = m[1] ?? '0'
  const fraction = m[2] ?? m[4] ?? ''
  const exponent = Number(m[3] ?? m[5] ?? '0')
  let digits = BigInt(whole + fraction)
  let scale = fraction.length - exponent
  if (scale < 0) {
    digits *= 10n ** BigInt(-scale)
    scale = 0
  }
  return { digits, scale }
}

function multiply(a: Decimal, b: Decimal): Decimal {
  return { digits: a.digits * b.digits, scale: a.scale + b.scale }
}

/** The shortest exact decimal string: no exponent, no trailing fraction zeros. */
export function formatDecimal({ digits, scale }: Decimal): string {
  const text = digits.toString(10).padStart(scale + 1, '0')
  if (scale === 0) return text
  const whole = text.slice(0, text.length - scale)
  const fraction = text.slice(text.length - scale).replace(/0+$/, '')
  return fraction === '' ? whole : `${whole}.${fraction}`
}

export type PriceTable = {
  /** The price of one whole ERC-20 token, if configured. */
  token(address: string, currency: CurrencyCode): Money | undefined
  /** The price of a chain's native token (by EVM chain id, then by symbol), if configured. */
  native(evmChainId: string, symbol: string, currency: CurrencyCode): Money | undefined
  /** A native balance's `price` and `balanceValue` (`balance` base units, `decimals`), if a price is configured. */
  nativeBalance(evmChainId: string, symbol: string, currency: CurrencyCode, balance: bigint, decimals: number): { price: Money; balanceValue: Money } | undefined
}

/** Parses and checks the configuration once; throws an `InvalidArgumentError` naming the bad entry. */
export function createPriceTable(options: PriceOptions = {}): PriceTable {
  const usd = new Map<string, Decimal>()
  const symbols = new Map<string, Decimal>()
  for (const [key, value] of Object.entries(options.usd ?? {})) {
    const price = parseDecimal(value, `prices.usd[${JSON.stringify(key)}]`)
    if (/^0x[0-9a-fA-F]{40}$/.test(key) || /^native:\d+$/.test(key)) usd.set(key.toLowerCase(), price)
    else symbols.set(key.toUpperCase(), price)
  }
  const rates = new Map<CurrencyCode, Decimal>()
  for (const code of CURRENCY_CODES) rates.set(code, parseDecimal(options.rates?.[code] ?? DEFAULT_RATES[code], `prices.rates.${code}`))
  for (const key of Object.keys(options.rates ?? {}))
    if (!(CURRENCY_CODES as readonly string[]).includes(key)) throw new InvalidArgumentError(`prices.rates.${key} is not a currency (${CURRENCY_CODES.join(', ')})`)
  const inCurrency = (usdAmount: Decimal, currency: CurrencyCode): Money => ({ currencyCode: currency, value: Number(formatDecimal(multiply(usdAmount, rates.get(currency)!))) })
  const nativeUsd = (evmChainId: string, symbol: string) => usd.get(`native:${evmChainId}`) ?? symbols.get(symbol.toUpperCase())
  return {
    token(address, currency) {
      const price = usd.get(address.toLowerCase())
      return price && inCurrency(price, currency)
    },
    native(evmChainId, symbol, currency) {
      const price = nativeUsd(evmChainId, symbol)
      return price && inCurrency(price, currency)
    },
    nativeBalance(evmChainId, symbol, currency, balance, decimals) {
      const price = nativeUsd(evmChainId, symbol)
      if (!price) return undefined
      return { price: inCurrency(price, currency), balanceValue: inCurrency(multiply({ digits: balance, scale: decimals }, price), currency) }
    },
  }
}
