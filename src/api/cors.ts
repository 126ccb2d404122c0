/**
 * CORS as avalanchego's `api/server` wraps every route: rs/cors v1.7.0 with the node's
 * `--http-allowed-origins` (default `*`), credentials on, default methods and headers. One
 * departure: a wildcard origin is answered without `Access-Control-Allow-Credentials`, so no
 * page, whatever its origin, can make a credentialed request; a listed origin is echoed with
 * credentials, as rs/cors does.
 */

export type CorsHeaders = Record<string, string | string[]>

export type CorsPolicy = {
  /** Whether `origin` is allowed (rs/cors `isOriginAllowed`; the WebSocket upgrade asks too). */
  allowsOrigin(origin: string): boolean
  /** rs/cors `handleActualRequest`: `Vary: Origin`, plus the allow headers when the origin and the method are allowed. */
  actual(method: string, origin: string | undefined): CorsHeaders
  /** rs/cors `handlePreflight`: the varies, plus the allow headers when origin, method and headers are allowed. */
  preflight(origin: string | undefined, requestedMethod: string, requestedHeaders: string | undefined): CorsHeaders
}

/** avalanchego's `--http-allowed-origins` default. */
export const DEFAULT_ALLOWED_ORIGINS: readonly string[] = ['*']

const CORS_METHODS = new Set(['GET', 'POST', 'HEAD', 'OPTIONS'])
const CORS_HEADERS = new Set(['Origin', 'Accept', 'Content-Type', 'X-Requested-With'])

/**
 * The policy for a list of allowed origins, read as rs/cors `New` reads it: lower-cased, `*` alone
 * allows every origin, one `*` inside an entry matches anything there (`https://*.example.com`).
 */
export function createCorsPolicy(allowedOrigins: readonly string[] = DEFAULT_ALLOWED_ORIGINS): CorsPolicy {
  const normalised = allowedOrigins.map((origin) => origin.toLowerCase())
  const all = normalised.length === 0 || normalised.includes('*')
  const exact = new Set(normalised.filter((origin) => !origin.includes('*')))
  const patterns = normalised.flatMap((origin) => {
    const star = origin.indexOf('*')
    return star < 0 ? [] : [{ prefix: origin.slice(0, star), suffix: origin.slice(star + 1) }]
  })
  const allowsOrigin = (origin: string): boolean => {
    if (all) return true
    const o = origin.toLowerCase()
    return exact.has(o) || patterns.some((p) => o.length >= p.prefix.length + p.suffix.length && o.startsWith(p.prefix) && o.endsWith(p.suffix))
  }
  const allow = (origin: string): CorsHeaders =>
    all ? { 'access-control-allow-origin': '*' } : { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true' }

  return {
    allowsOrigin,
    actual(method, origin) {
      if (!origin || !allowsOrigin(origin) || !CORS_METHODS.has(method.toUpperCase())) return { vary: 'Origin' }
      return { vary: 'Origin', ...allow(origin) }
    },
    preflight(origin, requestedMethod, requestedHeaders) {
      const vary: CorsHeaders = { vary: ['Origin', 'Access-Control-Request-Method', 'Access-Control-Request-Headers'] }
      const headers = parseHeaderList(requestedHeaders ?? '')
      if (!origin || !allowsOrigin(origin) || !CORS_METHODS.has(requestedMethod.toUpperCase())) return vary
      if (!headers.every((h) => CORS_HEADERS.has(h))) return vary
      return {
        ...vary,
        ...allow(origin),
        'access-control-allow-methods': requestedMethod.toUpperCase(),
        ...(headers.length > 0 ? { 'access-control-allow-headers': headers.join(', ') } : {}),
      }
    },
  }
}

/** rs/cors `parseHeaderList`: names canonicalised (`content-type` → `Content-Type`), split on spaces and commas. */
function parseHeaderList(list: string): string[] {
  return list
    .split(/[ ,]+/)
    .map((name) => name.replace(/[^A-Za-z0-9_-]/g, ''))
    .filter((name) => name !== '')
    .map((name) => name.toLowerCase().replace(/(^|[-_])([a-z])/g, (_m, sep: string, c: string) => sep + c.toUpperCase()))
}
