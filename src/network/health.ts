import { performance } from 'node:perf_hooks'
import type { Clock } from '../core/clock.js'
import { InvalidArgumentError } from '../core/errors.js'
import { formatRFC3339Nano, GO_ZERO_TIME } from './goTime.js'

/**
 * A node's health registry, after avalanchego `api/health`: three workers (readiness, health,
 * liveness), each holding named checks with tags and the last result of every check. Checks run
 * on the network's VIRTUAL clock: `start` runs them once, then `tick(now)` (called from
 * `Network.tick`, i.e. `advanceTime` and the realtime timer) runs them again whenever a
 * `frequency` boundary has been crossed. Answering a request only reads the cached results, so
 * it never runs a check.
 */

/** Added to every check by the worker; registering it yourself is refused (`restricted tag: "all"`). */
export const ALL_TAG = 'all'
/** Checks with this tag are part of every answer, whatever tags were asked for. */
export const APPLICATION_TAG = 'application'
/** `--health-check-frequency` default: 30s. */
export const DEFAULT_HEALTH_CHECK_FREQUENCY = 30
/**
 * Most runs one `tick` makes to catch up after a jump in time; beyond that the missed runs are
 * dropped (as a Go ticker drops ticks for a slow receiver) and the last due one runs.
 */
export const MAX_CATCH_UP_RUNS = 64

export type HealthCheckContext = {
  /** Virtual time of this run, unix seconds (may be fractional). */
  now: number
}

/** What a check returns: `details` becomes the result's `message` (omitted when undefined); `error` fails it. */
export type HealthCheckOutcome = { details?: unknown; error?: string }

export type HealthCheck = {
  name: string
  /** Tags besides `all` (which every check gets): `application`, or a subnet id for a chain check. */
  tags?: readonly string[]
  /** Returns details and an optional error. A thrown error fails the check with its message. */
  check: (ctx: HealthCheckContext) => HealthCheckOutcome | Promise<HealthCheckOutcome>
  /**
   * Readiness semantics (`RegisterMonotonicCheck`): once the check passes with details, those
   * details are kept and it never runs or fails again; timestamp and duration still update.
   */
  monotonic?: boolean
}

/**
 * `health.Result` as JSON, keys in Go's struct order: message, error, timestamp, duration,
 * contiguousFailures, timeOfFirstFailure. Optional keys are absent (not undefined) when Go omits them.
 */
export type HealthResult = {
  message?: unknown
  error?: string
  /** RFC3339Nano, UTC: the virtual time of the run. */
  timestamp: string
  /** Wall-clock nanoseconds the check took. */
  duration: number
  contiguousFailures?: number
  timeOfFirstFailure?: string
}

/** `health.APIReply`: `checks` keys in Go map order (sorted by bytes). */
export type HealthReply = { checks: Record<string, HealthResult>; healthy: boolean }

export type HealthWorkerName = 'readiness' | 'health' | 'liveness'

/** A check could not be registered; the message is avalanchego's. */
export class HealthRegistrationError extends InvalidArgumentError {
  override name = 'HealthRegistrationError'
}

export const NOT_YET_RUN_RESULT: Readonly<HealthResult> = Object.freeze({
  error: 'not yet run',
  timestamp: GO_ZERO_TIME,
  duration: 0,
})

type Stored = { result: HealthResult; json: string }

type Registered = { name: string; tags: readonly string[]; run: HealthCheck['check']; monotonic?: MonotonicCache }

/** A worker's results and schedule as plain data: what a file snapshot keeps of it. */
export type HealthWorkerState = { results: [string, HealthResult][]; nextRunAtMs: number | undefined; lastRunAtMs: number | undefined }

export type HealthScheduleOptions = {
  clock: Pick<Clock, 'nowMs'>
  /** Seconds of virtual time between runs (`--health-check-frequency`); default 30. */
  frequencySeconds?: number
}

/** Go's `%q` for the names in registration errors (printable text as is, control bytes escaped). */
function goQuote(text: string): string {
  const escapes: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\v': '\\v' }
  return `"${text.replace(/["\\\x00-\x1f\x7f]/g, (c) => escapes[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}"`
}

/** A UTF-16 surrogate: code-unit order and UTF-8 byte order differ only around them. */
const SURROGATE = /[\ud800-\udfff]/

/**
 * Go sorts map keys by their UTF-8 bytes. Without surrogates (text in the Basic Multilingual
 * Plane, every name a check writes) that is code-unit order, compared without encoding both
 * strings: health checks sort their details' keys on every run, and automine runs them every
 * thirty blocks.
 */
export function compareGoStrings(a: string, b: string): number {
  if (a === b) return 0
  if (!SURROGATE.test(a) && !SURROGATE.test(b)) return a < b ? -1 : 1
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))
}

/**
 * Details are Go maps (`map[string]interface{}`), which encoding/json writes with sorted keys.
 * Plain objects are rebuilt in that order, once, when the result is recorded.
 */
export function toGoMapOrder(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value)
  if (Array.isArray(value)) return value.map(toGoMapOrder)
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value
  const out: Record<string, unknown> = {}
  const keys = Object.keys(value)
  // Checks mostly build their details in key order already: sorted only when they are not.
  for (let i = 1; i < keys.length; i++) {
    if (compareGoStrings(keys[i - 1]!, keys[i]!) > 0) {
      keys.sort(compareGoStrings)
      break
    }
  }
  for (const key of keys) {
    const v = (value as Record<string, unknown>)[key]
    if (v !== undefined) out[key] = toGoMapOrder(v)
  }
  return out
}

/**
 * What `json.Encoder` does beyond JSON.stringify: `<`, `>`, `&`, U+2028 and U+2029 escaped
 * (SetEscapeHTML defaults to true), and a lone surrogate (which JSON.stringify writes as
 * `\udXXX`) replaced by `\ufffd`, as Go replaces invalid UTF-8.
 */
export function goEscapeHTML(json: string): string {
  return json
    .replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g, '$1\\ufffd')
}

/** Serialises a reply as Go's `json.NewEncoder(w).Encode(APIReply{…})`: HTML-escaped, sorted map keys, trailing newline. */
export function encodeHealthReply(reply: HealthReply): string {
  const names = Object.keys(reply.checks).sort(compareGoStrings)
  const parts = names.map((name) => `${JSON.stringify(name)}:${JSON.stringify(reply.checks[name])}`)
  return `${goEscapeHTML(`{"checks":{${parts.join(',')}},"healthy":${reply.healthy}}`)}\n`
}

/**
 * One of the three workers. Results start as "not yet run" (failing); every run replaces each
 * result following `worker.runCheck`: on failure `contiguousFailures` counts up and
 * `timeOfFirstFailure` keeps the first failing run's time; a pass clears both.
 */
export class HealthWorker {
  readonly name: HealthWorkerName
  readonly #checks = new Map<string, Registered>()
  readonly #results = new Map<string, Stored>()
  /** tag → names of the checks carrying it (`all` included). */
  readonly #tags = new Map<string, Set<string>>()
  #clock: Pick<Clock, 'nowMs'> | undefined
  #frequencyMs = DEFAULT_HEALTH_CHECK_FREQUENCY * 1000
  #nextRunAtMs: number | undefined
  #lastRunAtMs: number | undefined
  /** Runs and ticks are serialised: a tick that arrives while checks run waits for them. */
  #queue: Promise<unknown> = Promise.resolve()

  constructor(name: HealthWorkerName) {
    this.name = name
  }

  /** `RegisterCheck` (or `RegisterMonotonicCheck` with `monotonic`). The result is "not yet run" until the next run. */
  register(check: HealthCheck): void {
    const tags = [...(check.tags ?? [])]
    if (tags.includes(ALL_TAG)) throw new HealthRegistrationError(`restricted tag: ${goQuote(ALL_TAG)}`)
    if (this.#checks.has(check.name)) throw new HealthRegistrationError(`duplicate check: ${goQuote(check.name)}`)
    for (const tag of [...tags, ALL_TAG]) {
      let names = this.#tags.get(tag)
      if (!names) this.#tags.set(tag, (names = new Set()))
      names.add(check.name)
    }
    const cache = check.monotonic ? monotonic(check.check) : undefined
    this.#checks.set(check.name, { name: check.name, tags, run: cache?.run ?? check.check, ...(cache ? { monotonic: cache } : {}) })
    this.#store(check.name, { ...NOT_YET_RUN_RESULT })
  }

  /** Names of the registered checks, in registration order. */
  get checkNames(): string[] {
    return [...this.#checks.keys()]
  }

  /**
   * `worker.Results(tags...)`: no tags means every check; `application` checks are always
   * included; unknown tags add nothing; several tags give the union. `healthy` is true when no
   * selected result has an error. Reads cached results only.
   */
  results(tags: readonly string[] = []): HealthReply {
    const checks: Record<string, HealthResult> = {}
    let healthy = true
    for (const name of this.#select(tags)) {
      const stored = this.#results.get(name)!
      checks[name] = stored.result
      if (stored.result.error !== undefined) healthy = false
    }
    return { checks, healthy }
  }

  /** The Go JSON body of `results(tags)` (with trailing newline), built from per-result JSON cached at run time. */
  encodeResults(tags: readonly string[] = []): { body: string; healthy: boolean } {
    let healthy = true
    const parts: string[] = []
    for (const name of this.#select(tags)) {
      const stored = this.#results.get(name)!
      if (stored.result.error !== undefined) healthy = false
      parts.push(`${JSON.stringify(name)}:${stored.json}`)
    }
    return { body: `${goEscapeHTML(`{"checks":{${parts.join(',')}},"healthy":${healthy}}`)}\n`, healthy }
  }

  /** Runs every registered check once (checks registered meanwhile wait for the next run); `now` is virtual unix seconds. */
  runAll(now: number): Promise<void> {
    const run = this.#queue.then(() => this.#runAll(Math.round(now * 1000)))
    this.#queue = run.catch(() => undefined)
    return run
  }

  /**
   * `worker.Start`: runs every check now, then once per `frequencySeconds` of virtual time as
   * `tick` is called. No timer of its own. Calling it again changes nothing (`startOnce`).
   */
  async start(options: HealthScheduleOptions): Promise<void> {
    const frequency = options.frequencySeconds ?? DEFAULT_HEALTH_CHECK_FREQUENCY
    if (!(frequency > 0) || !Number.isFinite(frequency)) throw new InvalidArgumentError('health-check-frequency must be positive')
    if (this.#clock) return
    this.#clock = options.clock
    this.#frequencyMs = Math.max(1, Math.round(frequency * 1000))
    const now = options.clock.nowMs()
    this.#nextRunAtMs = now
    await this.tick(now / 1000)
  }

  /** Stops scheduling (`worker.Stop`); `tick` does nothing afterwards. */
  stop(): void {
    this.#clock = undefined
    this.#nextRunAtMs = undefined
  }

  /** Virtual unix seconds of the next scheduled run, or undefined when not started. */
  get nextRunAt(): number | undefined {
    return this.#nextRunAtMs === undefined ? undefined : this.#nextRunAtMs / 1000
  }

  /** Virtual unix seconds of the last run, or undefined before the first. */
  get lastRunAt(): number | undefined {
    return this.#lastRunAtMs === undefined ? undefined : this.#lastRunAtMs / 1000
  }

  /**
   * Runs the checks for every frequency boundary crossed up to `now` (default: the clock's
   * time), each run stamped with its due time, as a ticker would have fired them. After a jump
   * of more than {@link MAX_CATCH_UP_RUNS} periods only the last due run happens. If time went
   * backwards (a snapshot revert) the schedule restarts from now. Returns the number of runs.
   */
  tick(now?: number): Promise<number> {
    const run = this.#queue.then(() => this.#tick(now))
    this.#queue = run.catch(() => undefined)
    return run
  }

  /** The results and schedule (a file snapshot saves them). */
  exportState(): HealthWorkerState {
    return { results: [...this.#results].map(([name, stored]) => [name, stored.result]), nextRunAtMs: this.#nextRunAtMs, lastRunAtMs: this.#lastRunAtMs }
  }

  /**
   * Puts back saved results and schedule (loading a file snapshot; checks saved but not registered
   * are skipped). A monotonic check keeps the details of its saved passing result, as it did.
   */
  importState(state: HealthWorkerState): void {
    for (const [name, result] of state.results) {
      const check = this.#checks.get(name)
      if (!check) continue
      this.#store(name, result)
      check.monotonic?.set(result.error === undefined ? result.message : undefined)
    }
    if (this.#clock) this.#nextRunAtMs = state.nextRunAtMs
    this.#lastRunAtMs = state.lastRunAtMs
  }

  async #tick(now: number | undefined): Promise<number> {
    const clock = this.#clock
    if (!clock || this.#nextRunAtMs === undefined) return 0
    const nowMs = now === undefined ? clock.nowMs() : Math.round(now * 1000)
    if (this.#lastRunAtMs !== undefined && nowMs < this.#lastRunAtMs) this.#nextRunAtMs = nowMs
    if (nowMs < this.#nextRunAtMs) return 0
    const due = Math.floor((nowMs - this.#nextRunAtMs) / this.#frequencyMs) + 1
    let at = this.#nextRunAtMs
    if (due > MAX_CATCH_UP_RUNS) at += (due - 1) * this.#frequencyMs
    let runs = 0
    for (; at <= nowMs; at += this.#frequencyMs) {
      await this.#runAll(at)
      runs++
    }
    this.#nextRunAtMs = at
    return runs
  }

  #select(tags: readonly string[]): string[] {
    const wanted = new Set(tags.length === 0 ? [ALL_TAG] : tags)
    wanted.add(APPLICATION_TAG)
    const names = new Set<string>()
    for (const tag of wanted) for (const name of this.#tags.get(tag) ?? []) names.add(name)
    return [...names].sort(compareGoStrings)
  }

  async #runAll(nowMs: number): Promise<void> {
    this.#lastRunAtMs = nowMs
    const timestamp = formatRFC3339Nano(BigInt(nowMs) * 1_000_000n)
    const now = nowMs / 1000
    await Promise.all([...this.#checks.values()].map((check) => this.#runCheck(check, now, timestamp)))
  }

  async #runCheck(check: Registered, now: number, timestamp: string): Promise<void> {
    const start = performance.now()
    let outcome: HealthCheckOutcome
    try {
      // A synchronous check is timed without a trip through the microtask queue, where the other checks' work would be counted too.
      const returned = check.run({ now })
      outcome = returned instanceof Promise ? await returned : returned
    } catch (error) {
      outcome = { error: error instanceof Error ? error.message : String(error) }
    }
    const duration = Math.round((performance.now() - start) * 1e6)
    const prev = this.#results.get(check.name)?.result ?? NOT_YET_RUN_RESULT
    const failed = outcome.error !== undefined
    const previousFailures = prev.contiguousFailures ?? 0
    const firstFailure = !failed ? undefined : previousFailures > 0 ? prev.timeOfFirstFailure : timestamp
    // Written out in the JSON's key order: spreads of conditional objects were most of a run's own time.
    const result = {} as HealthResult
    if (outcome.details !== undefined) result.message = toGoMapOrder(outcome.details)
    if (failed) result.error = outcome.error
    result.timestamp = timestamp
    result.duration = duration
    if (failed) result.contiguousFailures = previousFailures + 1
    if (firstFailure !== undefined) result.timeOfFirstFailure = firstFailure
    this.#store(check.name, result)
  }

  #store(name: string, result: HealthResult): void {
    this.#results.set(name, { result, json: JSON.stringify(result) })
  }
}

type MonotonicCache = { run: HealthCheck['check']; set(details: unknown): void }

/** `RegisterMonotonicCheck`'s wrapper: the first passing details (when defined) are returned for ever after. */
function monotonic(check: HealthCheck['check']): MonotonicCache {
  let cached: unknown
  const remember = (outcome: HealthCheckOutcome) => {
    if (outcome.error === undefined && outcome.details !== undefined) cached = outcome.details
    return outcome
  }
  const run: HealthCheck['check'] = (ctx) => {
    if (cached !== undefined) return { details: cached }
    const outcome = check(ctx)
    return outcome instanceof Promise ? outcome.then(remember) : remember(outcome)
  }
  return {
    run,
    set: (details) => {
      cached = details
    },
  }
}

/**
 * `health.health`: one node's three workers. Readiness checks are registered monotonic, as
 * `RegisterReadinessCheck` does. All three share the schedule.
 */
export class NodeHealth {
  readonly readiness = new HealthWorker('readiness')
  readonly health = new HealthWorker('health')
  readonly liveness = new HealthWorker('liveness')

  registerReadinessCheck(check: Omit<HealthCheck, 'monotonic'>): void {
    this.readiness.register({ ...check, monotonic: true })
  }

  registerHealthCheck(check: Omit<HealthCheck, 'monotonic'>): void {
    this.health.register(check)
  }

  registerLivenessCheck(check: Omit<HealthCheck, 'monotonic'>): void {
    this.liveness.register(check)
  }

  worker(name: HealthWorkerName): HealthWorker {
    return this[name]
  }

  /** Starts the three workers (each runs its checks now). Throws `health-check-frequency must be positive`. */
  async start(options: HealthScheduleOptions): Promise<void> {
    const frequency = options.frequencySeconds ?? DEFAULT_HEALTH_CHECK_FREQUENCY
    if (!(frequency > 0) || !Number.isFinite(frequency)) throw new InvalidArgumentError('health-check-frequency must be positive')
    await Promise.all([this.readiness.start(options), this.health.start(options), this.liveness.start(options)])
  }

  /** Runs whatever is due at `now` (virtual unix seconds; default the clock's). Call from `Network.tick`. */
  async tick(now?: number): Promise<void> {
    await Promise.all([this.readiness.tick(now), this.health.tick(now), this.liveness.tick(now)])
  }

  /** The three workers' results and schedules (a file snapshot saves them). */
  exportState(): Record<HealthWorkerName, HealthWorkerState> {
    return { readiness: this.readiness.exportState(), health: this.health.exportState(), liveness: this.liveness.exportState() }
  }

  importState(state: Record<HealthWorkerName, HealthWorkerState>): void {
    this.readiness.importState(state.readiness)
    this.health.importState(state.health)
    this.liveness.importState(state.liveness)
  }

  stop(): void {
    this.readiness.stop()
    this.health.stop()
    this.liveness.stop()
  }
}

export function createNodeHealth(): NodeHealth {
  return new NodeHealth()
}

/** Which worker each GET route reports (node.go `initHealthAPI`); `/ext/health` also takes JSON-RPC for non-GET methods. */
export const HEALTH_GET_ROUTES = {
  '/ext/health': 'health',
  '/ext/health/health': 'health',
  '/ext/health/readiness': 'readiness',
  '/ext/health/liveness': 'liveness',
} as const satisfies Record<string, HealthWorkerName>

/**
 * The GET handler (`NewGetHandler`): tags are the repeated `?tag=` values. 200 when healthy,
 * 503 otherwise; the body is the JSON reply with a trailing newline, served as
 * `Content-Type: application/json`. `/ext/health/{health,readiness,liveness}` answer every method
 * this way; `/ext/health` only GET.
 */
export function healthGet(worker: HealthWorker, tags: readonly string[] = []): { status: 200 | 503; body: string } {
  const { body, healthy } = worker.encodeResults(tags)
  return { status: healthy ? 200 : 503, body }
}
