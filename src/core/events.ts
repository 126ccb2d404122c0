import { EventEmitter } from 'node:events'

/**
 * A typed event emitter: `Events` maps each event name to its listener's argument.
 * Thin over node's EventEmitter so listeners run synchronously in emit order.
 */
export class TypedEmitter<Events extends Record<string, unknown>> {
  readonly #emitter = new EventEmitter({ captureRejections: false })

  constructor() {
    this.#emitter.setMaxListeners(0)
  }

  on<K extends keyof Events & string>(event: K, listener: (payload: Events[K]) => void): () => void {
    this.#emitter.on(event, listener as (payload: unknown) => void)
    return () => this.off(event, listener)
  }

  once<K extends keyof Events & string>(event: K, listener: (payload: Events[K]) => void): () => void {
    this.#emitter.once(event, listener as (payload: unknown) => void)
    return () => this.off(event, listener)
  }

  off<K extends keyof Events & string>(event: K, listener: (payload: Events[K]) => void): void {
    this.#emitter.off(event, listener as (payload: unknown) => void)
  }

  emit<K extends keyof Events & string>(event: K, payload: Events[K]): void {
    this.#emitter.emit(event, payload)
  }

  listenerCount<K extends keyof Events & string>(event: K): number {
    return this.#emitter.listenerCount(event)
  }

  removeAllListeners(): void {
    this.#emitter.removeAllListeners()
  }
}
