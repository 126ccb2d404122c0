// The indexer bench's HTTP client, on its own thread: its allocations and collections stay out of
// the heap of the server it measures, as a client in another process would. Each message is one
// request; the answer carries the status, the time from sending it to the last byte read, and the
// body when asked for (or when the status is an error).
import http from 'node:http'
import { performance } from 'node:perf_hooks'
import { parentPort } from 'node:worker_threads'

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 })

/** One request; a keep-alive socket the server closed while idle (a long GC pause) is retried once on a new one. */
async function get(url, method, body) {
  try {
    return await request(url, method, body)
  } catch (error) {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') throw error
    return request(url, method, body)
  }
}
function request(url, method, body) {
  const u = new URL(url)
  return new Promise((resolve, reject) => {
    const headers = body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method, agent, headers }, (res) => {
      let data = ''
      res.setEncoding('utf8')
      res.on('data', (c) => (data += c))
      res.on('end', () => resolve({ status: res.statusCode, body: data }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

parentPort.on('message', async ({ id, url, method, payload, wantBody }) => {
  try {
    const t = performance.now()
    const res = await get(url, method, payload)
    const ms = performance.now() - t
    parentPort.postMessage({ id, status: res.status, ms, body: wantBody || res.status >= 300 ? res.body : undefined })
  } catch (error) {
    parentPort.postMessage({ id, error: String(error) })
  }
})
