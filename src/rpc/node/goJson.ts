/**
 * JSON as Go's encoding/json reads it in the node's JSON-RPC layer (gorilla/rpc v2 json2 decodes
 * each request with `json.NewDecoder(body).Decode`): one value is scanned with Go's scanner (its
 * error texts, its nesting limit, anything after the value ignored), then built into plain JS
 * values. Alongside the values a side table keeps what `JSON.parse` loses and Go's decoding needs:
 * every object member in order (duplicates included) with the raw text of its value, and the raw
 * text of every array element. Also the writing side: Go's `strconv.Quote`, `json.Compact` with
 * HTML escaping (how a `json.RawMessage` is re-encoded) and Go's string escaping.
 */
import { encodeJSON } from '../dispatcher.js'

/** A Go `json.Decoder` failure: `EOF`, `unexpected EOF` or a `SyntaxError` text. */
export class GoJsonSyntaxError extends Error {
  override name = 'GoJsonSyntaxError'
}

/** One member of a decoded JSON object, in source order; `raw` is the value's text as sent. */
export type JsonMember = { key: string; value: unknown; raw: string }

/** What the first JSON value of a text was, and where it ended. */
export type GoJsonValue = { value: unknown; raw: string; kind: JsonKind; end: number }

/** The names Go's `UnmarshalTypeError` uses for a JSON value's kind. */
export type JsonKind = 'object' | 'array' | 'string' | 'number' | 'bool' | 'null'

const membersOf = new WeakMap<object, JsonMember[]>()
const elementRawsOf = new WeakMap<object, string[]>()

/**
 * The members of an object that {@link decodeGoJson} built, in source order with duplicates and
 * raw value texts; undefined for any other object (then read its own enumerable properties).
 */
export function jsonMembers(object: object): readonly JsonMember[] | undefined {
  return membersOf.get(object)
}

/** The raw texts of the elements of an array that {@link decodeGoJson} built. */
export function jsonElementRaws(array: readonly unknown[]): readonly string[] | undefined {
  return elementRawsOf.get(array)
}

/**
 * Go's `foldName` (how encoding/json matches a key to a struct field case-insensitively): ASCII
 * upper-cased, any other rune `unicode.ToUpper(unicode.ToLower(r))` (simple mappings), so `ſ`
 * folds to `S`, the Kelvin sign to `K` and `İ`/`ı` to `I`.
 */
export function foldName(name: string): string {
  let out = ''
  for (const ch of name) {
    if (ch < '\u0080') {
      out += ch.toUpperCase()
      continue
    }
    const lowered = ch === '\u0130' ? 'i' : ch.toLowerCase()
    const lower = [...lowered].length === 1 ? lowered : ch
    const upper = lower.toUpperCase()
    out += [...upper].length === 1 ? upper : lower
  }
  return out
}

/** Go's `maxNestingDepth`. */
const MAX_NESTING_DEPTH = 10000

const OBJECT_KEY = 0
const OBJECT_VALUE = 1
const ARRAY_VALUE = 2

// Scanner states, named after Go's `state*` functions.
const BEGIN_VALUE = 0
const BEGIN_VALUE_OR_EMPTY = 1
const BEGIN_STRING_OR_EMPTY = 2
const BEGIN_STRING = 3
const END_VALUE = 4
const IN_STRING = 5
const IN_STRING_ESC = 6
const ESC_U = 7 // 7..10: \u, \uX, \uXX, \uXXX
const NEG = 11
const ONE = 12
const ZERO = 13
const DOT = 14
const DOT0 = 15
const EXP = 16
const EXP_SIGN = 17
const EXP0 = 18
const LITERAL = 19 // inside true/false/null, `literal` holds the rest to read

const CONTINUE = 0
const END_BEFORE = 1 // the value ended before this character
const END_AFTER = 2 // the value ended with this character

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d
}
function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39
}
function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46)
}

/**
 * Where the first JSON value of `text` at or after `start` ends, as Go's `Decoder.readValue` finds
 * it: throws `EOF` for a blank text, `unexpected EOF` for a value cut short and Go's
 * `invalid character …` texts for the first bad character.
 */
export function scanGoJsonValue(text: string, start = 0): { begin: number; end: number } {
  const stack: number[] = []
  let state = BEGIN_VALUE
  let literal = '' // the characters a true/false/null literal still expects
  let literalName = ''
  let begin = -1

  const fail = (i: number, context: string): never => {
    throw new GoJsonSyntaxError(`invalid character ${quoteChar(text, i)} ${context}`)
  }
  const push = (i: number, kind: number): void => {
    stack.push(kind)
    if (stack.length > MAX_NESTING_DEPTH) fail(i, 'exceeded max depth')
  }

  // Go's stateEndValue, for the character c at i.
  const endValue = (c: number, i: number): number => {
    const n = stack.length
    if (n === 0) return END_BEFORE
    if (isSpace(c)) {
      state = END_VALUE
      return CONTINUE
    }
    const top = stack[n - 1]
    if (top === OBJECT_KEY) {
      if (c === 0x3a /* : */) {
        stack[n - 1] = OBJECT_VALUE
        state = BEGIN_VALUE
        return CONTINUE
      }
      return fail(i, 'after object key')
    }
    if (top === OBJECT_VALUE) {
      if (c === 0x2c /* , */) {
        stack[n - 1] = OBJECT_KEY
        state = BEGIN_STRING
        return CONTINUE
      }
      if (c === 0x7d /* } */) return pop()
      return fail(i, 'after object key:value pair')
    }
    if (c === 0x2c) {
      state = BEGIN_VALUE
      return CONTINUE
    }
    if (c === 0x5d /* ] */) return pop()
    return fail(i, 'after array element')
  }
  const pop = (): number => {
    stack.pop()
    state = END_VALUE
    return stack.length === 0 ? END_AFTER : CONTINUE
  }
  const beginValue = (c: number, i: number): number => {
    if (isSpace(c)) return CONTINUE
    if (begin < 0) begin = i
    switch (c) {
      case 0x7b: // {
        push(i, OBJECT_KEY)
        state = BEGIN_STRING_OR_EMPTY
        return CONTINUE
      case 0x5b: // [
        push(i, ARRAY_VALUE)
        state = BEGIN_VALUE_OR_EMPTY
        return CONTINUE
      case 0x22: // "
        state = IN_STRING
        return CONTINUE
      case 0x2d: // -
        state = NEG
        return CONTINUE
      case 0x30:
        state = ZERO
        return CONTINUE
      case 0x74: // t
        return startLiteral('true')
      case 0x66: // f
        return startLiteral('false')
      case 0x6e: // n
        return startLiteral('null')
    }
    if (c >= 0x31 && c <= 0x39) {
      state = ONE
      return CONTINUE
    }
    return fail(i, 'looking for beginning of value')
  }
  const startLiteral = (name: string): number => {
    literalName = name
    literal = name.slice(1)
    state = LITERAL
    return CONTINUE
  }
  const zero = (c: number, i: number): number => {
    if (c === 0x2e) {
      state = DOT
      return CONTINUE
    }
    if (c === 0x65 || c === 0x45) {
      state = EXP
      return CONTINUE
    }
    return endValue(c, i)
  }
  const beginString = (c: number, i: number): number => {
    if (isSpace(c)) return CONTINUE
    if (c === 0x22) {
      state = IN_STRING
      return CONTINUE
    }
    return fail(i, 'looking for beginning of object key string')
  }
  const expSign = (c: number, i: number): number => {
    if (isDigit(c)) {
      state = EXP0
      return CONTINUE
    }
    return fail(i, 'in exponent of numeric literal')
  }

  const step = (c: number, i: number): number => {
    switch (state) {
      case BEGIN_VALUE:
        return beginValue(c, i)
      case BEGIN_VALUE_OR_EMPTY:
        if (isSpace(c)) return CONTINUE
        if (c === 0x5d) return endValue(c, i)
        return beginValue(c, i)
      case BEGIN_STRING_OR_EMPTY:
        if (isSpace(c)) return CONTINUE
        if (c === 0x7d) {
          stack[stack.length - 1] = OBJECT_VALUE
          return endValue(c, i)
        }
        return beginString(c, i)
      case BEGIN_STRING:
        return beginString(c, i)
      case END_VALUE:
        return endValue(c, i)
      case IN_STRING:
        if (c === 0x22) state = END_VALUE
        else if (c === 0x5c) state = IN_STRING_ESC
        else if (c < 0x20) fail(i, 'in string literal')
        return CONTINUE
      case IN_STRING_ESC:
        if ('bfnrt\\/"'.includes(String.fromCharCode(c))) state = IN_STRING
        else if (c === 0x75) state = ESC_U
        else fail(i, 'in string escape code')
        return CONTINUE
      case ESC_U:
      case ESC_U + 1:
      case ESC_U + 2:
      case ESC_U + 3:
        if (!isHex(c)) fail(i, 'in \\u hexadecimal character escape')
        state = state === ESC_U + 3 ? IN_STRING : state + 1
        return CONTINUE
      case NEG:
        if (c === 0x30) state = ZERO
        else if (c >= 0x31 && c <= 0x39) state = ONE
        else fail(i, 'in numeric literal')
        return CONTINUE
      case ONE:
        if (isDigit(c)) return CONTINUE
        return zero(c, i)
      case ZERO:
        return zero(c, i)
      case DOT:
        if (isDigit(c)) {
          state = DOT0
          return CONTINUE
        }
        return fail(i, 'after decimal point in numeric literal')
      case DOT0:
        if (isDigit(c)) return CONTINUE
        if (c === 0x65 || c === 0x45) {
          state = EXP
          return CONTINUE
        }
        return endValue(c, i)
      case EXP:
        if (c === 0x2b || c === 0x2d) {
          state = EXP_SIGN
          return CONTINUE
        }
        return expSign(c, i)
      case EXP_SIGN:
        return expSign(c, i)
      case EXP0:
        if (isDigit(c)) return CONTINUE
        return endValue(c, i)
      case LITERAL: {
        const want = literal.charCodeAt(0)
        if (c !== want) fail(i, `in literal ${literalName} (expecting '${literal[0]}')`)
        literal = literal.slice(1)
        if (literal === '') state = END_VALUE
        return CONTINUE
      }
    }
    throw new Error(`unreachable scanner state ${state}`)
  }

  for (let i = start; i < text.length; i++) {
    const r = step(text.charCodeAt(i), i)
    if (r === END_BEFORE) return { begin, end: i }
    if (r === END_AFTER) return { begin, end: i + 1 }
  }
  // At EOF Go feeds the scanner a space: a number or literal at the top level is then complete.
  let complete = false
  try {
    complete = step(0x20, text.length) === END_BEFORE
  } catch {
    // a value cut short: unexpected EOF below
  }
  if (complete) return { begin, end: text.length }
  throw new GoJsonSyntaxError(begin < 0 ? 'EOF' : 'unexpected EOF')
}

/**
 * Decodes the first JSON value of `text` (Go's `Decoder.Decode` into an `interface{}`-like tree):
 * objects and arrays are plain JS objects and arrays registered in the side table
 * ({@link jsonMembers}, {@link jsonElementRaws}), numbers are JS numbers (their exact text is in
 * the side table), strings are unescaped as Go does (a lone surrogate becomes U+FFFD). Throws
 * {@link GoJsonSyntaxError}.
 */
export function decodeGoJson(text: string, start = 0): GoJsonValue {
  const { begin, end } = scanGoJsonValue(text, start)
  const value = buildValue(text, begin)
  return { value, raw: text.slice(begin, end), kind: kindAt(text, begin), end }
}

/** The kind of the (valid) JSON value starting at `i`. */
function kindAt(text: string, i: number): JsonKind {
  switch (text[i]) {
    case '{':
      return 'object'
    case '[':
      return 'array'
    case '"':
      return 'string'
    case 't':
    case 'f':
      return 'bool'
    case 'n':
      return 'null'
    default:
      return 'number'
  }
}

type Frame =
  | { array: false; container: Record<string, unknown>; members: JsonMember[]; key: string; valueStart: number; start: number }
  | { array: true; container: unknown[]; raws: string[]; valueStart: number; start: number }

/** Builds the value starting at `i` of a text {@link scanGoJsonValue} has validated. */
function buildValue(text: string, i: number): unknown {
  const stack: Frame[] = []
  const skip = (): void => {
    while (i < text.length && isSpace(text.charCodeAt(i))) i++
  }
  // Reads `"key" :` at i and leaves i at the member's value.
  const readKey = (frame: Frame & { array: false }): void => {
    skip()
    const close = stringEnd(text, i)
    frame.key = unquoteGo(text.slice(i, close + 1))
    i = close + 1
    skip()
    i++ // ':'
    skip()
    frame.valueStart = i
  }
  for (;;) {
    skip()
    const valueStart = i
    let value: unknown
    const c = text[i]
    if (c === '{') {
      i++
      skip()
      const container: Record<string, unknown> = {}
      const members: JsonMember[] = []
      membersOf.set(container, members)
      if (text[i] !== '}') {
        const frame: Frame = { array: false, container, members, key: '', valueStart: i, start: valueStart }
        stack.push(frame)
        readKey(frame)
        continue
      }
      i++
      value = container
    } else if (c === '[') {
      i++
      skip()
      const container: unknown[] = []
      elementRawsOf.set(container, [])
      if (text[i] !== ']') {
        stack.push({ array: true, container, raws: elementRawsOf.get(container)!, valueStart: i, start: valueStart })
        continue
      }
      i++
      value = container
    } else if (c === '"') {
      const close = stringEnd(text, i)
      value = unquoteGo(text.slice(i, close + 1))
      i = close + 1
    } else if (c === 't') {
      value = true
      i += 4
    } else if (c === 'f') {
      value = false
      i += 5
    } else if (c === 'n') {
      value = null
      i += 4
    } else {
      NUMBER.lastIndex = i
      const m = NUMBER.exec(text)!
      value = Number(m[0])
      i += m[0].length
    }
    let raw = text.slice(valueStart, i)
    // Attach the finished value to its container; close containers that end here.
    for (;;) {
      const frame = stack[stack.length - 1]
      if (frame === undefined) return value
      if (frame.array) {
        frame.container.push(value)
        frame.raws.push(raw)
      } else {
        frame.members.push({ key: frame.key, value, raw })
        Object.defineProperty(frame.container, frame.key, { value, writable: true, enumerable: true, configurable: true })
      }
      skip()
      if (text[i] === ',') {
        i++
        if (frame.array) {
          skip()
          frame.valueStart = i
        } else readKey(frame)
        break
      }
      i++ // '}' or ']'
      stack.pop()
      value = frame.container
      raw = text.slice(frame.start, i)
    }
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y

/** The index of the quote closing the (valid) string opened at `open`. */
function stringEnd(text: string, open: number): number {
  for (let j = open + 1; ; j++) {
    const c = text.charCodeAt(j)
    if (c === 0x5c) j++
    else if (c === 0x22) return j
  }
}

/**
 * Go's `unquote` of a valid JSON string literal: escapes decoded, a `\u` surrogate that does not
 * pair up becomes U+FFFD, and so does a lone surrogate in the text itself (Go replaces invalid UTF-8).
 */
export function unquoteGo(literal: string): string {
  const body = literal.slice(1, -1)
  if (!body.includes('\\')) return replaceLoneSurrogates(body)
  let out = ''
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!
    if (ch !== '\\') {
      out += ch
      continue
    }
    const e = body[++i]!
    switch (e) {
      case 'b':
        out += '\b'
        break
      case 'f':
        out += '\f'
        break
      case 'n':
        out += '\n'
        break
      case 'r':
        out += '\r'
        break
      case 't':
        out += '\t'
        break
      case 'u': {
        const unit = parseInt(body.slice(i + 1, i + 5), 16)
        i += 4
        if (unit >= 0xd800 && unit < 0xe000) {
          // Go pairs it with an immediately following \u escape, else writes U+FFFD.
          if (unit < 0xdc00 && body[i + 1] === '\\' && body[i + 2] === 'u') {
            const low = parseInt(body.slice(i + 3, i + 7), 16)
            if (low >= 0xdc00 && low < 0xe000) {
              out += String.fromCharCode(unit, low)
              i += 6
              break
            }
          }
          out += '\ufffd'
        } else out += String.fromCharCode(unit)
        break
      }
      default: // " \ /
        out += e
    }
  }
  return replaceLoneSurrogates(out)
}

function replaceLoneSurrogates(s: string): string {
  return s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
}

/**
 * Go's `quoteChar` for a scanner error: the character's first UTF-8 byte, as a rune, in single
 * quotes (`'b'`, `'\''`, `'"'`, `'\x01'`, `'Ã'` for the lead byte of `é`).
 */
function quoteChar(text: string, i: number): string {
  const cp = i < text.length ? text.codePointAt(i)! : 0x20
  const byte = cp < 0x80 ? cp : cp < 0x800 ? 0xc0 | (cp >> 6) : cp < 0x10000 ? 0xe0 | (cp >> 12) : 0xf0 | (cp >> 18)
  if (byte === 0x27) return `'\\''`
  if (byte === 0x22) return `'"'`
  const quoted = goQuote(String.fromCodePoint(byte))
  return `'${quoted.slice(1, -1)}'`
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u
const SHORT_ESCAPES: Record<number, string> = { 7: '\\a', 8: '\\b', 12: '\\f', 10: '\\n', 13: '\\r', 9: '\\t', 11: '\\v' }

/** Go's `strconv.Quote` (what `%q` writes). */
export function goQuote(s: string): string {
  let out = '"'
  for (const ch of replaceLoneSurrogates(s)) {
    const cp = ch.codePointAt(0)!
    if (ch === '"' || ch === '\\') out += '\\' + ch
    else if (PRINTABLE.test(ch)) out += ch
    else if (SHORT_ESCAPES[cp] !== undefined) out += SHORT_ESCAPES[cp]
    else if (cp < 0x20 || cp === 0x7f) out += '\\x' + hex(cp, 2)
    else if (cp < 0x10000) out += '\\u' + hex(cp, 4)
    else out += '\\U' + hex(cp, 8)
  }
  return out + '"'
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0')
}

const HTML_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
}

/**
 * How Go's encoder writes a `json.RawMessage` (a request's `id` and `params`): compacted
 * (whitespace outside strings dropped) with HTML characters and U+2028/U+2029 escaped; every
 * other byte, escapes included, is kept (`1.0` stays `1.0`, `"\u0041"` stays as it is).
 */
export function compactGoJson(raw: string): string {
  let out = ''
  let inString = false
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!
    if (inString) {
      if (ch === '\\') {
        out += ch + raw[++i]
        continue
      }
      if (ch === '"') inString = false
      out += HTML_ESCAPES[ch] ?? ch
    } else if (ch === '"') {
      inString = true
      out += ch
    } else if (!isSpace(ch.charCodeAt(0))) out += ch
  }
  return out
}

/** A JS string as Go's encoder writes it (HTML-escaped, a lone surrogate as `\ufffd`). */
export function goString(s: string): string {
  return encodeGoJson(s)
}

/**
 * A value as Go's `json.Encoder` writes it (no trailing newline): key order as given, HTML
 * characters escaped, bigints as bare numbers, lone surrogates as `\ufffd`.
 */
export function encodeGoJson(value: unknown): string {
  // JSON.stringify escapes only lone surrogates as \udXXX (pairs are written as they are).
  return encodeJSON(value).replace(/(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g, '$1\\ufffd')
}
