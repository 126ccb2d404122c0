/**
 * `l1sim snapshot save <file> [--url U]` (a running server saves its network, through
 * `sim.saveSnapshot`) and `l1sim snapshot inspect <file>` (what a snapshot file holds, without
 * loading it). `snapshot load` is `start --snapshot` and lives with `start`.
 */
import { BaseError } from '../core/errors.js'
import { inspectSnapshot, type SnapshotInfo } from '../snapshot/index.js'

type Output = { write(text: string): unknown }

/**
 * Exit code 1 when the server cannot be reached or refuses. The path is sent as given: the server
 * writes it under its own snapshot directory (a relative path from there; an absolute one must lie
 * inside it) and answers with the absolute path it wrote.
 */
export async function snapshotSave(path: string, url: string, stdout: Output, stderr: Output): Promise<number> {
  let body: { result?: { path: string; bytes: number; sha256: string }; error?: { message: string } }
  try {
    const res = await fetch(`${url.replace(/\/+$/, '')}/ext/sim`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'sim.saveSnapshot', params: { path } }),
    })
    const text = await res.text()
    if (res.status !== 200) {
      stderr.write(`l1sim: ${url} answered HTTP ${res.status}: ${text.trim()}\n`)
      return 1
    }
    body = JSON.parse(text)
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause
    stderr.write(`l1sim: cannot reach ${url}: ${cause?.code ?? (error as Error).message}\n`)
    return 1
  }
  if (body.error || !body.result) {
    stderr.write(`l1sim: ${body.error?.message ?? 'the server gave no result'}\n`)
    return 1
  }
  stdout.write(`saved ${body.result.path} (${body.result.bytes} bytes, sha256 ${body.result.sha256})\n`)
  return 0
}

/**
 * Exit code 1 for a missing, corrupt or foreign file, with the reason; a file whose checksum does
 * not match still has its header printed (what it claims to hold), and exits 1 too: loading it
 * would fail, and a script checking a file reads the exit code.
 */
export async function snapshotInspect(file: string, stdout: Output, stderr: Output): Promise<number> {
  let info: SnapshotInfo
  try {
    info = await inspectSnapshot(file)
  } catch (error) {
    stderr.write(`l1sim: ${error instanceof BaseError ? error.shortMessage : (error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`)
    return 1
  }
  stdout.write(formatInfo(info))
  if (info.checksumOk) return 0
  // The loader's words for the same file (`start --snapshot` refuses it so).
  stderr.write(`l1sim: snapshot ${file}: checksum mismatch: the file is corrupt\n`)
  return 1
}

/**
 * The header as a table:
 * ```
 * file:      /…/snapshots/ready.l1sim
 * format:    1 (saved by l1sim 0.1.0)
 * time:      2026-01-01T00:00:02.484Z (network time)
 * network:   local (network id 12345), 5 nodes
 * chains:    P    platform  height 0  2ihxNoRR…
 *            C    evm       height 1  0x05fe5f16…
 * size:      99705 bytes (header 832, state 98817)
 * sha256:    b95f0054… (checksum ok)
 * ```
 */
export function formatInfo(info: SnapshotInfo): string {
  const field = (name: string, value: string) => `${`${name}:`.padEnd(11)}${value}`
  const width = (pick: (c: SnapshotInfo['chains'][number]) => string) => Math.max(0, ...info.chains.map((c) => pick(c).length))
  const nameWidth = width((c) => c.name)
  const kindWidth = width((c) => c.kind)
  const heightWidth = width((c) => String(c.height))
  const chains = info.chains.map((c) => `${c.name.padEnd(nameWidth)}  ${c.kind.padEnd(kindWidth)}  height ${String(c.height).padEnd(heightWidth)}  ${c.hash}`)
  const lines = [
    field('file', info.path),
    field('format', `${info.formatVersion} (saved by l1sim ${info.l1simVersion})`),
    field('time', `${info.createdIso} (network time)`),
    field('network', `${info.preset} (network id ${info.networkId}), ${info.nodes} node${info.nodes === 1 ? '' : 's'}`),
    ...chains.map((line, i) => (i === 0 ? field('chains', line) : `${' '.repeat(11)}${line}`)),
    field('size', `${info.sizes.file} bytes (header ${info.sizes.header}, state ${info.sizes.payload})`),
    field('sha256', `${info.sha256} (${info.checksumOk ? 'checksum ok' : 'CHECKSUM MISMATCH: the file is damaged'})`),
  ]
  return `${lines.join('\n')}\n`
}
