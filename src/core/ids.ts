import { cb58Decode, cb58Encode } from './cb58.js'
import { DecodeError, InvalidArgumentError } from './errors.js'

/**
 * String forms of avalanchego's `ids.ID` (32 bytes) and `ids.NodeID` (20 bytes), with the parse
 * errors of `ids/id.go`, `ids/short.go` and `ids/node_id.go`, so API handlers can return them as
 * a node would.
 */

export const ID_LENGTH = 32
export const NODE_ID_LENGTH = 20
export const NODE_ID_PREFIX = 'NodeID-'

/** `ids.Empty`: the primary network's subnet id and the P-chain's blockchain id on every network. */
export const EMPTY_ID = '11111111111111111111111111111111LpoYY'

/** The primary network's subnet id is the empty id (`constants.PrimaryNetworkID`). */
export const PRIMARY_NETWORK_ID = EMPTY_ID

/** `ids.EmptyNodeID`, which avalanchego uses for "no node" (e.g. an L1 validator without one). */
export const EMPTY_NODE_ID = 'NodeID-111111111111111111116DBWJs'

/** Writes a 32-byte id (tx, block, chain, subnet, asset) in cb58. */
export function idToString(bytes: Uint8Array): string {
  if (bytes.length !== ID_LENGTH)
    throw new InvalidArgumentError(`expected ${ID_LENGTH} bytes for an ID but got ${bytes.length}`)
  return cb58Encode(bytes)
}

/**
 * `ids.FromString`: cb58 with a valid checksum and exactly 32 bytes.
 * @example idFromString(EMPTY_ID) // 32 zero bytes
 */
export function idFromString(str: string): Uint8Array {
  return cb58Decode(str, ID_LENGTH)
}

/** `NodeID.String()`: `NodeID-` + cb58 of the 20 bytes. */
export function nodeIdToString(bytes: Uint8Array): string {
  if (bytes.length !== NODE_ID_LENGTH)
    throw new InvalidArgumentError(`expected ${NODE_ID_LENGTH} bytes for a NodeID but got ${bytes.length}`)
  return NODE_ID_PREFIX + cb58Encode(bytes)
}

/**
 * `ids.NodeIDFromString`: the prefix is checked first (`ID: x is missing the prefix: NodeID-`),
 * then the cb58 body as a 20-byte short id.
 */
export function parseNodeId(str: string): Uint8Array {
  if (!str.startsWith(NODE_ID_PREFIX))
    throw new DecodeError(`ID: ${str} is missing the prefix: ${NODE_ID_PREFIX}`)
  return cb58Decode(str.slice(NODE_ID_PREFIX.length), NODE_ID_LENGTH)
}

/**
 * A NodeID that arrived as a JSON string (RPC params). Go's `NodeID.UnmarshalJSON` rejects short
 * strings before parsing, so `"NodeID-"` gives `insufficient NodeID length: expected to be > 9`
 * (9 counts the quotes) rather than a base58 error. Use this in handlers, {@link parseNodeId} elsewhere.
 */
export function parseNodeIdJson(str: string): Uint8Array {
  const quotedLength = new TextEncoder().encode(str).length + 2 // Go's len() counts bytes
  if (quotedLength <= 2 + NODE_ID_PREFIX.length)
    throw new DecodeError(`insufficient NodeID length: expected to be > ${2 + NODE_ID_PREFIX.length}`)
  return parseNodeId(str)
}

/**
 * A VM's id is its ASCII name zero-padded to 32 bytes (`ids.ID{'e','v','m'}` in avalanchego),
 * which is why `info.getVMs` can name VMs without a registry. The name is not always the alias:
 * the P-chain VM is aliased `platform` but its id pads `platformvm`.
 * @example vmIdFromName('evm') // 'mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6'
 * @example vmIdFromName('platformvm') // 'rWhpuQPF1kb72esV2momhMuTYGkEb1oL29pt2EBXWmSy4kxnT'
 */
export function vmIdFromName(name: string): string {
  if (!/^[\x00-\x7f]*$/.test(name)) throw new InvalidArgumentError(`VM name must be ASCII: ${name}`)
  if (name.length > ID_LENGTH)
    throw new InvalidArgumentError(`VM name must be at most ${ID_LENGTH} bytes but got ${name.length}`)
  const bytes = new Uint8Array(ID_LENGTH)
  for (let i = 0; i < name.length; i++) bytes[i] = name.charCodeAt(i)
  return cb58Encode(bytes)
}
