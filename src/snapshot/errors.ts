import { BaseError } from '../core/errors.js'

/**
 * A snapshot file could not be written, read or restored. The message names the file and what is
 * wrong with it (not an l1sim snapshot, truncated, checksum mismatch, a newer format…); a load
 * that fails with it has changed nothing.
 */
export class SnapshotFileError extends BaseError {
  override name = 'SnapshotFileError'
  /** The file (as given) the error is about. */
  readonly path: string

  constructor(path: string, problem: string, options: { cause?: unknown } = {}) {
    super(`snapshot ${path}: ${problem}`, options)
    this.path = path
  }
}
