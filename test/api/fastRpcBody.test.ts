/**
 * The JSON-RPC fast path (`src/api/fastRpc.ts`) writes its answer as text with the headers: the
 * declared length counts bytes, not characters, so an answer with non-ASCII text (an unknown
 * method's name echoed back) is read whole and the next answer on the same keep-alive connection
 * starts where it should. Through `node:http` with a keep-alive agent.
 */
import { Agent, request, type IncomingHttpHeaders } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDevnet, type Devnet } from '../../src/index.js'

type Answer = { status: number; headers: IncomingHttpHeaders; body: string }

let devnet: Devnet
const agent = new Agent({ keepAlive: true, maxSockets: 1 })
beforeAll(async () => {
  devnet = await startDevnet({ port: 0, nodes: 1, accounts: 1 })
})
afterAll(async () => {
  agent.destroy()
  await devnet.close()
})

function post(body: string, contentType = 'application/json'): Promise<Answer> {
  const { hostname, port } = new URL(devnet.url)
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path: '/ext/bc/C/rpc', method: 'POST', agent, headers: { 'content-type': contentType, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

describe('fast path answers', () => {
  it('declare their length in bytes: a non-ASCII answer, then the next on the same connection', async () => {
    const method = 'eth_ünïcødé_€'
    const first = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }))
    expect(first.status).toBe(200)
    expect(first.headers['content-type']).toBe('application/json')
    expect(Number(first.headers['content-length'])).toBe(Buffer.byteLength(first.body))
    expect(JSON.parse(first.body)).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: `the method ${method} does not exist/is not available` } })
    // A content type with parameters takes the parsing path.
    const second = await post('{"jsonrpc":"2.0","id":2,"method":"eth_chainId","params":[]}', 'application/json; charset=utf-8')
    expect(second.status).toBe(200)
    expect(second.body).toBe('{"jsonrpc":"2.0","id":2,"result":"0xa868"}\n')
    expect(Number(second.headers['content-length'])).toBe(second.body.length)
  })
})
