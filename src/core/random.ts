import { sha256 } from './sha256.js'
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils.js'

/**
 * Deterministic bytes derived from the network seed: `derive(label)` always returns the same
 * 32 bytes for the same seed and label, so keys and ids are identical run after run.
 */
export type SeededRandom = {
  readonly seed: string
  derive(label: string): Uint8Array
  /** A stream of fresh values: each call returns the next 32 bytes for `label`. */
  next(label: string): Uint8Array
  /** How far each {@link next} stream has gone, by label (a file snapshot keeps it). */
  positions(): Map<string, number>
  /** Moves the {@link next} streams to saved positions (loading a file snapshot). */
  restorePositions(positions: ReadonlyMap<string, number>): void
}

export function createSeededRandom(seed: string): SeededRandom {
  const counters = new Map<string, number>()
  const seedBytes = utf8ToBytes(seed)
  const derive = (label: string) => sha256(concatBytes(seedBytes, utf8ToBytes(`\u0000${label}`)))
  return {
    seed,
    derive,
    next(label) {
      const i = counters.get(label) ?? 0
      counters.set(label, i + 1)
      return derive(`${label}#${i}`)
    },
    positions: () => new Map(counters),
    restorePositions(positions) {
      counters.clear()
      for (const [label, i] of positions) counters.set(label, i)
    },
  }
}
