import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../.tmp/', import.meta.url))
let counter = 0

/** A fresh directory under `test/.tmp/` (ignored by git) and a function that removes it. */
export function makeTmpDir(label: string): { dir: string; remove: () => void } {
  const dir = join(ROOT, `${label}-${process.pid}-${Date.now().toString(36)}-${counter++}`)
  mkdirSync(dir, { recursive: true })
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}
