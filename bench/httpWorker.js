// The indexer bench's HTTP client, on its own thread: its allocations and collections stay out of
// the heap of the server it measures, as a client in another process would. Each message is one
// request; the answer carries the status, the time from sending it to the last byte read, and the
// body when asked for (or when the status is an error).
import { performance } from 'node:perf_hooks'
import { parentPort } from 'node:worker_threads'
import { keepAliveAgent, request } from './http.js'

const agent = keepAliveAgent(8)

/** One request; a keep-alive socket the server closed while idle (a long GC pause) is retried once on a new one. */
async function get(url, method, body) {
  try {
    return await request(agent, url, method, body)
  } catch (error) {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') throw error
    return request(agent, url, method, body)
  }
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
