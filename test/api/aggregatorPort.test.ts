import { rmSync } from 'node:fs'
import { request } from 'node:http'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../../src/cli.js'
import { startDevnet } from '../../src/index.js'

afterAll(() => rmSync('test/.tmp/aggregator-cli', { recursive: true, force: true }))

/** A POST with exactly these headers (Host included). */
function post(base: string, path: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { hostname, port } = new URL(base)
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method: 'POST', agent: false, headers: { 'content-length': String(Buffer.byteLength(body)), ...headers } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

describe('startDevnet({ signatureAggregatorPort })', () => {
  it('serves /aggregate-signatures alone on its own port, behind the Host filter and CORS', async () => {
    const devnet = await startDevnet({ port: 0, nodes: 1, signatureAggregatorPort: 0, allowedOrigins: ['https://app.example'] })
    try {
      const url = devnet.signatureAggregatorUrl!
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(url).not.toBe(devnet.url)
      const answer = await post(url, '/aggregate-signatures', '{}', { origin: 'https://app.example' })
      expect(answer).toMatchObject({ status: 400, body: '{"error":"Error unpacking warp message"}' })
      expect(answer.headers['access-control-allow-origin']).toBe('https://app.example')
      expect(await post(url, '/aggregate-signatures', '{}', { host: 'evil.example' })).toMatchObject({ status: 403, body: 'invalid host specified\n' })
      expect(await post(url, '/ext/bc/C/rpc', '{}')).toMatchObject({ status: 404, body: '404 page not found\n' })
    } finally {
      await devnet.close()
    }
  })

  it('l1sim start --signature-aggregator-port prints where it listens', async () => {
    const capture = () => ({ text: '', write(chunk: string) { this.text += chunk } })
    const stdout = capture()
    const result = await runCli(['start', '--port', '0', '--nodes', '1', '--signature-aggregator-port', '0', '--data-dir', 'test/.tmp/aggregator-cli'], { stdout, stderr: capture() })
    try {
      expect(result.exitCode).toBe(0)
      expect(stdout.text).toContain(`Sig. aggregator:   ${result.devnet!.signatureAggregatorUrl}/aggregate-signatures`)
    } finally {
      await result.devnet?.close()
    }
  })
})
