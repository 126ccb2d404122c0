/**
 * A FIFO async lock. Everything that reads or writes a chain's live state runs under its lock,
 * so a block being built is never observed half-way and requests keep their arrival order.
 */
export type Mutex = {
  run<T>(task: () => Promise<T> | T): Promise<T>
  readonly locked: boolean
}

/**
 * Told how long a task waited for the lock (nanoseconds), once per task that found it held.
 * It must not throw; an error it throws is ignored. (A node's lock profile is fed this way.)
 */
export type MutexWaitObserver = (waitNs: number) => void

export function createMutex(onWait?: MutexWaitObserver): Mutex {
  let tail: Promise<unknown> = Promise.resolve()
  let depth = 0
  return {
    get locked() {
      return depth > 0
    },
    run<T>(task: () => Promise<T> | T): Promise<T> {
      const waitedSince = onWait && depth > 0 ? process.hrtime.bigint() : undefined
      depth++
      const result = tail.then(waitedSince === undefined ? task : () => {
        try {
          onWait!(Number(process.hrtime.bigint() - waitedSince))
        } catch {
          // an observer's failure is not the task's
        }
        return task()
      })
      tail = result.then(
        () => void depth--,
        () => void depth--,
      )
      return result
    },
  }
}
