// The benches' lean HTTP client (keep-alive `node:http`), so the figures measure the server rather
// than the client: undici's fetch costs about 0.4 ms more per request on a small machine.
import http from 'node:http'

/** A keep-alive agent for `request`. */
export const keepAliveAgent = (maxSockets) => new http.Agent({ keepAlive: true, maxSockets })

/** One request with `agent`; resolves to the status and the body as text. */
export function request(agent, target, method, body) {
  const url = new URL(target)
  return new Promise((resolve, reject) => {
    const headers = body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method, agent, headers }, (res) => {
      let data = ''
      res.setEncoding('utf8')
      res.on('data', (c) => (data += c))
      res.on('end', () => resolve({ status: res.statusCode, body: data }))
    })
    req.on('error', reject)
    req.end(body)
  })
}
