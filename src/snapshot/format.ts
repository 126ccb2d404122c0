import { createHash, randomBytes } from 'node:crypto'
import { open, readFile, rename, unlink } from 'node:fs/promises'
import { dirname } from 'node:path'
import { SnapshotFileError } from './errors.js'

/**
 * The file's framing, the same in every format version:
 *
 *   magic        8 bytes  `L1SIMSNP`
 *   version      u32 BE   format version of everything after the preamble
 *   file length  u64 BE   the whole file's length (tells a truncated file from a corrupt one)
 *   header len   u32 BE
 *   header       JSON (UTF-8): what `inspectSnapshot` shows, readable without the payload
 *   payload      the state (version 1: see `encodePayload` in index.ts), uncompressed
 *   checksum     32 bytes sha256 of everything before it
 */
export const MAGIC = Buffer.from('L1SIMSNP', 'latin1')
/** The format version this l1sim writes, and the newest it reads. */
export const FORMAT_VERSION = 1
const PREAMBLE = MAGIC.length + 4 + 8 + 4
const CHECKSUM = 32

export type Framed = { version: number; header: Buffer; payload: Buffer; checksumOk: boolean; sha256: string }

/** The file's bytes (preamble, header, payload parts, checksum) and the sha256 of the whole file. */
export function frame(header: unknown, payload: readonly Buffer[]): { parts: Buffer[]; sha256: string } {
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8')
  const preamble = Buffer.alloc(PREAMBLE)
  MAGIC.copy(preamble, 0)
  preamble.writeUInt32BE(FORMAT_VERSION, 8)
  preamble.writeBigUInt64BE(BigInt(PREAMBLE + headerBytes.length + payload.reduce((n, p) => n + p.length, 0) + CHECKSUM), 12)
  preamble.writeUInt32BE(headerBytes.length, 20)
  const hash = createHash('sha256').update(preamble).update(headerBytes)
  for (const part of payload) hash.update(part)
  // One pass for both: the checksum is the hash so far, the file's hash goes on over the checksum.
  const checksum = hash.copy().digest()
  return { parts: [preamble, headerBytes, ...payload, checksum], sha256: hash.update(checksum).digest('hex') }
}

/**
 * Splits a file into its parts, refusing a foreign, truncated or newer file. A checksum mismatch
 * throws unless `allowBadChecksum` (inspect reports it instead).
 */
export function unframe(path: string, bytes: Buffer, options: { allowBadChecksum?: boolean } = {}): Framed {
  if (bytes.length === 0) throw new SnapshotFileError(path, 'the file is empty')
  const magicSeen = bytes.subarray(0, MAGIC.length)
  if (!magicSeen.equals(MAGIC.subarray(0, magicSeen.length)))
    throw new SnapshotFileError(path, 'not an l1sim snapshot (it does not start with the L1SIMSNP signature)')
  if (bytes.length < PREAMBLE + CHECKSUM) throw new SnapshotFileError(path, `truncated: ${bytes.length} bytes, shorter than any snapshot`)
  const version = bytes.readUInt32BE(8)
  const declared = bytes.readBigUInt64BE(12)
  const body = bytes.subarray(0, bytes.length - CHECKSUM)
  const hash = createHash('sha256').update(body)
  const checksumOk = hash.copy().digest().equals(bytes.subarray(bytes.length - CHECKSUM))
  const sha256 = hash.update(bytes.subarray(bytes.length - CHECKSUM)).digest('hex')
  if (!checksumOk) {
    if (declared > BigInt(bytes.length)) throw new SnapshotFileError(path, `truncated: ${bytes.length} of ${declared} bytes`)
    if (!options.allowBadChecksum) throw new SnapshotFileError(path, 'checksum mismatch: the file is corrupt')
  }
  if (version > FORMAT_VERSION)
    throw new SnapshotFileError(path, `written by snapshot format version ${version}; this l1sim reads up to version ${FORMAT_VERSION}`)
  if (version < 1) throw new SnapshotFileError(path, `unknown snapshot format version ${version}`)
  if (declared !== BigInt(bytes.length)) throw new SnapshotFileError(path, `corrupt: ${bytes.length} bytes, the preamble says ${declared}`)
  const headerLength = bytes.readUInt32BE(20)
  if (PREAMBLE + headerLength > body.length) throw new SnapshotFileError(path, `corrupt: a header of ${headerLength} bytes does not fit`)
  return {
    version,
    header: bytes.subarray(PREAMBLE, PREAMBLE + headerLength),
    payload: body.subarray(PREAMBLE + headerLength),
    checksumOk,
    sha256,
  }
}

/** Reads a whole file; a missing or unreadable one is a {@link SnapshotFileError}. */
export async function readSnapshotFile(path: string): Promise<Buffer> {
  try {
    return await readFile(path)
  } catch (error) {
    throw new SnapshotFileError(path, `cannot be read: ${describeFsError(error)}`, { cause: error })
  }
}

/**
 * Writes `parts` to `path` atomically: a temporary file beside it (`<path>.tmp-<random>`), synced,
 * then renamed over the target, so a reader sees the old file or the whole new one. On any
 * failure the temporary file is removed and the target is untouched.
 */
export async function writeAtomically(path: string, parts: readonly Buffer[]): Promise<void> {
  const temp = `${path}.tmp-${randomBytes(6).toString('hex')}`
  let created = false
  try {
    const handle = await open(temp, 'wx')
    created = true
    try {
      // writeFile writes each part whole, from the current position (writev may stop short).
      for (const part of parts) await handle.writeFile(part)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, path)
    created = false
  } catch (error) {
    if (created) await unlink(temp).catch(() => undefined)
    throw new SnapshotFileError(path, `cannot be written: ${describeFsError(error)}`, { cause: error })
  }
  // The rename is durable once the directory is synced; not every platform can open a directory.
  const dir = await open(dirname(path), 'r').catch(() => undefined)
  if (dir) await dir.sync().catch(() => undefined).finally(() => dir.close())
}

function describeFsError(error: unknown): string {
  const e = error as NodeJS.ErrnoException
  const reasons: Record<string, string> = {
    ENOENT: 'no such file or directory',
    EISDIR: 'it is a directory',
    EACCES: 'permission denied',
    ENOTDIR: 'a parent is not a directory',
    ENOSPC: 'no space left on the device',
  }
  return (e.code && reasons[e.code]) ?? e.message
}
