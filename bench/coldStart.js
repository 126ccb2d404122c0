#!/usr/bin/env node
// Cold start as the peer bench measures it (../shared/peer-bench, W1): spawn the built bin with a
// plain `node` (none of the shebang's flags), `start --host 127.0.0.1 --port N`, then poll
// eth_chainId on /ext/bc/C/rpc every 5 ms until it answers; the median of 5 starts. One start
// before the timed ones writes the launcher's v8 code cache (scripts/launcher.mjs), as the peer
// bench's first start does for its later ones.
//
//   node bench/coldStart.js [--no-scenario] [--starts N] [--node-flag FLAG]...
// (`--node-flag --cpu-prof --node-flag --cpu-prof-dir=/tmp/p` to profile the server; the figure
// that counts is without flags.)
import { spawn } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs'
import http from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
// Another build's root (a copy of dist/, scenarios/, package.json) to compare with: L1SIM_ROOT.
const binRoot = process.env.L1SIM_ROOT ?? root
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** One eth_chainId; resolves true on a 200 with a result, false on any failure (not listening yet). */
function probe(port) {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/ext/bc/C/rpc', method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c) => (body += c))
      res.on('end', () => resolve(res.statusCode === 200 && body.includes('"result"')))
    })
    req.on('error', () => resolve(false))
    req.end('{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}')
  })
}

/** Milliseconds from spawn to the first answered eth_chainId. */
export async function oneStart(args, nodeFlags, logDir) {
  const port = await freePort()
  const log = openSync(join(logDir, `start-${port}.log`), 'w')
  const t0 = performance.now()
  const child = spawn(process.execPath, [...nodeFlags, join(binRoot, 'dist/l1sim.mjs'), 'start', '--host', '127.0.0.1', '--port', String(port), ...args], { stdio: ['ignore', log, log], cwd: root })
  closeSync(log)
  let exited = false
  const exit = new Promise((resolve) => child.once('exit', () => resolve((exited = true))))
  try {
    for (;;) {
      if (exited) throw new Error(`the server exited before answering; see ${logDir}`)
      if (await probe(port)) return performance.now() - t0
      await sleep(5)
    }
  } finally {
    child.kill('SIGTERM')
    await exit
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** The median cold start (ms) of `starts` starts after one (`first`) that writes the code cache when it is missing. */
export async function coldStartBench({ args = [], starts = 5, nodeFlags = [] } = {}) {
  const logDir = mkdtempSync(join(tmpdir(), 'l1sim-cold-'))
  try {
    const first = await oneStart(args, nodeFlags, logDir)
    const samples = []
    for (let i = 0; i < starts; i++) {
      samples.push(await oneStart(args, nodeFlags, logDir))
      await sleep(200)
    }
    return { median: +median(samples).toFixed(1), samples: samples.map((s) => +s.toFixed(1)), first: +first.toFixed(1) }
  } finally {
    rmSync(logDir, { recursive: true, force: true })
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2)
  const args = []
  const nodeFlags = []
  let starts = 5
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--starts') starts = Number(argv[++i])
    else if (argv[i] === '--node-flag') nodeFlags.push(argv[++i])
    else args.push(argv[i])
  }
  const { median: ms, samples } = await coldStartBench({ args, starts, nodeFlags })
  console.log(`cold start${args.length ? ` (${args.join(' ')})` : ''}: median ${ms} ms (${samples.join(', ')})`)
}
