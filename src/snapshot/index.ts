import { resolve } from 'node:path'
import { DefaultDeserializer, serialize } from 'node:v8'
import type { ClockOptions } from '../core/clock.js'
import { Network } from '../network/network.js'
import type { NodeOptions } from '../network/node.js'
import type { RelayerOptions } from '../network/relayer.js'
import type { DataApiOptions } from '../api/routes/data/config.js'
import { captureNetwork } from './capture.js'
import { SnapshotFileError } from './errors.js'
import { readSnapshotFile, unframe, writeSnapshotFile, type PayloadWriter } from './format.js'
import { restoreNetwork } from './restore.js'
import { readBlocks, unpackTrie, writeBlockIndex, writeBlocks, writeTrie } from './codec.js'
import { FrozenBlocks, FrozenTrie } from './frozen.js'
import type { StoredBlock } from '../evm/types.js'
import type { TrieKey } from './codec.js'
import type { SavedNetwork, SnapshotHeader, StateHistory } from './state.js'

export type { StateHistory } from './state.js'

export { SnapshotFileError } from './errors.js'
export { FORMAT_VERSION } from './format.js'
export { checkSnapshotTarget } from './format.js'

/**
 * Settings of a loaded network that are not state: how it runs. The clock's mode (its time is
 * state: `start` is ignored), the nodes' directories, loggers' defaults and display, the data
 * API's port, keys and prices. Each replaces what the snapshot's creation options said.
 */
export type LoadOverrides = {
  clock?: ClockOptions
  node?: NodeOptions
  dataApi?: DataApiOptions
  /** The ICM relayer's settings (its mode, field by field over the file's). */
  relayer?: RelayerOptions
}

export type SaveOptions = {
  /** Which past states to write: `recent` (default) or `full` (see {@link StateHistory}). */
  history?: StateHistory
}

/** What `inspectSnapshot` reads from a file's header, without loading it. */
export type SnapshotInfo = {
  path: string
  formatVersion: number
  l1simVersion: string
  /** Network (virtual clock) time when saved, unix seconds, and as ISO 8601. */
  created: number
  createdIso: string
  preset: string
  networkId: number
  nodes: number
  /** P, X, the C-chain and every L1, with their heights and last block ids / hashes. */
  chains: SnapshotHeader['chains']
  /** The whole file, the JSON header and the encoded state, in bytes. */
  sizes: { file: number; header: number; payload: number }
  /** sha256 of the whole file, hex. */
  sha256: string
  checksumOk: boolean
  history: StateHistory
}

/**
 * Writes the whole network to `path` (any name; `snapshots/<name>.l1sim` by convention):
 * every chain's state (its recent history by default, see {@link StateHistory}), blocks and receipts, the platform state, the clock, the nodes' admin state
 * (aliases, log levels, VMs, health results) and the options it was created with. The file is
 * written to a temporary name beside `path` and renamed over it. The data API's indexes are not
 * written: they are a function of the blocks and are rebuilt from them after a load.
 * @example await saveNetwork(network, 'snapshots/ready.l1sim') // → { path: '/…/snapshots/ready.l1sim', bytes: 48211, sha256: '9f…' }
 */
export async function saveNetwork(network: Network, path: string, options: SaveOptions = {}): Promise<{ path: string; bytes: number; sha256: string }> {
  const { state, blocks, tries, header } = await captureNetwork(network, path, options.history ?? 'recent')
  let encodedState: Buffer
  try {
    encodedState = serialize(state)
  } catch (error) {
    // v8 refuses functions and class instances it cannot clone (in the creation options, say).
    throw new SnapshotFileError(path, `the network's state cannot be encoded: ${(error as Error).message}`, { cause: error })
  }
  const { bytes, sha256 } = await writeSnapshotFile(path, header, (out) => writePayload(out, encodedState, blocks, tries))
  return { path: resolve(path), bytes, sha256 }
}

/**
 * A network that continues exactly where the saved one was: recreated from its saved options
 * (same ids and keys from the seed), then its saved state put back before it is returned. A
 * foreign, truncated, corrupt or newer file, or a state that does not fit, is a
 * {@link SnapshotFileError} and nothing is left running. In-memory snapshot ids do not survive a
 * file; `reset()` on the loaded network returns to the state loaded.
 */
export async function loadNetwork(path: string, overrides: LoadOverrides = {}): Promise<Network> {
  const { header, state, histories } = decodeFile(path, await readSnapshotFile(path))
  const options = state.options
  const mode = overrides.clock?.mode ?? options.clock?.mode ?? 'manual'
  let network: Network
  try {
    // Created in manual mode at the original start, so no timer runs while the state goes back.
    network = await Network.create({
      ...options,
      // A file saved before the real local genesis names no layout: its network started from the old one.
      genesisVersion: options.genesisVersion ?? 1,
      clock: { ...(overrides.clock?.wallNow ? { wallNow: overrides.clock.wallNow } : {}), mode: 'manual', ...(options.clock?.start !== undefined ? { start: options.clock.start } : {}) },
      node: { ...options.node, ...overrides.node },
      dataApi: { ...options.dataApi, ...overrides.dataApi },
      relayer: { ...options.relayer, ...overrides.relayer },
    })
  } catch (error) {
    throw new SnapshotFileError(path, `its network cannot be recreated: ${(error as Error).message}`, { cause: error })
  }
  try {
    await restoreNetwork(network, state, histories)
    await network.markInitial()
  } catch (error) {
    await network.close()
    throw new SnapshotFileError(path, `cannot be restored (saved by l1sim ${header.l1simVersion}): ${(error as Error).message}`, { cause: error })
  }
  network.setClockMode(mode)
  return network
}

/** The header of a snapshot file (format, versions, time, preset, nodes, chains and heights, sizes, checksum). */
export async function inspectSnapshot(path: string): Promise<SnapshotInfo> {
  const bytes = await readSnapshotFile(path)
  const framed = unframe(path, bytes, { allowBadChecksum: true })
  const header = parseHeader(path, framed.header)
  return {
    path: resolve(path),
    formatVersion: framed.version,
    l1simVersion: header.l1simVersion,
    created: header.created,
    createdIso: new Date(header.created * 1000).toISOString(),
    preset: header.preset,
    networkId: header.networkId,
    nodes: header.nodes,
    chains: header.chains,
    sizes: { file: bytes.length, header: framed.header.length, payload: framed.payload.length },
    sha256: framed.sha256,
    checksumOk: framed.checksumOk,
    history: header.history,
  }
}

/**
 * The payload of format version 3, as sections (`u64 length` + bytes): `v8.serialize` of
 * {@link SavedNetwork} (its chains' `blocks` empty), then for each EVM chain in its order its
 * block index (see `writeBlockIndex`), its blocks (see `writeBlocks`) and its trie database (see
 * `writeTrie`). Version 2 had no block index; version 1 had the blocks in the first section and
 * one trie section per chain (see `unpackTrie`).
 */
async function writePayload(out: PayloadWriter, encodedState: Buffer, blocks: readonly StoredBlock[][], tries: readonly Iterable<[TrieKey, string | Uint8Array]>[]): Promise<void> {
  await out.section()
  await out.bytes(encodedState)
  for (const [i, trie] of tries.entries()) {
    await out.section()
    await writeBlockIndex(out, blocks[i]!)
    await out.section()
    await writeBlocks(out, blocks[i]!)
    await out.section()
    await writeTrie(out, trie)
  }
}

/**
 * A chain's history as read from a file: its trie nodes, in place (versions 2 and 3) or as a map
 * (version 1), and its blocks, in place (version 3) or decoded into the saved chain's `blocks`.
 */
export type LoadedHistory = { trie: FrozenTrie | Map<string, string | Uint8Array>; blocks?: FrozenBlocks }

function decodeFile(path: string, bytes: Buffer): { header: SnapshotHeader; state: SavedNetwork; histories: LoadedHistory[] } {
  const framed = unframe(path, bytes)
  const header = parseHeader(path, framed.header)
  try {
    const sections: Buffer[] = []
    const payload = framed.payload
    for (let at = 0; at < payload.length; ) {
      if (at + 8 > payload.length) throw new RangeError('a section length is cut short')
      const length = Number(payload.readBigUInt64BE(at))
      if (at + 8 + length > payload.length) throw new RangeError(`a section of ${length} bytes runs past the payload`)
      sections.push(payload.subarray(at + 8, at + 8 + length))
      at += 8 + length
    }
    const state = deserializeCopies(sections[0] ?? Buffer.alloc(0)) as SavedNetwork
    const shapeOk = state !== null && typeof state === 'object' && Array.isArray(state.chains) && Array.isArray(state.nodes) && typeof state.options === 'object' && state.primary !== undefined
    if (!shapeOk) throw new TypeError(`it is not an l1sim network of format version ${framed.version}`)
    const perChain = framed.version
    if (sections.length !== state.chains.length * perChain + 1) throw new RangeError(`${sections.length - 1} sections for ${state.chains.length} chains`)
    if (framed.version === 1) return { header, state, histories: sections.slice(1).map((section) => ({ trie: unpackTrie(section) })) }
    const histories = state.chains.map((chain, i): LoadedHistory => {
      const [first, second, third] = sections.slice(1 + perChain * i, 1 + perChain * (i + 1))
      if (framed.version === 2) {
        chain.blocks = readBlocks(first!)
        return { trie: new FrozenTrie(second!) }
      }
      return { blocks: new FrozenBlocks(first!, second!), trie: new FrozenTrie(third!) }
    })
    return { header, state, histories }
  } catch (error) {
    throw new SnapshotFileError(path, `its state cannot be decoded: ${(error as Error).message}`, { cause: error })
  }
}

/**
 * `v8.deserialize`, with byte arrays copied out of `bytes`: node's deserializer makes them views
 * of its input, here the whole file, and an in-memory snapshot that `structuredClone`s a view
 * (the X-chain's state) would copy all of the file's bytes, for each of them.
 */
function deserializeCopies(bytes: Buffer): unknown {
  // `_readHostObject` is node's hook for array buffer views (not in its type declarations).
  const deserializer = new DefaultDeserializer(bytes) as DefaultDeserializer & { _readHostObject(): unknown }
  const readView = deserializer._readHostObject.bind(deserializer)
  // %TypedArray%.prototype.slice copies (Buffer's own slice would not).
  const copy = Uint8Array.prototype.slice as (this: unknown) => unknown
  deserializer._readHostObject = () => {
    const view = readView()
    return ArrayBuffer.isView(view) && !(view instanceof DataView) ? copy.call(view) : view
  }
  deserializer.readHeader()
  return deserializer.readValue()
}

function parseHeader(path: string, bytes: Buffer): SnapshotHeader {
  let header: SnapshotHeader
  try {
    header = JSON.parse(bytes.toString('utf8')) as SnapshotHeader
  } catch (error) {
    throw new SnapshotFileError(path, `its header is not valid JSON: ${(error as Error).message}`, { cause: error })
  }
  if (header === null || typeof header !== 'object' || header.format !== 'l1sim-snapshot' || !Array.isArray(header.chains))
    throw new SnapshotFileError(path, 'its header is not an l1sim snapshot header')
  return header
}
