/**
 * API keys and rate limits of the /v1 data API (data-api.md §4). Every request costs its
 * operation's compute units (`x-execution-weight`: free 1, small 10, medium 20, large 50, xl 100,
 * xxl 200) from two budgets of its identity, one per minute and one per UTC day: a client IP
 * without a key spends the anonymous ("Unauthenticated") budget, a key its tier's. Windows are fixed
 * and aligned on the network's clock (minute and day boundaries), so a test advances time instead
 * of waiting. A request that does not fit in both windows is refused with 429 and costs nothing.
 *
 * The headers follow the IETF RateLimit header draft (draft-ietf-httpapi-ratelimit-headers-07):
 * `ratelimit-policy` lists both windows (`6000;w=60, 1200000;w=86400`), `ratelimit-limit` and
 * `ratelimit-remaining` describe the window nearest to exhaustion after the request, and a 429
 * adds `ratelimit-reset` and `retry-after`, in seconds until the refusing window ends.
 */
import type { RateBudget, RateLimitOptions } from './config.js'

export const MINUTE_MS = 60_000
export const DAY_MS = 86_400_000

/** The hosted plans (data-api.md §4); `unauthenticated` is the budget of requests without a key. */
export const DEFAULT_RATE_TIERS = {
  unauthenticated: { perMinute: 6_000, perDay: 1_200_000 },
  free: { perMinute: 8_000, perDay: 2_000_000 },
  base: { perMinute: 10_000, perDay: 3_750_000 },
  growth: { perMinute: 14_000, perDay: 11_200_000 },
  pro: { perMinute: 20_000, perDay: 25_000_000 },
} as const satisfies Record<string, RateBudget>

/** Compute units of each `x-execution-weight` name (data-api.md §4). */
export const EXECUTION_WEIGHTS = { none: 0, free: 1, small: 10, medium: 20, large: 50, xl: 100, xxl: 200 } as const

/** Who a request is charged to. */
export type RateIdentity = { kind: 'anonymous'; ip: string } | { kind: 'key'; key: string }

export type RateDecision = {
  allowed: boolean
  /** Response headers to set (lower-case names). */
  headers: Record<string, string>
}

export type RateLimiter = {
  /** The budget of an API key, or undefined when the key is unknown. */
  budgetOfKey(key: string): RateBudget | undefined
  /** Charges `weight` compute units to `identity` at `nowMs`, unless that would overspend a window. */
  charge(identity: RateIdentity, weight: number, nowMs: number): RateDecision
}

export type RateLimiterOptions = {
  apiKeys?: Record<string, string | RateBudget> | undefined
  rateLimits?: RateLimitOptions | undefined
}

type Usage = { minute: number; minuteUsed: number; day: number; dayUsed: number }

/** A limiter with its own usage counters (one per network instance). Throws on a key naming an unknown tier. */
export function createRateLimiter(options: RateLimiterOptions = {}): RateLimiter {
  const tiers: Record<string, RateBudget> = { ...DEFAULT_RATE_TIERS, ...options.rateLimits?.tiers }
  const anonymous = options.rateLimits?.anonymous ?? DEFAULT_RATE_TIERS.unauthenticated
  checkBudget('anonymous', anonymous)
  const keys = new Map<string, RateBudget>()
  for (const [key, tier] of Object.entries(options.apiKeys ?? {})) {
    const budget = typeof tier === 'string' ? tiers[tier] : tier
    if (budget === undefined) throw new Error(`dataApi.apiKeys: key "${key}" names an unknown tier "${String(tier)}" (known: ${Object.keys(tiers).join(', ')})`)
    checkBudget(`key "${key}"`, budget)
    keys.set(key, budget)
  }
  const usage = new Map<string, Usage>()

  return {
    budgetOfKey: (key) => keys.get(key),
    charge(identity, weight, nowMs): RateDecision {
      const budget = identity.kind === 'key' ? keys.get(identity.key) : anonymous
      if (budget === undefined) throw new Error(`unknown API key ${identity.kind === 'key' ? identity.key : ''}`)
      const id = identity.kind === 'key' ? `key ${identity.key}` : `ip ${identity.ip}`
      const minute = Math.floor(nowMs / MINUTE_MS)
      const day = Math.floor(nowMs / DAY_MS)
      const previous = usage.get(id)
      const current: Usage = {
        minute,
        minuteUsed: previous?.minute === minute ? previous.minuteUsed : 0,
        day,
        dayUsed: previous?.day === day ? previous.dayUsed : 0,
      }
      const policy = `${budget.perMinute};w=60, ${budget.perDay};w=86400`
      const minuteFits = current.minuteUsed + weight <= budget.perMinute
      const dayFits = current.dayUsed + weight <= budget.perDay
      if (!minuteFits || !dayFits) {
        usage.set(id, current)
        // The day window ends on a minute boundary too: when it refuses, its end is when both fit again.
        const endMs = dayFits ? (minute + 1) * MINUTE_MS : (day + 1) * DAY_MS
        const wait = String(Math.max(1, Math.ceil((endMs - nowMs) / 1000)))
        const limit = dayFits ? budget.perMinute : budget.perDay
        const remaining = dayFits ? budget.perMinute - current.minuteUsed : budget.perDay - current.dayUsed
        return {
          allowed: false,
          headers: { 'ratelimit-policy': policy, 'ratelimit-limit': String(limit), 'ratelimit-remaining': String(remaining), 'ratelimit-reset': wait, 'retry-after': wait },
        }
      }
      current.minuteUsed += weight
      current.dayUsed += weight
      usage.set(id, current)
      const minuteLeft = budget.perMinute - current.minuteUsed
      const dayLeft = budget.perDay - current.dayUsed
      const [limit, remaining] = dayLeft < minuteLeft ? [budget.perDay, dayLeft] : [budget.perMinute, minuteLeft]
      return { allowed: true, headers: { 'ratelimit-policy': policy, 'ratelimit-limit': String(limit), 'ratelimit-remaining': String(remaining) } }
    },
  }
}

function checkBudget(what: string, budget: RateBudget): void {
  for (const field of ['perMinute', 'perDay'] as const)
    if (!Number.isSafeInteger(budget[field]) || budget[field] < 0) throw new Error(`dataApi rate limits: ${what} needs a whole, non-negative ${field}, got ${String(budget[field])}`)
}
