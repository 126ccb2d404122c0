/**
 * avalanchego's `filterInvalidHosts` (`api/server/allowed_hosts.go`): the Host header of every
 * request is checked against `--http-allowed-hosts` (default `localhost`), which stops DNS
 * rebinding — a page whose name resolves to 127.0.0.1 still sends its own name as Host. As on the
 * node, a request without a Host, or whose host is an IP address, is served (rebinding needs a
 * name), `*` in the list allows every host, and names compare case-insensitively without the port.
 * The emulator also allows the name the server is bound to (`--host`), which is a name of itself.
 */
import { isIP } from 'node:net'

/** avalanchego's `--http-allowed-hosts` default. */
export const DEFAULT_ALLOWED_HOSTS: readonly string[] = ['localhost']

/** What the node answers a refused host: Go's `http.Error(w, "invalid host specified", 403)`. */
export const INVALID_HOST = { status: 403, body: 'invalid host specified\n' } as const

/** Whether a request with this Host header is served. */
export type HostFilter = (host: string | undefined) => boolean

export function createHostFilter(allowedHosts: readonly string[] = DEFAULT_ALLOWED_HOSTS, boundHost?: string): HostFilter {
  if (allowedHosts.includes('*')) return () => true
  const allowed = new Set([...allowedHosts, ...(boundHost === undefined ? [] : [boundHost])].map((h) => h.toLowerCase()))
  return (header) => {
    if (header === undefined || header === '') return true
    const host = splitHostPort(header) ?? header
    // Go's net.ParseIP knows no IPv6 zones (`fe80::1%eth0`); node's isIP does.
    if (isIP(host) !== 0 && !host.includes('%')) return true
    return allowed.has(host.toLowerCase())
  }
}

/** Go's `net.SplitHostPort`, host part only; undefined where Go returns an error (no port, too many colons, stray brackets). */
function splitHostPort(hostport: string): string | undefined {
  const colon = hostport.lastIndexOf(':')
  if (colon < 0) return undefined
  let host: string
  let from = 0
  let after = 0
  if (hostport.startsWith('[')) {
    const end = hostport.indexOf(']')
    if (end < 0 || end + 1 !== colon) return undefined
    host = hostport.slice(1, end)
    from = 1
    after = end + 1
  } else {
    host = hostport.slice(0, colon)
    if (host.includes(':')) return undefined
  }
  if (hostport.indexOf('[', from) >= 0 || hostport.indexOf(']', after) >= 0) return undefined
  return host
}
