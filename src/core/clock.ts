import { InvalidArgumentError } from './errors.js'

export type ClockMode = 'manual' | 'realtime'

export type ClockOptions = {
  /** `manual`: time moves only when told (or when a block needs it); `realtime`: follows the wall clock. */
  mode?: ClockMode
  /** Unix seconds at creation. Default: a fixed instant in manual mode (determinism), now in realtime mode. */
  start?: number
  /** Wall-clock source in milliseconds, injectable for tests. */
  wallNow?: () => number
}

/** 2026-01-01T00:00:00Z: the default start of a manual clock, so runs are reproducible. */
export const DEFAULT_MANUAL_START = 1_767_225_600

/**
 * 9999-12-31T23:59:59Z, the latest time the network keeps (unix seconds): the last second Go's
 * `time.Time` writes as JSON (the health API's timestamps), far below what a block header's
 * uint64 holds, and in milliseconds well inside the integers a double holds exactly, so
 * arithmetic on the clock stays exact (past 2^53 ms, adding a health period to a time is a no-op
 * and a catch-up loop never ends).
 */
export const MAX_TIME = 253_402_300_799

export type ClockSnapshot = { offsetMs: number; mode: ClockMode; anchorWallMs: number }

/**
 * The network's one clock, in milliseconds internally and unix seconds for blocks.
 * Everything time-dependent (block timestamps, upgrades, validator periods) reads it.
 */
export type Clock = {
  readonly mode: ClockMode
  /** Current time in unix seconds (integer). */
  now(): number
  /** Current time in unix milliseconds. */
  nowMs(): number
  /** Move time forward by `seconds` (may be fractional). Negative values, and times past {@link MAX_TIME}, are refused. */
  advance(seconds: number): void
  /** Jump to an absolute time in unix seconds; refused if it is before now or past {@link MAX_TIME}. */
  setTime(seconds: number, options?: { allowBackwards?: boolean }): void
  setMode(mode: ClockMode): void
  snapshot(): ClockSnapshot
  restore(snapshot: ClockSnapshot): void
}

/** A time past {@link MAX_TIME} was asked for. */
export class TimeOutOfRangeError extends InvalidArgumentError {
  override name = 'TimeOutOfRangeError'
  constructor() {
    super(`cannot move the clock past 9999-12-31T23:59:59Z (unix time ${MAX_TIME})`)
  }
}

export function createClock(options: ClockOptions = {}): Clock {
  const wallNow = options.wallNow ?? Date.now
  let mode: ClockMode = options.mode ?? 'manual'
  if (options.start !== undefined && options.start > MAX_TIME) throw new TimeOutOfRangeError()
  const startMs =
    options.start !== undefined
      ? options.start * 1000
      : mode === 'manual'
        ? DEFAULT_MANUAL_START * 1000
        : Math.floor(wallNow() / 1000) * 1000
  // Virtual time = offsetMs + (realtime ? wall - anchor : 0)
  let offsetMs = startMs
  let anchorWallMs = wallNow()

  const nowMs = () => (mode === 'realtime' ? offsetMs + (wallNow() - anchorWallMs) : offsetMs)
  const rebase = () => {
    offsetMs = nowMs()
    anchorWallMs = wallNow()
  }

  return {
    get mode() {
      return mode
    },
    now: () => Math.floor(nowMs() / 1000),
    nowMs,
    advance(seconds) {
      if (!Number.isFinite(seconds) || seconds < 0)
        throw new InvalidArgumentError(`cannot advance the clock by ${seconds} seconds`)
      rebase()
      const target = offsetMs + Math.round(seconds * 1000)
      if (target > MAX_TIME * 1000) throw new TimeOutOfRangeError()
      offsetMs = target
    },
    setTime(seconds, { allowBackwards = false } = {}) {
      if (!Number.isFinite(seconds) || seconds < 0)
        throw new InvalidArgumentError(`invalid time ${seconds}`)
      if (seconds > MAX_TIME) throw new TimeOutOfRangeError()
      rebase()
      const target = Math.round(seconds * 1000)
      if (target < offsetMs && !allowBackwards)
        throw new InvalidArgumentError(`time ${seconds} is before the current time ${Math.floor(offsetMs / 1000)}`)
      offsetMs = target
    },
    setMode(next) {
      rebase()
      mode = next
    },
    snapshot: () => ({ offsetMs: nowMs(), mode, anchorWallMs: wallNow() }),
    restore(s) {
      offsetMs = s.offsetMs
      mode = s.mode
      anchorWallMs = wallNow()
    },
  }
}
