import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createMutex } from '../../../src/core/mutex.js'
import {
  LOCK_PROFILE_FORMAT,
  ProfilerError,
  STACKTRACE_FILE,
  WaitRecorder,
  createProfiler,
  writeFileAtomic,
  writeStacktrace,
  type Profiler,
} from '../../../src/network/profiler.js'
import { makeTmpDir } from './tmpDir.js'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function tmp(label: string): string {
  const t = makeTmpDir(label)
  cleanups.push(t.remove)
  return t.dir
}

function profilerIn(dir: string, waits?: WaitRecorder): Profiler {
  const profiler = createProfiler({ dir, ...(waits ? { waits } : {}) })
  cleanups.push(() => profiler.close())
  return profiler
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise
  } catch (error) {
    return error as Error
  }
  throw new Error('expected a rejection')
}

/** Only the final files: a temporary file left behind would show here. */
function listing(dir: string): string[] {
  return readdirSync(dir).sort()
}

describe('WaitRecorder and the mutex wait hook', () => {
  it('keeps count, total and longest wait per site', () => {
    const waits = new WaitRecorder()
    waits.record('C', 10)
    waits.record('C', 30)
    waits.record('A', 5)
    expect(waits.snapshot()).toEqual({
      A: { count: 1, totalWaitNs: 5, maxWaitNs: 5 },
      C: { count: 2, totalWaitNs: 40, maxWaitNs: 30 },
    })
    expect(Object.keys(waits.snapshot())).toEqual(['A', 'C'])
    waits.reset()
    expect(waits.snapshot()).toEqual({})
  })

  it('is told about tasks that found the lock held, and only those', async () => {
    const waits = new WaitRecorder()
    const mutex = createMutex(waits.observer('chain'))
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const order: string[] = []
    const first = mutex.run(async () => {
      await held
      order.push('first')
    })
    const second = mutex.run(() => order.push('second'))
    const third = mutex.run(() => order.push('third'))
    expect(mutex.locked).toBe(true)
    release()
    await Promise.all([first, second, third])
    expect(order).toEqual(['first', 'second', 'third'])
    const site = waits.snapshot().chain!
    expect(site.count).toBe(2)
    expect(site.maxWaitNs).toBeGreaterThan(0)
    expect(site.totalWaitNs).toBeGreaterThanOrEqual(site.maxWaitNs)
    // uncontended: nothing recorded
    await mutex.run(() => undefined)
    expect(waits.snapshot().chain!.count).toBe(2)
  })

  it('runs the task even when the observer throws, and works without one', async () => {
    const mutex = createMutex(() => {
      throw new Error('observer bug')
    })
    const a = mutex.run(() => 1)
    const b = mutex.run(() => 2)
    expect(await Promise.all([a, b])).toEqual([1, 2])
    const plain = createMutex()
    expect(await Promise.all([plain.run(() => 'x'), plain.run(async () => 'y')])).toEqual(['x', 'y'])
  })
})

describe('writeFileAtomic', () => {
  it('replaces the file and leaves no temporary file', async () => {
    const dir = tmp('atomic')
    const path = join(dir, 'out.json')
    await writeFileAtomic(path, 'one')
    await writeFileAtomic(path, 'two')
    expect(readFileSync(path, 'utf8')).toBe('two')
    expect(listing(dir)).toEqual(['out.json'])
    expect(statSync(path).mode & 0o777).toBe(0o640 & ~process.umask())
  })

  it('removes the temporary file when the rename fails', async () => {
    const dir = tmp('atomic-fail')
    mkdirSync(join(dir, 'taken'))
    writeFileSync(join(dir, 'taken', 'x'), '')
    const error = await rejection(writeFileAtomic(join(dir, 'taken'), 'data'))
    expect((error as NodeJS.ErrnoException).syscall).toBe('rename')
    expect(listing(dir)).toEqual(['taken'])
  })
})

describe('Profiler', () => {
  it('starts and stops the CPU profiler, writing a V8 cpu profile at stop', async () => {
    const dir = join(tmp('cpu'), 'nested', 'profiles')
    const profiler = profilerIn(dir)
    expect((await rejection(profiler.stopCPUProfiler())).message).toBe("cpu profiler doesn't exist")
    await profiler.startCPUProfiler()
    expect(profiler.cpuProfilerRunning).toBe(true)
    expect(existsSync(dir)).toBe(true)
    const again = await rejection(profiler.startCPUProfiler())
    expect(again).toBeInstanceOf(ProfilerError)
    expect(again.message).toBe('cpu profiler already running')
    let sum = 0
    for (let i = 0; i < 100_000; i++) sum += i
    expect(sum).toBeGreaterThan(0)
    await profiler.stopCPUProfiler()
    const profile = JSON.parse(readFileSync(join(dir, 'cpu.profile'), 'utf8'))
    expect(profile.nodes.length).toBeGreaterThan(0)
    expect(profile.nodes[0].callFrame.functionName).toBe('(root)')
    expect(typeof profile.startTime).toBe('number')
    expect(profile.endTime).toBeGreaterThanOrEqual(profile.startTime)
    expect(listing(dir)).toEqual(['cpu.profile'])
    expect((await rejection(profiler.stopCPUProfiler())).message).toBe("cpu profiler doesn't exist")

    // a second run overwrites the file
    await profiler.startCPUProfiler()
    await profiler.stopCPUProfiler()
    const second = JSON.parse(readFileSync(join(dir, 'cpu.profile'), 'utf8'))
    expect(second.startTime).toBeGreaterThanOrEqual(profile.endTime)
    expect(listing(dir)).toEqual(['cpu.profile'])
  })

  it('keeps one CPU profiler per node', async () => {
    const a = profilerIn(join(tmp('cpu-a'), 'p'))
    const b = profilerIn(join(tmp('cpu-b'), 'p'))
    await a.startCPUProfiler()
    await b.startCPUProfiler()
    await a.stopCPUProfiler()
    expect(b.cpuProfilerRunning).toBe(true)
    await b.stopCPUProfiler()
  })

  it('writes a heap profile', async () => {
    const dir = tmp('mem')
    const profiler = profilerIn(join(dir, 'profiles'))
    await profiler.memoryProfile()
    const retained = Array.from({ length: 20_000 }, (_, i) => ({ i, text: `retained-${i}` }))
    await profiler.memoryProfile()
    expect(retained).toHaveLength(20_000)
    const profile = JSON.parse(readFileSync(join(dir, 'profiles', 'mem.profile'), 'utf8'))
    expect(profile.head.callFrame.functionName).toBe('(root)')
    expect(Array.isArray(profile.samples)).toBe(true)
    expect(profile.samples.length).toBeGreaterThan(0)
    expect(listing(join(dir, 'profiles'))).toEqual(['mem.profile'])
  })

  it('writes the recorded lock waits as JSON, overwritten each time', async () => {
    const dir = join(tmp('lock'), 'profiles')
    const waits = new WaitRecorder()
    const profiler = profilerIn(dir, waits)
    await profiler.lockProfile()
    const empty = JSON.parse(readFileSync(join(dir, 'lock.profile'), 'utf8'))
    expect(empty).toMatchObject({ format: LOCK_PROFILE_FORMAT, unit: 'ns', sites: {} })
    waits.record('C', 1500)
    waits.record('C', 500)
    await profiler.lockProfile()
    const written = JSON.parse(readFileSync(join(dir, 'lock.profile'), 'utf8'))
    expect(written.sites).toEqual({ C: { count: 2, totalWaitNs: 2000, maxWaitNs: 1500 } })
    expect(listing(dir)).toEqual(['lock.profile'])
    expect(profiler.waits).toBe(waits)
  })

  it('reports a directory it cannot create', async () => {
    const dir = tmp('blocked')
    writeFileSync(join(dir, 'file'), '')
    const profiler = profilerIn(join(dir, 'file', 'profiles'))
    const error = (await rejection(profiler.lockProfile())) as NodeJS.ErrnoException
    expect(error.code).toBe('ENOTDIR')
  })
})

describe('writeStacktrace', () => {
  it('writes the call stack and process facts to <dir>/stacktrace.txt', async () => {
    const dir = join(tmp('stack'), 'data')
    const path = await writeStacktrace(dir)
    expect(path).toBe(join(dir, STACKTRACE_FILE))
    const text = readFileSync(path, 'utf8')
    expect(text).toContain('Node.js runs JavaScript on one thread')
    expect(text).toContain(`pid: ${process.pid}`)
    expect(text).toMatch(/JavaScript stack:\nError: admin\.stacktrace\n\s+at writeStacktrace/)
    expect(listing(dir)).toEqual([STACKTRACE_FILE])
  })
})
