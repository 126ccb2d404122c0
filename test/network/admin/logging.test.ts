import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { InvalidArgumentError, InvalidStateError } from '../../../src/core/errors.js'
import {
  LOG_LEVELS,
  LoggerNotFoundError,
  createNodeLoggers,
  formatLogLevel,
  goQuote,
  parseLogLevel,
  type NodeLoggers,
} from '../../../src/network/logging.js'
import { expectThrows } from '../../helpers/expectThrows.js'
import { makeTmpDir } from './tmpDir.js'

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

function withLogDir(options: Parameters<typeof createNodeLoggers>[0] = {}): { loggers: NodeLoggers; dir: string; lines: (name: string) => { level: string; msg: string }[] } {
  const tmp = makeTmpDir('logs')
  const dir = join(tmp.dir, 'logs')
  const loggers = createNodeLoggers({ dir, ...options })
  cleanups.push(() => {
    loggers.close()
    tmp.remove()
  })
  const lines = (name: string) => {
    const path = join(dir, `${name}.log`)
    if (!existsSync(path)) return []
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: string; msg: string })
  }
  return { loggers, dir, lines }
}

/** A display stream that keeps what it is given. */
function captureDisplay() {
  const lines: { level: string; msg: string; name: string }[] = []
  return { stream: { write: (line: string) => void lines.push(JSON.parse(line)) }, lines }
}

describe('levels (utils/logging/level.go)', () => {
  it('orders them as avalanchego: VERBO < DEBUG < TRACE < INFO < WARN < ERROR < FATAL < OFF', () => {
    expect(Object.entries(LOG_LEVELS).sort(([, a], [, b]) => a - b).map(([name]) => name)).toEqual([
      'VERBO', 'DEBUG', 'TRACE', 'INFO', 'WARN', 'ERROR', 'FATAL', 'OFF',
    ])
    expect(LOG_LEVELS.VERBO).toBe(-9)
    expect(LOG_LEVELS.OFF).toBe(-2)
  })

  it('parses any case and prints upper case, UNKNO for other values', () => {
    expect(parseLogLevel('debug')).toBe(LOG_LEVELS.DEBUG)
    expect(parseLogLevel('Verbo')).toBe(LOG_LEVELS.VERBO)
    expect(parseLogLevel('oFf')).toBe(LOG_LEVELS.OFF)
    expect(formatLogLevel(LOG_LEVELS.TRACE)).toBe('TRACE')
    expect(formatLogLevel(7)).toBe('UNKNO')
    expectThrows(() => parseLogLevel('LOUD'), InvalidArgumentError, 'unknown log level: "LOUD"')
    expectThrows(() => parseLogLevel(''), InvalidArgumentError, 'unknown log level: ""')
    // Go upper-cases rune by rune: the ligature ﬀ stays, so this is no OFF
    expectThrows(() => parseLogLevel('oﬀ'), InvalidArgumentError, 'unknown log level: "oﬀ"')
  })

  it('quotes as Go %q does', () => {
    expect(goQuote('foo')).toBe('"foo"')
    expect(goQuote('a"b\\c\n\t\x00\x7f')).toBe('"a\\"b\\\\c\\n\\t\\x00\\x7f"')
    expect(goQuote('é ✓')).toBe('"é ✓"')
    expect(goQuote('\u00a0\u2028')).toBe('"\\u00a0\\u2028"')
  })
})

describe('NodeLoggers (utils/logging/factory.go)', () => {
  it('has main, vm-factory and one logger per chain, at INFO by default', () => {
    const loggers = createNodeLoggers({ chains: ['P', 'X', 'C', 'dexalot'] })
    expect(loggers.names()).toEqual(['main', 'vm-factory', 'P', 'X', 'C', 'dexalot'])
    expect(loggers.levels(['main', 'C'])).toEqual({
      C: { logLevel: 'INFO', displayLevel: 'INFO' },
      main: { logLevel: 'INFO', displayLevel: 'INFO' },
    })
    expect(Object.keys(loggers.levels(loggers.names()))).toEqual(['C', 'P', 'X', 'dexalot', 'main', 'vm-factory'])
  })

  it('takes the node levels, the display level defaulting to the log level', () => {
    expect(createNodeLoggers({ logLevel: 'debug' }).levels(['main'])).toEqual({ main: { logLevel: 'DEBUG', displayLevel: 'DEBUG' } })
    expect(createNodeLoggers({ logLevel: 'WARN', displayLevel: 'OFF' }).levels(['X'])).toEqual({ X: { logLevel: 'WARN', displayLevel: 'OFF' } })
  })

  it('reports unknown and duplicate names with the node messages', () => {
    const loggers = createNodeLoggers()
    expectThrows(() => loggers.get('foo'), LoggerNotFoundError, 'logger with name "foo" not found')
    expectThrows(() => loggers.setLogLevel('a"b', 'INFO'), LoggerNotFoundError, 'logger with name "a\\"b" not found')
    expectThrows(() => loggers.getDisplayLevel(''), LoggerNotFoundError, 'logger with name "" not found')
    expectThrows(() => loggers.make('main'), InvalidStateError, 'logger with name "main" already exists')
    loggers.make('dexalot')
    expect(loggers.has('dexalot')).toBe(true)
  })

  it('sets each level on its own', () => {
    const loggers = createNodeLoggers()
    loggers.setLogLevel('C', 'VERBO')
    loggers.setDisplayLevel('P', LOG_LEVELS.ERROR)
    expect(loggers.levels(['C', 'P', 'X'])).toEqual({
      C: { logLevel: 'VERBO', displayLevel: 'INFO' },
      P: { logLevel: 'INFO', displayLevel: 'ERROR' },
      X: { logLevel: 'INFO', displayLevel: 'INFO' },
    })
    loggers.setLogLevel('X', 42)
    expect(loggers.levels(['X']).X!.logLevel).toBe('UNKNO')
  })
})

describe('what the levels let through', () => {
  it('writes <dir>/<name>.log at and above the log level only, and follows level changes', () => {
    const { loggers, lines } = withLogDir()
    const c = loggers.get('C')
    c.debug('hidden')
    c.info('shown')
    c.warn('also shown', { height: 3 })
    expect(lines('C').map((l) => [l.level, l.msg])).toEqual([['INFO', 'shown'], ['WARN', 'also shown']])
    expect(lines('C')[1]).toMatchObject({ name: 'C', height: 3 })

    loggers.setLogLevel('C', 'debug')
    c.debug('now shown')
    c.verbo('still hidden')
    expect(lines('C').map((l) => l.msg)).toEqual(['shown', 'also shown', 'now shown'])

    loggers.setLogLevel('C', 'OFF')
    c.fatal('nothing at OFF')
    expect(lines('C')).toHaveLength(3)

    loggers.setLogLevel('C', 'VERBO')
    c.verbo('everything')
    expect(lines('C').at(-1)).toMatchObject({ level: 'VERBO', msg: 'everything' })
  })

  it('puts TRACE above DEBUG, as avalanchego does', () => {
    const { loggers, lines } = withLogDir({ logLevel: 'TRACE' })
    const main = loggers.get('main')
    main.debug('debug is below trace')
    main.trace('trace')
    main.info('info')
    expect(lines('main').map((l) => l.level)).toEqual(['TRACE', 'INFO'])
  })

  it('opens a file only when a line is written, one file per logger', () => {
    const { loggers, dir } = withLogDir()
    loggers.get('X').debug('below INFO: no file')
    expect(existsSync(dir)).toBe(false)
    loggers.get('X').error('boom')
    loggers.get('vm-factory').info('hello')
    expect(readdirSync(dir).sort()).toEqual(['X.log', 'vm-factory.log'])
    expect(loggers.get('X').path).toBe(join(dir, 'X.log'))
  })

  it('displays by the display level, independently of the log level', () => {
    const display = captureDisplay()
    const { loggers, lines } = withLogDir({ display: display.stream, displayLevel: 'WARN' })
    const p = loggers.get('P')
    p.info('file only')
    p.error('both')
    expect(display.lines.map((l) => [l.name, l.level, l.msg])).toEqual([['P', 'ERROR', 'both']])
    expect(lines('P').map((l) => l.msg)).toEqual(['file only', 'both'])

    loggers.setDisplayLevel('P', 'verbo')
    loggers.setLogLevel('P', 'off')
    p.debug('display only')
    expect(display.lines.at(-1)!.msg).toBe('display only')
    expect(lines('P').map((l) => l.msg)).toEqual(['file only', 'both'])
    expect(p.isEnabled('VERBO')).toBe(true)
    loggers.setDisplayLevel('P', 'OFF')
    expect(p.isEnabled('FATAL')).toBe(false)
  })

  it('writes no file without a directory, and nothing after close', () => {
    const display = captureDisplay()
    const loggers = createNodeLoggers({ display: display.stream })
    expect(loggers.get('C').path).toBeUndefined()
    loggers.get('C').info('displayed')
    loggers.close()
    loggers.get('C').info('dropped')
    expect(display.lines.map((l) => l.msg)).toEqual(['displayed'])
  })
})
