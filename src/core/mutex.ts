/**
 * A FIFO async lock. Everything that reads or writes a chain's live state runs under its lock,
 * so a block being built is never observed half-way and requests keep their arrival order.
 */
export type Mutex = {
  run<T>(task: () => Promise<T> | T): Promise<T>
  readonly locked: boolean
}

export function createMutex(): Mutex {
  let tail: Promise<unknown> = Promise.resolve()
  let depth = 0
  return {
    get locked() {
      return depth > 0
    },
    run<T>(task: () => Promise<T> | T): Promise<T> {
      depth++
      const result = tail.then(task)
      tail = result.then(
        () => void depth--,
        () => void depth--,
      )
      return result
    },
  }
}
