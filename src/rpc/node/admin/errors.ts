import { BaseError } from '../../../core/errors.js'
import { NodeRpcError } from '../types.js'

const ERRNO_TEXTS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOTDIR: 'not a directory',
  EISDIR: 'is a directory',
  EEXIST: 'file exists',
  ENOSPC: 'no space left on device',
  EROFS: 'read-only file system',
}

/**
 * The message a Go node would give for `error`: a domain error's own text; a file-system error
 * as Go's `*PathError` prints (`open /dir/cpu.profile: permission denied`).
 */
export function goErrorMessage(error: unknown): string {
  if (error instanceof BaseError) return error.shortMessage
  const errno = error as NodeJS.ErrnoException
  if (errno?.code && errno.syscall && errno.path && ERRNO_TEXTS[errno.code]) {
    // Go's MkdirAll over a file says ENOTDIR where node's recursive mkdir says EEXIST.
    const code = errno.syscall === 'mkdir' && errno.code === 'EEXIST' ? 'ENOTDIR' : errno.code
    return `${errno.syscall} ${errno.path}: ${ERRNO_TEXTS[code]}`
  }
  return error instanceof Error ? error.message : String(error)
}

function rethrow(error: unknown): never {
  if (error instanceof NodeRpcError) throw error
  throw new NodeRpcError(goErrorMessage(error), { cause: error })
}

/**
 * Runs a handler's body (sync or async); any failure becomes the node's -32000 error with
 * {@link goErrorMessage}.
 */
export function asNodeErrors<T>(body: () => T): T {
  try {
    const result = body()
    return (result instanceof Promise ? result.catch(rethrow) : result) as T
  } catch (error) {
    return rethrow(error)
  }
}
