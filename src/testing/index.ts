/**
 * `l1sim/testing`: helpers for test files, free of any test runner's imports (vitest, jest,
 * node:test all work).
 *
 * {@link loadFixture} is Hardhat's `loadFixture` for l1sim: the first call runs the setup and
 * takes a network snapshot; every later call reverts to that snapshot (and takes it again, since a
 * revert uses it up), so each test starts from the same state without paying for the setup again.
 *
 * @example
 * async function deployToken(devnet: Devnet) {
 *   // … deploy, mint, return what the tests need
 *   return { token }
 * }
 * it('transfers', async () => {
 *   const { token } = await loadFixture(devnet, deployToken)
 * })
 */
import { BaseError } from '../core/errors.js'
import type { Network } from '../network/network.js'

/** What a fixture runs against: a network, or anything that carries one (a `Devnet`). */
export type FixtureTarget = Network | { readonly network: Network }

export type Fixture<T, Target extends FixtureTarget = FixtureTarget> = (target: Target) => Promise<T> | T

/** A fixture was an anonymous function: a new one each call, so it would never be found again. */
export class FixtureAnonymousFunctionError extends BaseError {
  override name = 'FixtureAnonymousFunctionError'
}

/** The snapshot a fixture returns to is gone: a reset, or a revert to an earlier snapshot, used it up. */
export class FixtureSnapshotError extends BaseError {
  override name = 'FixtureSnapshotError'
}

type Entry = { fixture: Fixture<unknown, never>; data: unknown; snapshotId: bigint }

/**
 * Every network's loaded fixtures, oldest snapshot first. Kept beside the network (weakly), so
 * many networks in one process never share fixtures and a dropped network takes its own along.
 */
const loadedFixtures = new WeakMap<Network, Entry[]>()

function networkOf(target: FixtureTarget): Network {
  return 'network' in target ? target.network : target
}

/**
 * Runs `fixture(target)` the first time it is given for this network and snapshots the state it
 * leaves; every later call reverts to that state and returns the first call's result. Keyed by the
 * function, so pass a named function declared once (not an inline arrow). Fixtures nest: loading
 * an earlier fixture drops the ones loaded after it (their snapshots were taken later, so the
 * revert used them up), and they run again when next loaded.
 */
export async function loadFixture<T, Target extends FixtureTarget>(target: Target, fixture: Fixture<T, Target>): Promise<T> {
  if (fixture.name === '')
    throw new FixtureAnonymousFunctionError('loadFixture needs a named function: an inline function is a new one on every call, so its snapshot would never be reused')
  const network = networkOf(target)
  let entries = loadedFixtures.get(network)
  if (!entries) loadedFixtures.set(network, (entries = []))
  const index = entries.findIndex((e) => e.fixture === fixture)
  if (index === -1) {
    const data = await fixture(target)
    entries.push({ fixture: fixture as Fixture<unknown, never>, data, snapshotId: await network.snapshot() })
    return data
  }
  const entry = entries[index]!
  if (!(await network.revert(entry.snapshotId))) {
    loadedFixtures.delete(network)
    throw new FixtureSnapshotError(
      `the snapshot of fixture ${fixture.name} is gone: a reset, or a revert to a snapshot taken before it, used it up`,
      { details: 'call clearFixtures(target) after resetting the network, so fixtures run again' },
    )
  }
  // The revert used up this snapshot and every later one: those fixtures run again next time.
  entries.splice(index)
  entries.push({ ...entry, snapshotId: await network.snapshot() })
  return entry.data as T
}

/** Forgets every fixture loaded on this network (after a `reset()`, say), so each runs again. */
export function clearFixtures(target: FixtureTarget): void {
  loadedFixtures.delete(networkOf(target))
}
