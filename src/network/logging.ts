import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { DestinationStream, Logger as PinoLogger } from 'pino'
import { InvalidArgumentError, InvalidStateError, NotFoundError } from '../core/errors.js'

/**
 * A node's named loggers, as avalanchego's log factory (`utils/logging/factory.go`) has them: one
 * per chain (named by its primary alias) plus `main` and `vm-factory`. Each logger has two
 * thresholds: `logLevel` decides what is written to `<dir>/<name>.log`, `displayLevel` what is
 * written to the display stream (stdout in the CLI, a no-op sink by default). Lines are pino JSON.
 */

/**
 * avalanchego's levels (`utils/logging/level.go`: `Verbo Level = iota - 9`), lowest first.
 * TRACE sits above DEBUG there, unlike most loggers.
 */
export const LOG_LEVELS = {
  VERBO: -9,
  DEBUG: -8,
  TRACE: -7,
  INFO: -6,
  WARN: -5,
  ERROR: -4,
  FATAL: -3,
  OFF: -2,
} as const

export type LogLevelName = keyof typeof LOG_LEVELS
/** A level's internal value; values outside {@link LOG_LEVELS} print as `UNKNO`. */
export type LogLevel = number
/** A level as callers may give it: its value, or its name in upper or lower case. */
export type LogLevelInput = LogLevel | LogLevelName | Lowercase<LogLevelName>
/** The levels a line can be written at. */
export type LineLevelName = Exclude<LogLevelName, 'OFF'>

/** pino levels (higher is more severe); OFF is pino's `silent`. */
const PINO_LEVELS: Record<Lowercase<LineLevelName>, number> = {
  verbo: 10,
  debug: 20,
  trace: 25,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
}
type PinoLevelName = keyof typeof PINO_LEVELS
type NodePino = PinoLogger<PinoLevelName, true>

const LEVELS_ASCENDING = Object.entries(LOG_LEVELS) as [LogLevelName, number][]

/** Go's `%q` of a string: double quotes, Go escapes, printable Unicode kept. */
export function goQuote(str: string): string {
  const escapes: Record<string, string> = {
    '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v',
    '"': '\\"', '\\': '\\\\',
  }
  let out = '"'
  for (const char of str) {
    const code = char.codePointAt(0)!
    const escaped = escapes[char]
    if (escaped !== undefined) out += escaped
    else if (code < 0x80 && (code < 0x20 || code === 0x7f)) out += `\\x${code.toString(16).padStart(2, '0')}`
    else if (char === ' ' || /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u.test(char)) out += char
    else if (code > 0xffff) out += `\\U${code.toString(16).padStart(8, '0')}`
    else out += `\\u${code.toString(16).padStart(4, '0')}`
  }
  return `${out}"`
}

/** Go's `unicode.ToUpper` per rune: JS would expand `ﬀ` to `FF`, Go keeps it (so `oﬀ` is not OFF). */
function goToUpper(str: string): string {
  let out = ''
  for (const char of str) {
    const upper = char.toUpperCase()
    out += [...upper].length === 1 ? upper : char
  }
  return out
}

/** `logging.ToLevel`: case-insensitive; anything else is `unknown log level: "<s>"`. */
export function parseLogLevel(str: string): LogLevel {
  const upper = goToUpper(str)
  if (Object.hasOwn(LOG_LEVELS, upper)) return LOG_LEVELS[upper as LogLevelName]
  throw new InvalidArgumentError(`unknown log level: ${goQuote(str)}`)
}

/** `Level.String()`: upper case, `UNKNO` for a value that is no level. */
export function formatLogLevel(level: LogLevel): LogLevelName | 'UNKNO' {
  return LEVELS_ASCENDING.find(([, value]) => value === level)?.[0] ?? 'UNKNO'
}

/** The pino threshold that writes exactly the lines at or above `level` (zap's `lvl >= level`). */
function pinoThreshold(level: LogLevel): PinoLevelName | 'silent' {
  const found = LEVELS_ASCENDING.find(([name, value]) => value >= level && name !== 'OFF')
  return found ? (found[0].toLowerCase() as PinoLevelName) : 'silent'
}

function toLevel(level: LogLevelInput): LogLevel {
  return typeof level === 'number' ? level : parseLogLevel(level)
}

export class LoggerNotFoundError extends NotFoundError {
  override name = 'LoggerNotFoundError'
}

/** A sink that drops everything: the display stream when none is given (tests). */
export const NULL_DISPLAY: DestinationStream = { write() {} }

type Sinks = {
  dir: string | undefined
  display: DestinationStream
  sync: boolean
  opened: { end(): void }[]
}

/**
 * pino, required at the first line a logger writes or displays rather than with the module: a
 * start writes none (INFO lines are written by what happens later), and pino with its streams is
 * ~1–2 ms of a cold start to load. A library handle, loaded once per process.
 */
let pinoModule: typeof import('pino') | undefined
const loadPino = (): typeof import('pino') => (pinoModule ??= createRequire(import.meta.url)('pino') as typeof import('pino'))

function createPino(name: string, level: LogLevel, stream: DestinationStream): NodePino {
  const pino = loadPino()
  return pino<PinoLevelName, true>(
    {
      name,
      level: pinoThreshold(level),
      customLevels: PINO_LEVELS,
      useOnlyCustomLevels: true,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label.toUpperCase() }) },
    },
    stream,
  )
}

/**
 * One named logger. Lines below a threshold cost a comparison; the file opens at the first line
 * written, and the display's pino is made at the first line displayed (a network makes a logger per
 * node and chain, ~5 ms of a cold start when each made its pino up front, mostly never used).
 */
export class NodeLogger {
  private logThreshold: LogLevel
  private displayThreshold: LogLevel
  private file: NodePino | undefined
  private display: NodePino | undefined
  private closed = false

  constructor(
    readonly name: string,
    logLevel: LogLevel,
    displayLevel: LogLevel,
    private readonly sinks: Sinks,
  ) {
    this.logThreshold = logLevel
    this.displayThreshold = displayLevel
  }

  /** The log file, `<dir>/<name>.log`, or `undefined` when the node writes no files. */
  get path(): string | undefined {
    return this.sinks.dir === undefined ? undefined : join(this.sinks.dir, `${this.name}.log`)
  }

  get logLevel(): LogLevel {
    return this.logThreshold
  }

  get displayLevel(): LogLevel {
    return this.displayThreshold
  }

  setLogLevel(level: LogLevelInput): void {
    this.logThreshold = toLevel(level)
    if (this.file) this.file.level = pinoThreshold(this.logThreshold)
  }

  setDisplayLevel(level: LogLevelInput): void {
    this.displayThreshold = toLevel(level)
    if (this.display) this.display.level = pinoThreshold(this.displayThreshold)
  }

  /** Whether a line at `level` would be written or displayed. */
  isEnabled(level: LineLevelName): boolean {
    const value = LOG_LEVELS[level]
    return value >= this.logThreshold || value >= this.displayThreshold
  }

  log(level: LineLevelName, msg: string, fields: Record<string, unknown> = {}): void {
    if (this.closed) return
    const value = LOG_LEVELS[level]
    const method = level.toLowerCase() as PinoLevelName
    if (value >= this.logThreshold) this.fileLogger()?.[method](fields, msg)
    // No display given: the line has nowhere to go, and formatting it was most of a quiet node's logging.
    if (value >= this.displayThreshold && this.sinks.display !== NULL_DISPLAY) (this.display ??= createPino(this.name, this.displayThreshold, this.sinks.display))[method](fields, msg)
  }

  verbo(msg: string, fields?: Record<string, unknown>): void {
    this.log('VERBO', msg, fields)
  }
  debug(msg: string, fields?: Record<string, unknown>): void {
    this.log('DEBUG', msg, fields)
  }
  trace(msg: string, fields?: Record<string, unknown>): void {
    this.log('TRACE', msg, fields)
  }
  info(msg: string, fields?: Record<string, unknown>): void {
    this.log('INFO', msg, fields)
  }
  warn(msg: string, fields?: Record<string, unknown>): void {
    this.log('WARN', msg, fields)
  }
  error(msg: string, fields?: Record<string, unknown>): void {
    this.log('ERROR', msg, fields)
  }
  /** Written at FATAL; unlike avalanchego's, it does not stop anything. */
  fatal(msg: string, fields?: Record<string, unknown>): void {
    this.log('FATAL', msg, fields)
  }

  /** Stops writing; later lines are dropped. */
  close(): void {
    this.closed = true
  }

  private fileLogger(): NodePino | undefined {
    const path = this.path
    if (path === undefined) return undefined
    if (!this.file) {
      const destination = loadPino().destination({ dest: path, sync: this.sinks.sync, mkdir: true })
      this.sinks.opened.push(destination)
      this.file = createPino(this.name, this.logThreshold, destination)
    }
    return this.file
  }
}

export type NodeLoggersOptions = {
  /** Directory of the `.log` files (`<dataDir>/logs`); without one nothing is written to files. */
  dir?: string
  /** `--log-level`, default INFO. */
  logLevel?: LogLevelInput
  /** `--log-display-level`, default: the log level. */
  displayLevel?: LogLevelInput
  /** Where displayed lines go (process.stdout in the CLI); default {@link NULL_DISPLAY}. */
  display?: DestinationStream
  /** Chain loggers, by primary alias; default `P`, `X`, `C`. `main` and `vm-factory` always exist. */
  chains?: readonly string[]
  /** Synchronous file writes (default true: a line is on disk when the call returns). */
  sync?: boolean
}

export type LoggerLevels = { logLevel: LogLevelName | 'UNKNO'; displayLevel: LogLevelName | 'UNKNO' }

/** The node's logger registry (`logging.Factory`). */
export class NodeLoggers {
  readonly logLevel: LogLevel
  readonly displayLevel: LogLevel
  private readonly loggers = new Map<string, NodeLogger>()
  private readonly sinks: Sinks

  constructor(options: NodeLoggersOptions = {}) {
    this.logLevel = toLevel(options.logLevel ?? 'INFO')
    this.displayLevel = options.displayLevel === undefined ? this.logLevel : toLevel(options.displayLevel)
    this.sinks = { dir: options.dir, display: options.display ?? NULL_DISPLAY, sync: options.sync ?? true, opened: [] }
    for (const name of ['main', 'vm-factory', ...(options.chains ?? ['P', 'X', 'C'])]) this.make(name)
  }

  get dir(): string | undefined {
    return this.sinks.dir
  }

  /** `Make`/`MakeChain`: a new logger at the node's levels. */
  make(name: string): NodeLogger {
    if (this.loggers.has(name)) throw new InvalidStateError(`logger with name ${goQuote(name)} already exists`)
    const logger = new NodeLogger(name, this.logLevel, this.displayLevel, this.sinks)
    this.loggers.set(name, logger)
    return logger
  }

  /** The logger called `name`; `logger with name "<name>" not found` otherwise. */
  get(name: string): NodeLogger {
    const logger = this.loggers.get(name)
    if (!logger) throw new LoggerNotFoundError(`logger with name ${goQuote(name)} not found`)
    return logger
  }

  has(name: string): boolean {
    return this.loggers.has(name)
  }

  /** `GetLoggerNames`, in creation order. */
  names(): string[] {
    return [...this.loggers.keys()]
  }

  getLogLevel(name: string): LogLevel {
    return this.get(name).logLevel
  }

  getDisplayLevel(name: string): LogLevel {
    return this.get(name).displayLevel
  }

  setLogLevel(name: string, level: LogLevelInput): void {
    this.get(name).setLogLevel(level)
  }

  setDisplayLevel(name: string, level: LogLevelInput): void {
    this.get(name).setDisplayLevel(level)
  }

  /** Both levels of each named logger, as the admin API writes them (keys in Go's map order). */
  levels(names: readonly string[]): Record<string, LoggerLevels> {
    const entries = names.map((name) => {
      const logger = this.get(name)
      return [name, { logLevel: formatLogLevel(logger.logLevel), displayLevel: formatLogLevel(logger.displayLevel) }] as const
    })
    entries.sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
    return Object.fromEntries(entries)
  }

  /** Closes the log files; loggers drop later lines. */
  close(): void {
    for (const logger of this.loggers.values()) logger.close()
    for (const destination of this.sinks.opened.splice(0)) destination.end()
  }
}

export function createNodeLoggers(options: NodeLoggersOptions = {}): NodeLoggers {
  return new NodeLoggers(options)
}
