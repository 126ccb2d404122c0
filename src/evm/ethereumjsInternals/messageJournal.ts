/**
 * @ethereumjs/evm 10.1.3's journal around an eth_call's message (`call.ts`).
 *
 * The journal is told that the active precompiles start warm (EIP-2929)
 * without a new empty slot set for each of them at every message. `addAlwaysWarmAddress` makes
 * one `Set` per address into a map the journal replaces at each `cleanJournal`: ~20 sets, a
 * twentieth of an eth_call's garbage. Here every precompile maps to one shared empty set, which
 * nothing fills: the journal adds to an always-warm set only in `addAlwaysWarmSlot`, and
 * {@link warmSlot} gives a precompile its own set first.
 *
 * {@link cleanJournal} is the journal's `cleanJournal` (and the access list dropped), skipped
 * when the journal is already as it leaves it: a message clears it before and after it runs, and
 * the one before almost always finds what the last message or block left clean (two maps, two
 * sets and a checkpoint entry of three more collections for nothing).
 *
 * Only on the release it was read from; elsewhere the stock calls.
 */
import type { VM } from '@ethereumjs/vm'
import { installedVersion } from './sealing.js'

/** The @ethereumjs/evm release whose journal fields this was written against. */
const CHECKED_EVM_VERSION = '10.1.3'
const CHECKED = installedVersion('@ethereumjs/evm') === CHECKED_EVM_VERSION

type Journal = {
  alwaysWarmJournal?: Map<string, Set<string>>
  journal?: Map<string, Set<string>>
  touched?: Set<string>
  journalHeight?: number
  journalDiff?: [number, [Set<string>, Map<string, Set<string>>, Set<string>]][]
  accessList?: unknown
  cleanJournal(): void
  addAlwaysWarmAddress(address: string, addToAccessList?: boolean): void
  addAlwaysWarmSlot(address: string, slot: string, addToAccessList?: boolean): void
}

/** The one slot set every precompile shares; never added to (see {@link warmSlot}). */
const NO_SLOTS: ReadonlySet<string> = new Set<string>()

/** Marks `vm`'s active precompiles warm for the message about to run, as `addAlwaysWarmAddress` on each would. */
export function warmPrecompiles(vm: VM): void {
  const journal = vm.evm.journal as unknown as Journal
  const precompiles = vm.evm.precompiles as Map<string, unknown>
  const warm = journal.alwaysWarmJournal
  if (!CHECKED || !(warm instanceof Map)) {
    for (const address of precompiles.keys()) journal.addAlwaysWarmAddress(address)
    return
  }
  // The table's keys are unprefixed already (getActivePrecompiles): the journal's own keys.
  for (const address of precompiles.keys()) {
    const key = address.startsWith('0x') ? address.slice(2) : address
    if (!warm.has(key)) warm.set(key, NO_SLOTS as Set<string>)
  }
}

/** `addAlwaysWarmSlot`, giving a precompile its own slot set before the journal adds to it. */
export function warmSlot(vm: VM, address: string, slot: string): void {
  const journal = vm.evm.journal as unknown as Journal
  const warm = journal.alwaysWarmJournal
  const key = /^0x[0-9a-fA-F]*$/.test(address) ? address.slice(2) : address
  if (warm instanceof Map && warm.get(key) === NO_SLOTS) warm.set(key, new Set())
  journal.addAlwaysWarmSlot(address, slot, true)
}

/** Whether the journal is exactly as `cleanJournal` leaves it, with no access list being recorded. */
function isClean(journal: Journal): boolean {
  const diff = journal.journalDiff
  if (journal.accessList !== undefined || journal.journalHeight !== 0 || !Array.isArray(diff) || diff.length !== 1) return false
  const [height, [touched, slots, accounts]] = diff[0]!
  return (
    height === 0 &&
    touched instanceof Set && touched.size === 0 &&
    slots instanceof Map && slots.size === 0 &&
    accounts instanceof Set && accounts.size === 0 &&
    journal.journal instanceof Map && journal.journal.size === 0 &&
    journal.alwaysWarmJournal instanceof Map && journal.alwaysWarmJournal.size === 0 &&
    journal.touched instanceof Set && journal.touched.size === 0
  )
}

/** The journal's `cleanJournal` and its access list dropped, unless it is clean already. */
export function cleanJournal(vm: VM): void {
  const journal = vm.evm.journal as unknown as Journal
  if (CHECKED && isClean(journal)) return
  journal.cleanJournal()
  delete journal.accessList
}
