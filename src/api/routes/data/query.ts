/**
 * Query parsing for the data API. fastify's query parser turns repeated keys into arrays
 * (`?txTypes=A&txTypes=B` → `['A', 'B']`), which is how both SDKs send array parameters
 * (data-api.md §1). A {@link QueryReader} reads each field, collects one class-validator style
 * message per bad field (the hosted service is NestJS), and {@link QueryReader.finish} throws them
 * as one 400.
 */
import { badRequest } from './errors.js'

export type PageSizeBounds = { readonly min: number; readonly max: number; readonly default: number }

/** pageSize bounds of SPEC.md §8, per operation (operationIds of data-api.md §11). */
export const PAGE_SIZE_BOUNDS = {
  listTransactions: { min: 1, max: 100, default: 10 }, // 3
  listNativeTransactions: { min: 1, max: 100, default: 10 }, // 4
  listErc20Transactions: { min: 1, max: 100, default: 10 }, // 5
  listErc721Transactions: { min: 1, max: 100, default: 10 }, // 6
  listTransfers: { min: 1, max: 100, default: 10 }, // 7
  listErc1155Balances: { min: 1, max: 500, default: 10 }, // 8
  getTransactionsForBlock: { min: 0, max: 100, default: 0 }, // 11
  getLatestBlocks: { min: 1, max: 100, default: 10 }, // 12
  listTokens: { min: 1, max: 100, default: 10 }, // 13
  getUtxosByAddressesV2: { min: 1, max: 1024, default: 10 }, // 14
  listLatestPrimaryNetworkTransactions: { min: 1, max: 100, default: 10 }, // 15
  listValidators: { min: 1, max: 100, default: 10 }, // 16
  listL1Validators: { min: 1, max: 100, default: 10 }, // 17
  listIcmMessages: { min: 1, max: 100, default: 10 },
  listIcmMessagesByAddress: { min: 1, max: 100, default: 10 },
} as const satisfies Record<string, PageSizeBounds>

type Raw = string | string[] | undefined

const INTEGER = /^[+-]?\d+$/
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/

export class QueryReader {
  readonly errors: string[] = []
  private readonly query: Record<string, unknown>

  constructor(query: unknown) {
    this.query = query !== null && typeof query === 'object' ? (query as Record<string, unknown>) : {}
  }

  private raw(name: string): Raw {
    const value = this.query[name]
    if (value === undefined || typeof value === 'string') return value
    if (Array.isArray(value)) return value.map(String)
    return String(value)
  }

  private fail(message: string): undefined {
    this.errors.push(message)
    return undefined
  }

  /** A single string; a repeated key is a bad field. */
  string(name: string): string | undefined {
    const value = this.raw(name)
    if (Array.isArray(value)) return this.fail(`${name} must be a string`)
    return value
  }

  /** One of `values`. */
  enum<T extends string>(name: string, values: readonly T[]): T | undefined {
    const value = this.raw(name)
    if (value === undefined) return undefined
    if (typeof value === 'string' && (values as readonly string[]).includes(value)) return value as T
    return this.fail(`${name} must be one of the following values: ${values.join(', ')}`)
  }

  /** An integer within the bounds (inclusive). */
  integer(name: string, bounds: { min?: number; max?: number } = {}): number | undefined {
    const value = this.raw(name)
    if (value === undefined) return undefined
    if (typeof value !== 'string' || !INTEGER.test(value) || !Number.isSafeInteger(Number(value)))
      return this.fail(`${name} must be an integer number`)
    return this.bounded(name, Number(value), bounds)
  }

  /** A finite number within the bounds (inclusive). */
  number(name: string, bounds: { min?: number; max?: number } = {}): number | undefined {
    const value = this.raw(name)
    if (value === undefined) return undefined
    if (typeof value !== 'string' || !NUMBER.test(value) || !Number.isFinite(Number(value)))
      return this.fail(`${name} must be a number conforming to the specified constraints`)
    return this.bounded(name, Number(value), bounds)
  }

  private bounded(name: string, value: number, bounds: { min?: number; max?: number }): number | undefined {
    if (bounds.min !== undefined && value < bounds.min) return this.fail(`${name} must not be less than ${bounds.min}`)
    if (bounds.max !== undefined && value > bounds.max) return this.fail(`${name} must not be greater than ${bounds.max}`)
    return value
  }

  /** `true` or `false`. */
  boolean(name: string): boolean | undefined {
    const value = this.raw(name)
    if (value === undefined) return undefined
    if (value === 'true') return true
    if (value === 'false') return false
    return this.fail(`${name} must be a boolean value`)
  }

  /** A repeated-key array (a single occurrence is a one-element array); each item one of `values` if given. */
  array<T extends string = string>(name: string, values?: readonly T[]): T[] | undefined {
    const value = this.raw(name)
    if (value === undefined) return undefined
    const items = Array.isArray(value) ? value : [value]
    if (values && !items.every((item) => (values as readonly string[]).includes(item)))
      return this.fail(`each value in ${name} must be one of the following values: ${values.join(', ')}`)
    return items as T[]
  }

  /** `pageSize` with the operation's bounds and default (SPEC.md §8). */
  pageSize(bounds: PageSizeBounds): number {
    return this.integer('pageSize', bounds) ?? bounds.default
  }

  /** `pageToken`, still encoded (see `paging.ts`). */
  pageToken(): string | undefined {
    const token = this.string('pageToken')
    return token === '' ? undefined : token
  }

  /** Throws one 400 with every message collected so far. */
  finish(): void {
    if (this.errors.length > 0) throw badRequest([...this.errors])
  }
}
