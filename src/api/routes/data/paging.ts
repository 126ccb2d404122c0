/**
 * Page tokens. The hosted service hands out opaque tokens (data-api.md §2); ours are stateless:
 * base64url of
 *
 *     version (1 byte) ‖ filter digest (16 bytes) ‖ cursor (UTF-8) ‖ HMAC-SHA256 tag (16 bytes)
 *
 * The cursor is the data source's own position (a key, not an offset, so a page stays stable when
 * new blocks arrive). The filter digest is SHA-256 over the operation and every parameter that
 * selects the result set (path parameters and filters; not `pageSize` nor `pageToken`), so a token
 * reused with different filters is refused. The tag is keyed per network instance (a random key
 * unless one is configured), so a token from another instance, or edited, is refused. Both refusals
 * are 400s.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { badRequest } from './errors.js'

/** What a page token is bound to: the operation and the parameters that select its results. */
export type PageScope = {
  readonly op: string
  readonly filters: Readonly<Record<string, string | number | boolean | readonly string[] | undefined>>
}

export const PAGE_TOKEN_VERSION = 1
const DIGEST_BYTES = 16
const TAG_BYTES = 16
const BASE64URL = /^[A-Za-z0-9_-]+$/

export const INVALID_PAGE_TOKEN = 'pageToken is invalid'
export const PAGE_TOKEN_FILTER_MISMATCH = 'pageToken was issued for a request with different parameters'
/** A token whose position lies in blocks a revert removed: its pages would mix two histories. */
export const PAGE_TOKEN_REVERTED = 'pageToken refers to blocks that were reverted; request the first page again'

export type PageTokens = {
  /** The token for the page that starts at `cursor` of this request. */
  encode(cursor: string, scope: PageScope): string
  /** The cursor of a token issued for this request; a 400 (`DataApiError`) otherwise. */
  decode(token: string, scope: PageScope): string
}

/** Canonical digest of a scope: keys sorted, undefined filters dropped, arrays kept in order. */
export function scopeDigest(scope: PageScope): Buffer {
  const filters = Object.keys(scope.filters)
    .filter((key) => scope.filters[key] !== undefined)
    .sort()
    .map((key) => [key, scope.filters[key]])
  return createHash('sha256').update(JSON.stringify([scope.op, filters])).digest().subarray(0, DIGEST_BYTES)
}

/** Page tokens authenticated with `key` (32 random bytes when omitted: one key per network instance). */
export function createPageTokens(key: Uint8Array | string = randomBytes(32)): PageTokens {
  const secret = typeof key === 'string' ? Buffer.from(key, 'utf8') : Buffer.from(key)
  if (secret.length === 0) throw new Error('page token key must not be empty')
  const tag = (body: Buffer) => createHmac('sha256', secret).update(body).digest().subarray(0, TAG_BYTES)

  return {
    encode(cursor, scope) {
      const body = Buffer.concat([Buffer.of(PAGE_TOKEN_VERSION), scopeDigest(scope), Buffer.from(cursor, 'utf8')])
      return Buffer.concat([body, tag(body)]).toString('base64url')
    },
    decode(token, scope) {
      if (!BASE64URL.test(token)) throw badRequest(INVALID_PAGE_TOKEN)
      const bytes = Buffer.from(token, 'base64url')
      // Non-canonical spellings (stray trailing bits) are edits too.
      if (bytes.length < 1 + DIGEST_BYTES + TAG_BYTES || bytes.toString('base64url') !== token) throw badRequest(INVALID_PAGE_TOKEN)
      const body = bytes.subarray(0, bytes.length - TAG_BYTES)
      if (!timingSafeEqual(tag(body), bytes.subarray(bytes.length - TAG_BYTES)) || body[0] !== PAGE_TOKEN_VERSION)
        throw badRequest(INVALID_PAGE_TOKEN)
      if (!body.subarray(1, 1 + DIGEST_BYTES).equals(scopeDigest(scope))) throw badRequest(PAGE_TOKEN_FILTER_MISMATCH)
      return body.subarray(1 + DIGEST_BYTES).toString('utf8')
    },
  }
}

/** One page as a data source returns it: items and, only when another page exists, its cursor. */
export type CursorPage<T> = { items: T[]; nextCursor?: string | undefined }

/** `nextPageToken` (only when another page exists) for a response; spread it first in the body. */
export function nextPageToken(tokens: PageTokens, page: CursorPage<unknown>, scope: PageScope): { nextPageToken?: string } {
  return page.nextCursor === undefined ? {} : { nextPageToken: tokens.encode(page.nextCursor, scope) }
}
