import { createHash, randomBytes } from 'node:crypto'
import { access, constants, open, readdir, readFile, rename, stat, unlink, type FileHandle } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { SnapshotFileError } from './errors.js'

/**
 * The file's framing, the same in every format version:
 *
 *   magic        8 bytes  `L1SIMSNP`
 *   version      u32 BE   format version of everything after the preamble
 *   file length  u64 BE   the whole file's length (tells a truncated file from a corrupt one)
 *   header len   u32 BE
 *   header       JSON (UTF-8): what `inspectSnapshot` shows, readable without the payload
 *   payload      the state (see `writePayload` in index.ts), uncompressed
 *   checksum     32 bytes sha256 of everything before it
 */
export const MAGIC = Buffer.from('L1SIMSNP', 'latin1')
/** The format version this l1sim writes, and the newest it reads. */
export const FORMAT_VERSION = 3
const PREAMBLE = MAGIC.length + 4 + 8 + 4
const CHECKSUM = 32

export type Framed = { version: number; header: Buffer; payload: Buffer; checksumOk: boolean; sha256: string }

/** How much a {@link PayloadWriter} buffers before writing: one reused buffer, never the whole file. */
const CHUNK = 1 << 20

/**
 * The payload as it is produced, into one of two reused buffers: when it fills, it is written out
 * while the other one fills (the file system works while the network is encoded). Saving a large
 * network allocates no buffer the size of its file (large allocations outside the heap count
 * towards garbage collection of the network's own heap). A section is `u64 length` + its bytes;
 * the length is filled in when the section ends.
 */
export class PayloadWriter {
  /** The current chunk: `at` bytes of it are not written yet. */
  buffer: Buffer = Buffer.allocUnsafe(CHUNK)
  at = 0
  readonly #handle: FileHandle
  /** The file offset of `buffer[0]`. */
  #offset: number
  readonly #patches: [position: number, value: number][] = []
  #section = -1
  /** The write of the previous chunk, and the chunk it writes (free once the write is done). */
  #writing: Promise<void> | undefined
  #spare: Buffer | undefined

  constructor(handle: FileHandle, offset: number) {
    this.#handle = handle
    this.#offset = offset
  }

  /** The file offset of the next byte. */
  get position(): number {
    return this.#offset + this.at
  }

  /** Whether `n` more bytes fit in `buffer` now (hot loops test this before awaiting {@link room}). */
  fits(n: number): boolean {
    return this.at + n <= this.buffer.length
  }

  /** Makes room for `n` more bytes in `buffer` (a larger chunk when `n` exceeds one). */
  async room(n: number): Promise<void> {
    if (this.at + n <= this.buffer.length) return
    await this.flush()
    if (n > this.buffer.length) this.buffer = Buffer.allocUnsafe(n)
  }

  async bytes(data: Uint8Array): Promise<void> {
    await this.room(data.length)
    this.buffer.set(data, this.at)
    this.at += data.length
  }

  /** Ends the current section (if any) and starts the next one. */
  async section(): Promise<void> {
    this.#endSection()
    await this.room(8)
    this.#section = this.position
    this.at += 8
  }

  /** Writes what is buffered and the section lengths; returns the payload's end offset. */
  async finish(): Promise<number> {
    this.#endSection()
    await this.flush()
    await this.#writing
    const word = Buffer.alloc(8)
    for (const [position, value] of this.#patches) {
      word.writeBigUInt64BE(BigInt(value))
      await writeFully(this.#handle, word, position)
    }
    return this.#offset
  }

  /** Starts writing what is buffered, once the previous write is done, and switches buffers. */
  async flush(): Promise<void> {
    if (this.at === 0) return
    await this.#writing
    const full = this.buffer
    // Observed at once (a failure is seen by the next flush or `finish`, not reported as unhandled).
    const writing = writeFully(this.#handle, full.subarray(0, this.at), this.#offset)
    writing.catch(() => undefined)
    this.#writing = writing
    this.#offset += this.at
    this.at = 0
    this.buffer = this.#spare ?? Buffer.allocUnsafe(CHUNK)
    this.#spare = full
  }

  #endSection(): void {
    if (this.#section >= 0) this.#patches.push([this.#section, this.position - this.#section - 8])
    this.#section = -1
  }
}

async function writeFully(handle: FileHandle, data: Uint8Array, position: number): Promise<void> {
  for (let done = 0; done < data.length; ) {
    const { bytesWritten } = await handle.write(data, done, data.length - done, position + done)
    done += bytesWritten
  }
}

/**
 * Writes a snapshot file atomically: a temporary file beside `path` (`<path>.tmp-<pid>-<random>`)
 * gets the preamble and header, the payload from `write`, then the file length and the checksum,
 * which is computed by reading the written file back through one small buffer. It is synced, then
 * renamed over the target, so a reader sees the old file or the whole new one. On any failure
 * the temporary file is removed and the target is untouched; what a killed save left is removed
 * by the next save to the same target ({@link removeStaleTemps}).
 */
export async function writeSnapshotFile(path: string, header: unknown, write: (out: PayloadWriter) => Promise<void>): Promise<{ bytes: number; sha256: string }> {
  await removeStaleTemps(path)
  const temp = `${path}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8')
  const preamble = Buffer.alloc(PREAMBLE)
  MAGIC.copy(preamble, 0)
  preamble.writeUInt32BE(FORMAT_VERSION, 8)
  preamble.writeUInt32BE(headerBytes.length, 20)
  let created = false
  let result: { bytes: number; sha256: string }
  try {
    const handle = await open(temp, 'wx+')
    created = true
    try {
      const out = new PayloadWriter(handle, 0)
      await out.bytes(preamble)
      await out.bytes(headerBytes)
      await write(out)
      const end = await out.finish()
      const size = Buffer.alloc(8)
      size.writeBigUInt64BE(BigInt(end + CHECKSUM))
      await writeFully(handle, size, 12)
      // The checksum is the hash of everything before it; the file's hash goes on over it.
      const hash = createHash('sha256')
      const chunk = out.buffer
      for (let at = 0; at < end; ) {
        const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, end - at), at)
        if (bytesRead === 0) throw new Error(`the file ends at ${at} bytes, ${end} were written`)
        hash.update(chunk.subarray(0, bytesRead))
        at += bytesRead
      }
      const checksum = hash.copy().digest()
      await writeFully(handle, checksum, end)
      await handle.sync()
      result = { bytes: end + CHECKSUM, sha256: hash.update(checksum).digest('hex') }
    } finally {
      await handle.close()
    }
    await rename(temp, path)
    created = false
  } catch (error) {
    if (created) await unlink(temp).catch(() => undefined)
    if (error instanceof SnapshotFileError) throw error
    throw new SnapshotFileError(path, `cannot be written: ${describeFsError(error)}`, { cause: error })
  }
  // The rename is durable once the directory is synced; not every platform can open a directory.
  const dir = await open(dirname(path), 'r').catch(() => undefined)
  if (dir) await dir.sync().catch(() => undefined).finally(() => dir.close())
  return result
}

/**
 * Removes the temporary files an earlier save to `path` left when its process died mid-save (a
 * `kill -9` runs no cleanup): those whose writer, named by the pid in the file's name, is no
 * longer running. A running process' file (a save in progress, this process' own included) stays.
 */
async function removeStaleTemps(path: string): Promise<void> {
  const dir = dirname(path)
  const prefix = `${basename(path)}.tmp-`
  const names = await readdir(dir).catch(() => [] as string[])
  for (const name of names) {
    if (!name.startsWith(prefix)) continue
    const match = /^([1-9][0-9]{0,9})-[0-9a-f]{12}$/.exec(name.slice(prefix.length))
    if (match && !isRunning(Number(match[1]))) await unlink(join(dir, name)).catch(() => undefined)
  }
}

/** Whether a process with this id runs (signal 0 checks without signalling; EPERM: it runs as another user). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
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

/**
 * Refuses a `path` that {@link writeSnapshotFile} could not write, without writing anything: it
 * creates a temporary file in the target's directory and renames it over the target, so that
 * directory must exist and be writable, and the target must not be a directory (an existing
 * read-only file is replaced all the same). For a save that comes much later (`--save-on-exit`),
 * so a path that cannot work is refused at the start rather than losing the state at the end.
 */
export async function checkSnapshotTarget(path: string): Promise<void> {
  const dir = dirname(resolve(path))
  const refuse = (problem: string, cause?: unknown) => new SnapshotFileError(path, `cannot be written: ${problem}`, { cause })
  const dirStat = await stat(dir).catch((error: unknown) => {
    throw refuse(`${dir}: ${describeFsError(error)}`, error)
  })
  if (!dirStat.isDirectory()) throw refuse(`${dir} is not a directory`)
  await access(dir, constants.W_OK | constants.X_OK).catch((error: unknown) => {
    throw refuse(`${dir}: ${describeFsError(error)}`, error)
  })
  if ((await stat(path).catch(() => undefined))?.isDirectory()) throw refuse('it is a directory')
}
