import { isAlias, isMap, isScalar, isSeq, type Document, type LineCounter, type Node, type Pair, type Scalar } from 'yaml'
import type { AliasTargets } from './aliases.js'
import type { ScenarioIssue } from './errors.js'

/**
 * Checks over the YAML syntax tree, so every issue carries the line and column of the node it is
 * about. A check records issues and returns `undefined` for a bad value; containers go on with
 * their other entries, so one pass reports everything.
 */

export type Position = { line: number; column: number }
/** A reference (`acct:alice`, `contract:token`…) met while checking, resolved once the whole document is read. */
export type RefUse = { kind: RefKind; name: string; path: string; pos: Position; step: number }
export type RefKind = 'acct' | 'contract' | 'node' | 'chain' | 'subnet' | 'validation' | 'step' | 'snapshot' | 'upgrade' | 'bls' | 'conversion'
export type Ctx = {
  file: string
  text: string
  lines: LineCounter
  doc: Document
  /** What each alias names, found once ({@link checkAliases}): resolving one is a lookup, not a walk of the document. */
  aliases: AliasTargets
  issues: ScenarioIssue[]
  refs: RefUse[]
  /** Index of the step being checked (-1 outside the timeline): references must point to earlier definitions. */
  step: number
}
export type At = { ctx: Ctx; path: string }
/** Checks one node; `index` is the item's position when the node is a list item. */
export type Check<T> = (node: Node, at: At, index?: number) => T | undefined

export function positionOf(ctx: Ctx, node: Node | null | undefined): Position {
  const { line, col } = ctx.lines.linePos(node?.range?.[0] ?? 0)
  return { line, column: col }
}

export function report(at: At, node: Node | null | undefined, message: string): undefined {
  at.ctx.issues.push({ file: at.ctx.file, ...positionOf(at.ctx, node), path: at.path, message })
  return undefined
}

export function resolve(ctx: Ctx, node: Node | null | undefined): Node | null {
  if (node && isAlias(node)) return ctx.aliases.get(node) ?? null
  return node ?? null
}

/** What a node holds, for "got …": a quoted string, a number, a mapping, a list. */
export function describe(ctx: Ctx, node: Node | null): string {
  if (node === null) return 'nothing'
  if (isMap(node)) return 'a mapping'
  if (isSeq(node)) return 'a list'
  if (isScalar(node)) {
    if (typeof node.value === 'string') return JSON.stringify(node.value)
    if (node.value === null) return 'null'
    return rawText(ctx, node)
  }
  return 'an unsupported value'
}

/** The source text of a plain scalar (hex and large integers keep every digit), else its value as text. */
export function rawText(ctx: Ctx, node: Scalar): string {
  if (node.type === 'PLAIN' && node.range) return ctx.text.slice(node.range[0], node.range[1]).trim()
  return String(node.value)
}

export const at = (parent: At, key: string | number): At => ({
  ctx: parent.ctx,
  path: typeof key === 'number' ? `${parent.path}[${key}]` : parent.path ? `${parent.path}.${key}` : key,
})

/** A scalar read by `read`, which returns undefined for a value it refuses ("expected …, got …"). */
export function scalar<T>(expected: string, read: (value: unknown, text: string) => T | undefined): Check<T> {
  return (node, a) => {
    const out = isScalar(node) ? read(node.value, rawText(a.ctx, node)) : undefined
    return out === undefined ? report(a, node, `expected ${expected}, got ${describe(a.ctx, node)}`) : out
  }
}

export const str: Check<string> = scalar('a string', (v) => (typeof v === 'string' ? v : undefined))
export const bool: Check<boolean> = scalar('true or false', (v) => (typeof v === 'boolean' ? v : undefined))

export function int(min: number, max: number = Number.MAX_SAFE_INTEGER): Check<number> {
  const expected = max === Number.MAX_SAFE_INTEGER ? `an integer of at least ${min}` : `an integer from ${min} to ${max}`
  return scalar(expected, (v) => (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : undefined))
}

export function oneOf<const T extends string>(values: readonly T[]): Check<T> {
  const expected = `one of ${values.join(', ')}`
  return scalar(expected, (v) => (typeof v === 'string' && (values as readonly string[]).includes(v) ? (v as T) : undefined))
}

export type Field<T> = { check: Check<T>; required?: boolean }
export const req = <T>(check: Check<T>): Field<T> & { required: true } => ({ check, required: true })
export const opt = <T>(check: Check<T>): Field<T> => ({ check })

type Shape = Record<string, Field<unknown>>
export type Out<S extends Shape> = { [K in keyof S as S[K] extends { required: true } ? K : never]: S[K] extends Field<infer T> ? T : never } & {
  [K in keyof S as S[K] extends { required: true } ? never : K]?: S[K] extends Field<infer T> ? T : never
}

/** The keys of a mapping node with their key and value nodes. */
export function entries(ctx: Ctx, node: Node): { key: string; keyNode: Node; value: Node | null; pair: Pair }[] {
  if (!isMap(node)) return []
  return node.items.map((pair) => {
    const keyNode = pair.key as Node
    const key = isScalar(keyNode) ? String(keyNode.value) : ''
    return { key, keyNode, value: resolve(ctx, pair.value as Node | null), pair }
  })
}

/** A mapping with known keys: unknown keys, missing required keys and every field's own issues are reported. */
export function object<S extends Shape>(shape: S): Check<Out<S> & { $pos: Position }> {
  return (node, a) => {
    if (!isMap(node)) return report(a, node, `expected a mapping with ${describeKeys(shape)}, got ${describe(a.ctx, node)}`)
    const out: Record<string, unknown> = { $pos: positionOf(a.ctx, node) }
    let ok = true
    const seen = new Set<string>()
    for (const { key, keyNode, value } of entries(a.ctx, node)) {
      const field = Object.hasOwn(shape, key) ? shape[key] : undefined
      if (!field) {
        report(at(a, key), keyNode, `unknown key ${JSON.stringify(key)} (expected ${Object.keys(shape).join(', ')})`)
        ok = false
        continue
      }
      seen.add(key)
      const v = value === null ? report(at(a, key), keyNode, `expected a value, got nothing`) : field.check(value, at(a, key))
      if (v === undefined) ok = false
      else out[key] = v
    }
    for (const [key, field] of Object.entries(shape))
      if (field.required && !seen.has(key)) {
        report(a, node, `missing required key ${JSON.stringify(key)}`)
        ok = false
      }
    return ok ? (out as Out<S> & { $pos: Position }) : undefined
  }
}

function describeKeys(shape: Shape): string {
  const required = Object.entries(shape).filter(([, f]) => f.required).map(([k]) => k)
  return required.length ? `keys ${required.join(', ')}` : `keys among ${Object.keys(shape).join(', ')}`
}

export function list<T>(item: Check<T>, options: { min?: number } = {}): Check<T[]> {
  return (node, a) => {
    if (!isSeq(node)) return report(a, node, `expected a list, got ${describe(a.ctx, node)}`)
    const out: T[] = []
    let ok = true
    node.items.forEach((child, i) => {
      const n = resolve(a.ctx, child as Node)
      const v = n === null ? report(at(a, i), node, 'expected a value, got nothing') : item(n, at(a, i), i)
      if (v === undefined) ok = false
      else out.push(v)
    })
    if (options.min !== undefined && node.items.length < options.min) {
      report(a, node, `expected at least ${options.min} item${options.min === 1 ? '' : 's'}, got ${node.items.length}`)
      ok = false
    }
    return ok ? out : undefined
  }
}

/** A mapping from free-form keys (checked by `key`) to values. */
export function record<T>(checkKey: (k: string) => string | undefined, value: Check<T>): Check<Map<string, T> & { $keys: Map<string, Position> }> {
  return (node, a) => {
    if (!isMap(node)) return report(a, node, `expected a mapping, got ${describe(a.ctx, node)}`)
    const out = new Map<string, T>() as Map<string, T> & { $keys: Map<string, Position> }
    out.$keys = new Map()
    let ok = true
    for (const { key, keyNode, value: v } of entries(a.ctx, node)) {
      const bad = checkKey(key)
      if (bad !== undefined) {
        report(at(a, key), keyNode, bad)
        ok = false
        continue
      }
      const checked = v === null ? report(at(a, key), keyNode, 'expected a value, got nothing') : value(v, at(a, key))
      if (checked === undefined) ok = false
      else {
        out.set(key, checked)
        out.$keys.set(key, positionOf(a.ctx, keyNode))
      }
    }
    return ok ? out : undefined
  }
}

/** Either of two checks, told apart by the node's kind (scalar or mapping or list). */
export function byKind<A, B>(forScalar: Check<A>, forMap: Check<B>): Check<A | B> {
  return (node, a) => (isMap(node) ? forMap(node, a) : forScalar(node, a))
}

/** Any YAML value as plain data (numbers keep full precision as bigint when they are integers beyond 2^53). */
export function anyValue(): Check<unknown> {
  const convert = (ctx: Ctx, node: Node | null): unknown => {
    node = resolve(ctx, node)
    if (node === null) return null
    if (isMap(node)) return Object.fromEntries(entries(ctx, node).map((e) => [e.key, convert(ctx, e.value)]))
    if (isSeq(node)) return node.items.map((n) => convert(ctx, n as Node))
    if (isScalar(node)) {
      if (typeof node.value === 'number' && node.type === 'PLAIN') {
        const text = rawText(ctx, node)
        if (/^[0-9]+$/.test(text) && !Number.isSafeInteger(node.value)) return BigInt(text)
        if (/^0x[0-9a-fA-F]+$/.test(text)) return text
      }
      return node.value
    }
    return null
  }
  return (node, a) => convert(a.ctx, node)
}
