import { isScalar } from 'yaml'
import type { Hex } from '../core/hex.js'
import { describe, positionOf, rawText, report, scalar, type At, type Check, type RefKind } from './schema.js'
import { parseAmount } from './amount.js'

export { parseAmount }

/** A named reference as written (`acct:alice`), resolved when the scenario runs. */
export type Ref = { kind: RefKind; name: string }

export const isRef = (v: unknown): v is Ref => typeof v === 'object' && v !== null && 'kind' in v && 'name' in v

const EVM_UNITS: Record<string, number> = { wei: 0, gwei: 9, ether: 18, avax: 18 }
const PRIMARY_UNITS: Record<string, number> = { navax: 0, avax: 9 }

/** An amount in `units`, at most `max` (the chain's word for it): more is refused here, at its position, not by the chain later. */
function amountCheck(expected: string, units: Record<string, number>, max: { value: bigint; text: string }): Check<bigint> {
  const read = scalar(expected, (value, text) => {
    if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : /^[0-9]+$/.test(text) ? BigInt(text) : undefined
    return typeof value === 'string' ? parseAmount(value, units) : undefined
  })
  return (node, a) => {
    const amount = read(node, a)
    return amount !== undefined && amount > max.value ? report(a, node, `expected at most ${max.text}, got ${describe(a.ctx, node)}`) : amount
  }
}

/** An amount of an EVM chain's native token (or a token's smallest units): wei, a uint256. */
export const evmAmount = amountCheck('a decimal amount like "1.5 ether" or an integer in wei', EVM_UNITS, { value: 2n ** 256n - 1n, text: '2^256-1 wei (a uint256)' })
/** An amount of AVAX on the P- or X-chain: nAVAX, a uint64. */
export const primaryAmount = amountCheck('a decimal amount like "25 avax" or an integer in nAVAX', PRIMARY_UNITS, { value: 2n ** 64n - 1n, text: '18446744073709551615 nAVAX (a uint64)' })

const DURATION_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 }

/** `"30s"`, `"5m"`, `"1h30m"`, `"14d"` or a number of seconds. */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined
  if (typeof value !== 'string' || !/^([0-9]+[smhd])+$/.test(value)) return undefined
  let total = 0
  for (const [, n, unit] of value.matchAll(/([0-9]+)([smhd])/g)) total += Number(n) * DURATION_UNITS[unit!]!
  return total
}

export const duration: Check<number> = scalar('a duration like "30s", "5m", "2h", "14d" or a number of seconds', parseDuration)

/** A unix time: ISO 8601 text (`2026-01-01T00:00:00Z`) or seconds. */
export const timestamp: Check<number> = scalar('an ISO 8601 time like "2026-01-01T00:00:00Z" or unix seconds', (value) => {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined
  if (typeof value !== 'string' || !/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(value)) return undefined
  const ms = Date.parse(value)
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000)
})

const REF_TEXT: Record<RefKind, string> = {
  acct: 'acct:<name or index>',
  contract: 'contract:<name>',
  node: 'node:<index>',
  chain: 'chain:<C or an L1 chain name>',
  subnet: 'subnet:<name>',
  validation: 'validation:<name>',
  step: 'step:<name>',
  snapshot: 'a snapshot name',
  upgrade: 'an upgrade name',
  bls: 'bls:<node index>',
  conversion: 'conversion:<subnet name>',
}

/** Records a reference for the reference pass; returns it. */
export function useRef(a: At, node: Parameters<Check<unknown>>[0], kind: RefKind, name: string): Ref {
  a.ctx.refs.push({ kind, name, path: a.path, pos: positionOf(a.ctx, node), step: a.ctx.step })
  return { kind, name }
}

/** A reference of one of `kinds` (`acct:alice`). */
export function ref(...kinds: RefKind[]): Check<Ref> {
  const expected = kinds.map((k) => REF_TEXT[k]).join(' or ')
  return (node, a) => {
    const text = isScalar(node) && typeof node.value === 'string' ? node.value : undefined
    const m = text === undefined ? null : /^([a-z]+):(.+)$/.exec(text)
    if (!m || !kinds.includes(m[1] as RefKind)) return report(a, node, `expected ${expected}, got ${describe(a.ctx, node)}`)
    return useRef(a, node, m[1] as RefKind, m[2]!)
  }
}

/** A plain name that another part of the document defines (a snapshot, an upgrade). */
export function nameRef(kind: RefKind): Check<Ref> {
  return (node, a) => {
    if (!isScalar(node) || typeof node.value !== 'string' || node.value === '') return report(a, node, `expected ${REF_TEXT[kind]}, got ${describe(a.ctx, node)}`)
    return useRef(a, node, kind, node.value)
  }
}

/** A 20-byte hex address or a reference to an account or contract. */
export function addressOrRef(...kinds: ('acct' | 'contract')[]): Check<Hex | Ref> {
  const refs = ref(...kinds)
  const expected = `a 0x address or ${kinds.map((k) => REF_TEXT[k]).join(' or ')}`
  return (node, a) => {
    if (isScalar(node)) {
      const text = typeof node.value === 'string' ? node.value : rawText(a.ctx, node)
      if (/^0x[0-9a-fA-F]{40}$/.test(text)) return text.toLowerCase() as Hex
      if (/^[a-z]+:/.test(text)) return refs(node, a)
    }
    return report(a, node, `expected ${expected}, got ${describe(a.ctx, node)}`)
  }
}

/** A node index reference (`node:2`), or `node:new` where a fresh validator identity is allowed. */
export function nodeRef(allowNew: boolean): Check<number | 'new'> {
  const expected = allowNew ? 'node:<index> or node:new' : 'node:<index>'
  return (node, a) => {
    const text = isScalar(node) && typeof node.value === 'string' ? node.value : ''
    const m = /^node:(new|[0-9]+)$/.exec(text)
    if (!m || (m[1] === 'new' && !allowNew)) return report(a, node, `expected ${expected}, got ${describe(a.ctx, node)}`)
    if (m[1] === 'new') return 'new'
    useRef(a, node, 'node', m[1]!)
    return Number(m[1])
  }
}

/** A chain by reference: `chain:C`, `chain:<L1 or subnet chain name>`; `P` and `X` only where `primary` allows. */
export function chainRef(primary: boolean): Check<string> {
  return (node, a) => {
    const text = isScalar(node) && typeof node.value === 'string' ? node.value : ''
    const m = /^chain:(.+)$/.exec(text)
    if (!m) return report(a, node, `expected chain:<C${primary ? ', P, X' : ''} or an L1 chain name>, got ${describe(a.ctx, node)}`)
    if (m[1] === 'C' || (primary && (m[1] === 'P' || m[1] === 'X'))) return m[1]
    useRef(a, node, 'chain', m[1]!)
    return m[1]!
  }
}

/** A name a step or section defines: letters, digits, `-` and `_`. */
export const name: Check<string> = scalar('a name of letters, digits, "-" or "_"', (v) => (typeof v === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(v) ? v : undefined))
