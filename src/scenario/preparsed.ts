/**
 * A scenario parsed at build time: `l1sim start` runs the package's `scenarios/default.yaml` at
 * every start, and parsing it (the YAML parser, the schema and reference checks, all running cold)
 * was ~10 ms of a cold start. `scripts/bundle-cli.mjs` parses it with {@link parseScenario} and
 * writes the result here encoded as JSON, with the text it came from and the sha256 of each
 * artifact file it read; a start decodes it only when the file's text and every artifact are still
 * the ones parsed, which makes the decoded scenario the one parsing would give. Anything else (no
 * such file, an edited scenario or artifact, an unreadable file) parses as before.
 *
 * The encoding is exact for what a parsed scenario holds: plain objects and arrays (key order kept),
 * `Map`s with their own properties (`$keys`), bigints, `undefined` values. Each value is a string,
 * a number, a boolean, null, or an object tagged by its one key, so no data is mistaken for a tag:
 * `{o: {...}}` an object, `{a: [...]}` an array, `{m: [[key, value]...], p: {...}}` a Map and its
 * own properties, `{b: "12"}` a bigint, `{u: 1}` undefined, `{f: 1}` the scenario's `file`. The
 * encoder refuses anything else (a class instance, a shared or cyclic reference, a symbol key, a
 * number JSON cannot hold), so a change to what the parser returns fails the build instead of
 * decoding into something else.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { dirname, resolve as resolvePath } from 'node:path'
import type { Scenario } from './parse.js'

type Encoded = string | number | boolean | null | { [tag: string]: unknown }

/** What the build writes: the scenario's text, its artifacts' sha256 (by the path the document names), and the parse. */
export type PreparsedScenario = { text: string; artifacts: [path: string, sha256: string][]; scenario: Encoded }

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** Encodes `scenario`, parsed from `text`, for {@link readPreparsedScenario}; throws on any value it cannot encode exactly. */
export function encodeScenario(scenario: Scenario, text: string): PreparsedScenario {
  const seen = new Set<object>()
  const encode = (value: unknown, at: string): Encoded => {
    if (value === undefined) return { u: 1 }
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return value
    if (typeof value === 'number') {
      if (!Number.isFinite(value) || Object.is(value, -0)) throw new Error(`${at}: ${value} has no JSON form`)
      return value
    }
    if (typeof value === 'bigint') return { b: value.toString() }
    if (typeof value !== 'object') throw new Error(`${at}: cannot encode a ${typeof value}`)
    if (seen.has(value)) throw new Error(`${at}: a shared or cyclic reference`)
    seen.add(value)
    if (Object.getOwnPropertySymbols(value).length > 0) throw new Error(`${at}: symbol keys`)
    const props = (o: object, skip: (key: string) => boolean) => {
      const out: Record<string, Encoded> = {}
      for (const key of Object.getOwnPropertyNames(o)) {
        if (skip(key)) continue
        // JSON.parse keeps such a key, an assignment while decoding would not.
        if (key === '__proto__') throw new Error(`${at}: a __proto__ key`)
        const d = Object.getOwnPropertyDescriptor(o, key)!
        if (!d.enumerable || !d.writable || !d.configurable || d.get !== undefined) throw new Error(`${at}.${key}: not a plain data property`)
        out[key] = encode(d.value, `${at}.${key}`)
      }
      return out
    }
    if (Array.isArray(value)) {
      if (Object.getPrototypeOf(value) !== Array.prototype) throw new Error(`${at}: not a plain array`)
      for (let i = 0; i < value.length; i++) if (!(i in value)) throw new Error(`${at}[${i}]: a hole`)
      const extra = props(value, (key) => key === 'length' || /^(0|[1-9]\d*)$/.test(key))
      if (Object.keys(extra).length > 0) throw new Error(`${at}: an array with properties`)
      return { a: value.map((v, i) => encode(v, `${at}[${i}]`)) }
    }
    if (value instanceof Map) {
      if (Object.getPrototypeOf(value) !== Map.prototype) throw new Error(`${at}: not a plain Map`)
      return { m: [...value].map(([k, v]) => [encode(k, `${at} key`), encode(v, `${at}.get(${String(k)})`)]), p: props(value, () => false) }
    }
    if (Object.getPrototypeOf(value) !== Object.prototype) throw new Error(`${at}: an instance of ${value.constructor?.name ?? 'a class'}`)
    const out = props(value, () => false)
    // The file it was read from: the path the start gives, where it was.
    if (value === scenario) out.file = { f: 1 }
    return { o: out }
  }
  const dir = dirname(scenario.file)
  return {
    text,
    artifacts: [...scenario.artifacts.keys()].map((path) => [path, sha256(readFileSync(resolvePath(dir, path)))]),
    scenario: encode(scenario, 'scenario'),
  }
}

/**
 * The scenario in `file`, decoded from `preparsed` (a file {@link encodeScenario}'s output was
 * written to) when `file`'s text and the artifacts it names are the ones it was parsed from;
 * undefined otherwise, or when either file cannot be read: the caller then parses `file`.
 */
export function readPreparsedScenario(file: string, preparsed: string): Scenario | undefined {
  let stored: PreparsedScenario
  try {
    stored = JSON.parse(readFileSync(preparsed, 'utf8')) as PreparsedScenario
    if (readFileSync(file, 'utf8') !== stored.text) return undefined
    const dir = dirname(file)
    for (const [path, hash] of stored.artifacts) if (sha256(readFileSync(resolvePath(dir, path))) !== hash) return undefined
  } catch {
    return undefined
  }
  return decode(stored.scenario, file) as Scenario
}

function decode(value: Encoded, file: string): unknown {
  if (value === null || typeof value !== 'object') return value
  if ('u' in value) return undefined
  if ('f' in value) return file
  if ('b' in value) return BigInt(value.b as string)
  if ('a' in value) return (value.a as Encoded[]).map((v) => decode(v, file))
  if ('m' in value) {
    const map = new Map((value.m as [Encoded, Encoded][]).map(([k, v]) => [decode(k, file), decode(v, file)]))
    for (const [key, v] of Object.entries(value.p as Record<string, Encoded>)) (map as unknown as Record<string, unknown>)[key] = decode(v, file)
    return map
  }
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value.o as Record<string, Encoded>)) out[key] = decode(v, file)
  return out
}
