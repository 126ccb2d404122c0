import { randomBytes } from 'node:crypto'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { Session } from 'node:inspector/promises'
import { InvalidStateError } from '../core/errors.js'
import { importModule } from '../core/importModule.js'
import { createMutex, type MutexWaitObserver } from '../core/mutex.js'

/**
 * A node's profiler (`utils/profiler/profiler.go`) on V8's instruments, reached through an
 * in-process `node:inspector` session, plus the emulator's own lock-wait record. Files, in the
 * profile directory (created as `os.MkdirAll(dir, 0o750)` would), mode 0o640, each written to a
 * temporary file in the same directory and renamed, so a reader never sees half a profile:
 *
 * - `cpu.profile`: a V8 `.cpuprofile` (open it in Chrome DevTools or speedscope). avalanchego
 *   creates the file when the profiler starts and streams into it; here it is written at stop.
 * - `mem.profile`: a V8 sampling heap profile (`.heapprofile` JSON: `{head, samples}`) of live
 *   sampled objects, taken after a full GC (`HeapProfiler.collectGarbage`, so no `--expose-gc`
 *   is needed). V8 has one heap sampler per process, started by the first profile (or by
 *   {@link Profiler.startHeapSampling}) and left running: a profile shows objects allocated
 *   since then, from every node of the process (they share one heap, as they share one thread).
 * - `lock.profile`: JSON of the waits a {@link WaitRecorder} saw (Node has no mutex profile;
 *   these are the emulator's own locks). Recorded always, not only after a CPU profile starts.
 */

/** Writes `data` to `path` through a temporary file in the same directory and a rename. */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`)
  try {
    await writeFile(temp, data, { mode: 0o640 })
    await rename(temp, path)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}

export type WaitSite = { count: number; totalWaitNs: number; maxWaitNs: number }

/**
 * Per-site statistics of lock waits: how many tasks found the lock held, how long they waited in
 * total and at most. Feed it from a mutex: `createMutex(recorder.observer('C'))`.
 */
export class WaitRecorder {
  private readonly sites = new Map<string, WaitSite>()

  record(site: string, waitNs: number): void {
    const entry = this.sites.get(site)
    if (!entry) this.sites.set(site, { count: 1, totalWaitNs: waitNs, maxWaitNs: waitNs })
    else {
      entry.count++
      entry.totalWaitNs += waitNs
      if (waitNs > entry.maxWaitNs) entry.maxWaitNs = waitNs
    }
  }

  /** A {@link MutexWaitObserver} that records under `site`. */
  observer(site: string): MutexWaitObserver {
    return (waitNs) => this.record(site, waitNs)
  }

  /** A copy of the statistics, sites sorted by name. */
  snapshot(): Record<string, WaitSite> {
    const names = [...this.sites.keys()].sort()
    return Object.fromEntries(names.map((name) => [name, { ...this.sites.get(name)! }]))
  }

  reset(): void {
    this.sites.clear()
  }
}

/** The format tag of `lock.profile`. */
export const LOCK_PROFILE_FORMAT = 'l1sim-lock-profile/1'

export const PROFILE_FILES = { cpu: 'cpu.profile', memory: 'mem.profile', lock: 'lock.profile' } as const

export class ProfilerError extends InvalidStateError {
  override name = 'ProfilerError'
}

export type ProfilerOptions = {
  /** `--profile-dir`; the node's default is `<dataDir>/profiles`. */
  dir: string
  /** The waits `lock.profile` reports; a fresh recorder by default. */
  waits?: WaitRecorder
}

export class Profiler {
  readonly dir: string
  readonly waits: WaitRecorder
  /** The admin service's lock: profiler calls run one at a time. */
  private readonly lock = createMutex()
  private session: Session | undefined
  private cpuRunning = false

  constructor(options: ProfilerOptions) {
    this.dir = options.dir
    this.waits = options.waits ?? new WaitRecorder()
  }

  get cpuProfilerRunning(): boolean {
    return this.cpuRunning
  }

  /** `StartCPUProfiler`: `cpu profiler already running` when started twice. */
  startCPUProfiler(): Promise<void> {
    return this.lock.run(async () => {
      if (this.cpuRunning) throw new ProfilerError('cpu profiler already running')
      await this.ensureDir()
      const session = await this.connect()
      await session.post('Profiler.enable')
      await session.post('Profiler.start')
      this.cpuRunning = true
    })
  }

  /** `StopCPUProfiler`: writes `cpu.profile`; `cpu profiler doesn't exist` when not running. */
  stopCPUProfiler(): Promise<void> {
    return this.lock.run(async () => {
      if (!this.cpuRunning) throw new ProfilerError("cpu profiler doesn't exist")
      this.cpuRunning = false
      const session = await this.connect()
      const { profile } = await session.post('Profiler.stop')
      await session.post('Profiler.disable')
      await this.ensureDir()
      await writeFileAtomic(join(this.dir, PROFILE_FILES.cpu), JSON.stringify(profile))
    })
  }

  /** `MemoryProfile`: a full GC, then the heap sampler's profile to `mem.profile`. */
  memoryProfile(): Promise<void> {
    return this.lock.run(async () => {
      await this.ensureDir()
      const session = await this.connect()
      await this.ensureHeapSampling(session)
      await session.post('HeapProfiler.collectGarbage')
      const { profile } = await session.post('HeapProfiler.getSamplingProfile')
      await writeFileAtomic(join(this.dir, PROFILE_FILES.memory), JSON.stringify(profile))
    })
  }

  /** `LockProfile`: the recorded lock waits to `lock.profile`. */
  lockProfile(): Promise<void> {
    return this.lock.run(async () => {
      await this.ensureDir()
      const body = {
        format: LOCK_PROFILE_FORMAT,
        description: "time tasks waited for the emulator's locks (per site: waits, total and longest wait)",
        unit: 'ns',
        sites: this.waits.snapshot(),
      }
      await writeFileAtomic(join(this.dir, PROFILE_FILES.lock), `${JSON.stringify(body, null, 2)}\n`)
    })
  }

  /** Starts the process's heap sampler now, so the first `mem.profile` covers what follows. */
  startHeapSampling(): Promise<void> {
    return this.lock.run(async () => this.ensureHeapSampling(await this.connect()))
  }

  /** Stops a running CPU profile without writing it and disconnects. The heap sampler stays (it is the process's). */
  close(): Promise<void> {
    return this.lock.run(async () => {
      if (this.cpuRunning && this.session) await this.session.post('Profiler.stop').catch(() => undefined)
      this.cpuRunning = false
      this.session?.disconnect()
      this.session = undefined
    })
  }

  private async ensureDir(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o750 })
  }

  private async connect(): Promise<Session> {
    if (!this.session) {
      // Loaded on first use: a Node built without the inspector still runs everything else.
      const inspector = await importModule<typeof import('node:inspector/promises')>('node:inspector/promises')
      const session = new inspector.Session()
      session.connect()
      this.session = session
    }
    return this.session
  }

  private async ensureHeapSampling(session: Session): Promise<void> {
    try {
      await session.post('HeapProfiler.getSamplingProfile')
    } catch {
      await session.post('HeapProfiler.startSampling')
    }
  }
}

export function createProfiler(options: ProfilerOptions): Profiler {
  return new Profiler(options)
}

export const STACKTRACE_FILE = 'stacktrace.txt'

/**
 * What `admin.stacktrace` writes, to `<dir>/stacktrace.txt` (avalanchego writes to the process's
 * working directory; the emulator keeps each node's files in its data dir). Go dumps every
 * goroutine; Node runs JavaScript on one thread, so this is the (async) stack of the call itself
 * plus what the process is waiting on: active handles and requests, memory, versions.
 */
export async function writeStacktrace(dir: string): Promise<string> {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 200
  const stack = new Error('admin.stacktrace').stack ?? '(no stack)'
  Error.stackTraceLimit = limit

  const resources = new Map<string, number>()
  for (const kind of process.getActiveResourcesInfo()) resources.set(kind, (resources.get(kind) ?? 0) + 1)
  const memory = process.memoryUsage()
  const lines = [
    'l1sim stacktrace: Node.js runs JavaScript on one thread, so this is the stack of this call,',
    'not one stack per task. Pending work is listed under "active resources".',
    '',
    `time: ${new Date().toISOString()}`,
    `pid: ${process.pid}`,
    `node: ${process.version} (${process.platform}/${process.arch}), v8 ${process.versions.v8}`,
    `uptime: ${process.uptime().toFixed(3)}s`,
    `memory: rss ${memory.rss} heapUsed ${memory.heapUsed} heapTotal ${memory.heapTotal} external ${memory.external}`,
    `active resources: ${[...resources].map(([kind, count]) => `${kind} x${count}`).join(', ') || 'none'}`,
    '',
    'JavaScript stack:',
    stack,
    '',
  ]
  await mkdir(dir, { recursive: true, mode: 0o750 })
  const path = join(dir, STACKTRACE_FILE)
  await writeFileAtomic(path, lines.join('\n'))
  return path
}
