/**
 * A scenario parsed at build time (src/scenario/preparsed.ts; the CLI's default scenario): decoded
 * only while its text and artifacts are the ones parsed, and then the very value parsing gives.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { inspect, isDeepStrictEqual } from 'node:util'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { readScenario, type Scenario } from '../../src/scenario/index.js'
import { encodeScenario, readPreparsedScenario } from '../../src/scenario/preparsed.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const scenarios = join(root, 'scenarios')

const tmpDirs: string[] = []
function tmpDir(): string {
  const dir = join(root, 'test/.tmp')
  mkdirSync(dir, { recursive: true })
  const made = mkdtempSync(join(dir, 'preparsed-'))
  tmpDirs.push(made)
  return made
}
afterEach(() => {
  for (const dir of tmpDirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** Equal as values, and shown alike with hidden properties and key order (a Map's `$keys`, `undefined` values). */
function expectSame(decoded: Scenario | undefined, parsed: Scenario): void {
  expect(decoded).toBeDefined()
  expect(isDeepStrictEqual(decoded, parsed)).toBe(true)
  expect(inspect(decoded, { depth: Infinity, showHidden: true })).toBe(inspect(parsed, { depth: Infinity, showHidden: true }))
}

/** A copy of scenarios/<name> and its artifacts in a temp dir, with its parse written beside it. */
async function preparsedCopy(name: string): Promise<{ file: string; preparsed: string; dir: string }> {
  const dir = tmpDir()
  mkdirSync(join(dir, 'artifacts'))
  for (const artifact of readdirSync(join(scenarios, 'artifacts'))) copyFileSync(join(scenarios, 'artifacts', artifact), join(dir, 'artifacts', artifact))
  const file = join(dir, name)
  copyFileSync(join(scenarios, name), file)
  const preparsed = join(dir, 'preparsed.json')
  writeFileSync(preparsed, JSON.stringify(encodeScenario(await readScenario(file), readFileSync(file, 'utf8'))))
  return { file, preparsed, dir }
}

describe('a scenario parsed at build time', () => {
  it('decodes, for every example scenario, to what parsing the file gives', async () => {
    const names = readdirSync(scenarios).filter((name) => name.endsWith('.yaml'))
    expect(names).toContain('default.yaml')
    for (const name of names) {
      const { file, preparsed } = await preparsedCopy(name)
      expectSame(readPreparsedScenario(file, preparsed), await readScenario(file))
    }
  })

  it('is not used once the scenario or an artifact it reads has changed, or when a file cannot be read', async () => {
    const { file, preparsed, dir } = await preparsedCopy('default.yaml')
    expect(readPreparsedScenario(file, join(dir, 'missing.json'))).toBeUndefined()
    expect(readPreparsedScenario(join(dir, 'missing.yaml'), preparsed)).toBeUndefined()

    const artifact = join(dir, 'artifacts', 'ERC20.json')
    const original = readFileSync(artifact, 'utf8')
    writeFileSync(artifact, `${original}\n`)
    expect(readPreparsedScenario(file, preparsed)).toBeUndefined()
    writeFileSync(artifact, original)
    expectSame(readPreparsedScenario(file, preparsed), await readScenario(file))

    writeFileSync(file, readFileSync(file, 'utf8').replace('value: 1.5 ether', 'value: 2.5 ether'))
    expect(readPreparsedScenario(file, preparsed)).toBeUndefined()
  })

  it('takes the path it is read from as the scenario\'s file', async () => {
    const { file, preparsed, dir } = await preparsedCopy('default.yaml')
    const moved = join(dir, 'moved.yaml')
    copyFileSync(file, moved)
    const decoded = readPreparsedScenario(moved, preparsed)
    expect(decoded?.file).toBe(moved)
    expectSame(decoded, await readScenario(moved))
  })

  it('refuses to encode what it could not decode exactly', async () => {
    const parsed = await readScenario(join(scenarios, 'default.yaml'))
    const text = readFileSync(join(scenarios, 'default.yaml'), 'utf8')
    const shared = { line: 1, column: 1 }
    expect(() => encodeScenario({ ...parsed, name: shared, clock: shared } as unknown as Scenario, text)).toThrow('a shared or cyclic reference')
    expect(() => encodeScenario({ ...parsed, name: new Date(0) } as unknown as Scenario, text)).toThrow('an instance of Date')
    expect(() => encodeScenario({ ...parsed, name: new Set() } as unknown as Scenario, text)).toThrow('an instance of Set')
    expect(() => encodeScenario({ ...parsed, name: -0 } as unknown as Scenario, text)).toThrow('has no JSON form')
  })
})
