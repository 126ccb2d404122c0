/**
 * Configuration of the /v1 data API, given as `createNetwork({ dataApi })` or
 * `startDevnet({ dataApi })` (and by scenario files). Each part is documented where it is used.
 */
import type { PriceOptions } from './prices.js'

/** A budget of compute units (data-api.md §4): what one identity may spend per minute and per UTC day. */
export type RateBudget = { perMinute: number; perDay: number }

/** The hosted service's plans (data-api.md §4), by lower-case name. */
export type RateTierName = 'free' | 'base' | 'growth' | 'pro'

export type RateLimitOptions = {
  /** Budget of each client IP that sends no key; the hosted "Unauthenticated" tier (6,000 / 1,200,000) by default. */
  anonymous?: RateBudget
  /** Tiers keys may name: the hosted plans by default; entries here replace or add tiers. */
  tiers?: Record<string, RateBudget>
  /** Compute units per request by operationId; each operation's `x-execution-weight` by default (free 1 … xxl 200). */
  weights?: Record<string, number>
}

export type DataApiOptions = {
  /** Serve /v1 on its own port as well as on every node's server (0 picks a free port). */
  port?: number
  /**
   * Validate every /v1 response body against the vendored Glacier schemas (2xx against the
   * operation's response, errors against the error body); a mismatch becomes a 500 naming the
   * operation and the schema errors. Off by default, on when the environment has
   * `L1SIM_VALIDATE_RESPONSES=1` (the test suite sets it).
   */
  validateResponses?: boolean
  /**
   * API keys this network knows (sent as `x-data-api-key`), each with a tier name or its own
   * budget. A request with a key not listed here is refused with 401; none is required.
   */
  apiKeys?: Record<string, RateTierName | (string & {}) | RateBudget>
  /** Budgets and weights; `false` turns rate limiting off (keys are still checked). */
  rateLimits?: RateLimitOptions | false
  /**
   * The price table behind every `Money` field (token prices, balance values, network token
   * prices); see `prices.ts`. Without it no price is answered.
   */
  prices?: PriceOptions
}

/** The environment variable that turns response validation on when `validateResponses` is not set. */
export const VALIDATE_RESPONSES_ENV = 'L1SIM_VALIDATE_RESPONSES'
