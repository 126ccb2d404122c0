/** mulberry32: a small seeded generator, so a randomized test runs the same sequences every time. */
export function seededRandom(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number) => Math.floor(next() * n)
  const bytes = (n: number) => Uint8Array.from({ length: n }, () => int(256))
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!
  return { next, int, bytes, pick }
}
