/**
 * End-to-end helpers for the node APIs: a devnet on port 0 whose nodes keep their data under
 * `test/.tmp/`, and plain `fetch` calls in the node's JSON-RPC dialect.
 */
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect } from 'vitest'
import { startDevnet, type Devnet, type DevnetOptions } from '../../../src/index.js'

const TMP_ROOT = fileURLToPath(new URL('../../.tmp/', import.meta.url))
let counter = 0

/** A fresh directory under `test/.tmp/` (gitignored) and a function that removes it. */
export function makeTmpDir(label: string): { dir: string; remove: () => void } {
  const dir = join(TMP_ROOT, `api-node-${label}-${process.pid}-${Date.now().toString(36)}-${counter++}`)
  mkdirSync(dir, { recursive: true })
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

export type TestDevnet = Devnet & {
  /** The `--data-dir` every node's `node-<i>` directory lives under. */
  dataDir: string
  /** Closes the devnet and removes its directory. */
  stop(): Promise<void>
}

/** `startDevnet` on port 0 with every node's data (logs, profiles, plugins) under a fresh `test/.tmp/` dir. */
export async function startTestDevnet(label: string, options: DevnetOptions = {}): Promise<TestDevnet> {
  const tmp = makeTmpDir(label)
  const dataDir = options.node?.dataDir ?? join(tmp.dir, 'data')
  let devnet: Devnet
  try {
    devnet = await startDevnet({ ...options, port: 0, node: { ...options.node, dataDir } })
  } catch (error) {
    tmp.remove()
    throw error
  }
  return Object.assign(devnet, {
    dataDir,
    stop: async () => {
      await devnet.close()
      tmp.remove()
    },
  })
}

export const JSON_HEADERS = { 'content-type': 'application/json' }

export type RawResponse = { status: number; headers: Headers; body: string }

/** A plain HTTP request; the body is read as text. */
export async function request(url: string, init: RequestInit = {}): Promise<RawResponse> {
  const res = await fetch(url, init)
  return { status: res.status, headers: res.headers, body: await res.text() }
}

/** POSTs a raw body with `Content-Type: application/json`. */
export function postRaw(url: string, body: string, headers: Record<string, string> = JSON_HEADERS): Promise<RawResponse> {
  return request(url, { method: 'POST', headers, body })
}

let nextId = 1

/** One JSON-RPC call; returns the raw response and the parsed body. */
export async function call(
  baseUrl: string,
  path: string,
  method: string,
  params?: unknown,
): Promise<RawResponse & { json: { jsonrpc: string; id: unknown; result?: any; error?: { code: number; message: string; data: unknown } } }> {
  const id = nextId++
  const res = await postRaw(`${baseUrl}${path}`, JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }))
  expect(res.status, `${method} on ${path}: ${res.body}`).toBe(200)
  const json = JSON.parse(res.body)
  expect(json.id).toBe(id)
  return { ...res, json }
}

/** A JSON-RPC call that must succeed; returns its result. */
export async function result(baseUrl: string, path: string, method: string, params?: unknown): Promise<any> {
  const res = await call(baseUrl, path, method, params)
  expect(res.json.error, `${method}: ${res.body}`).toBeUndefined()
  return res.json.result
}

/** A JSON-RPC call that must fail with -32000 and exactly `message`; returns the raw body. */
export async function rpcError(baseUrl: string, path: string, method: string, params: unknown, message: string): Promise<string> {
  const res = await call(baseUrl, path, method, params)
  expect(res.json).toEqual({ jsonrpc: '2.0', error: { code: -32000, message, data: null }, id: res.json.id })
  return res.body
}

/** `sim.*` on a node (faults are network-wide, so any node can be asked). */
export function sim(baseUrl: string, method: string, params: Record<string, unknown> = {}): Promise<any> {
  return result(baseUrl, '/ext/sim', `sim.${method}`, params)
}

/** GET of a health route: status and parsed body. */
export async function healthGet(url: string): Promise<{ status: number; body: any; raw: RawResponse }> {
  const raw = await request(url)
  expect(raw.headers.get('content-type')).toBe('application/json')
  expect(raw.body.endsWith('\n')).toBe(true)
  return { status: raw.status, body: JSON.parse(raw.body), raw }
}
