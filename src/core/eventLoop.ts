/**
 * Resolves on the event loop's next check phase, after pending I/O: a long run of work (mining
 * many blocks) awaits it now and then so requests that arrived meanwhile are served.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}
