import { expect } from 'vitest'

/** Asserts that `fn` throws an instance of `type` whose message is exactly `message`. */
export function expectThrows(fn: () => unknown, type: new (...args: never[]) => Error, message: string): void {
  let thrown: unknown
  try {
    fn()
  } catch (error) {
    thrown = error
  }
  expect(thrown).toBeInstanceOf(type)
  expect((thrown as Error).message).toBe(message)
}
