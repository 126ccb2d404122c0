import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { InvalidStateError } from '../../../src/core/errors.js'
import { vmIdFromName } from '../../../src/core/ids.js'
import { AliasNotFoundError } from '../../../src/network/aliases.js'
import { PluginDirectoryError, createVmRegistry } from '../../../src/network/vmRegistry.js'
import { expectThrows } from '../../helpers/expectThrows.js'
import { makeTmpDir } from './tmpDir.js'

const PLATFORM = 'rWhpuQPF1kb72esV2momhMuTYGkEb1oL29pt2EBXWmSy4kxnT'
const AVM = 'jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq'
const EVM = 'mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6'
const SUBNET_EVM = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy'
const XSVM = 'v3m4wPxaHpvGr8qfMeyK6PRW3idZrPHmYcMTt7oXdK47yurVH'

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

function pluginDir(files: Record<string, string>): string {
  const tmp = makeTmpDir('plugins')
  cleanups.push(tmp.remove)
  const dir = join(tmp.dir, 'plugins')
  mkdirSync(dir)
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
  return dir
}

describe('VmRegistry: built-in VMs', () => {
  it('registers platform, avm, evm and subnetevm under their padded-name ids', () => {
    const vms = createVmRegistry({ pluginDir: '/nonexistent' })
    expect(vms.list()).toEqual({
      [AVM]: ['avm'],
      [EVM]: ['evm'],
      [PLATFORM]: ['platform'],
      [SUBNET_EVM]: ['subnetevm'],
    })
    expect(vms.lookup('platform')).toBe(PLATFORM)
    expect(vms.lookup(EVM)).toBe(EVM)
    expect(vms.aliases.aliases(AVM)).toEqual(['avm', AVM])
    expect(vms.has(SUBNET_EVM)).toBe(true)
    expect(vms.entries()[0]).toEqual({ id: PLATFORM, aliases: ['platform', PLATFORM] })
    expectThrows(() => vms.lookup('nope'), AliasNotFoundError, 'there is no ID with alias: nope')
    expectThrows(() => vms.register(EVM, []), InvalidStateError, `"${EVM}" was already registered as a vm`)
    expectThrows(() => vms.register(XSVM, ['evm']), InvalidStateError, 'alias already mapped to an ID: evm')
    expect(vms.has(XSVM)).toBe(false)
    expectThrows(() => vms.lookup(XSVM), AliasNotFoundError, `there is no ID with alias: ${XSVM}`)
  })
})

describe('VmRegistry.reload (admin.loadVMs)', () => {
  it('loads plugins by name or id with their aliases, once', async () => {
    const dir = pluginDir({
      'a-xsvm.mjs': `export default { id: '${XSVM}', aliases: ['xsvm', 'cross'] }`,
      'b-named.js': `export default { id: 'myvm' }`,
      'c-namespace.mjs': `export const id = 'othervm'; export const aliases = ['other']`,
      'd-builtin.mjs': `export default { id: 'subnetevm' }`,
      'e-by-alias.mjs': `export default { id: 'evm' }`,
      'notes.txt': 'not a plugin',
      '.js': 'export default { id: "empty-name" }',
    })
    mkdirSync(join(dir, 'subdir.js'))
    const vms = createVmRegistry({ pluginDir: dir })
    const first = await vms.reload()
    expect(first.failed).toEqual({})
    expect(first.loaded.sort()).toEqual([XSVM, vmIdFromName('myvm'), vmIdFromName('othervm')].sort())
    expect(vms.relevantAliases(first.loaded)).toEqual({
      [XSVM]: ['xsvm', 'cross'],
      [vmIdFromName('myvm')]: ['myvm'],
      [vmIdFromName('othervm')]: ['othervm', 'other'],
    })
    expect(vms.lookup('cross')).toBe(XSVM)
    expect(await vms.reload()).toEqual({ loaded: [], failed: {} })
  })

  it('reports failures by file, or by id when the id is known, and loads the rest', async () => {
    const dir = pluginDir({
      'broken.mjs': `throw new Error('plugin exploded')`,
      'shape.mjs': `export default { id: 42 }`,
      'badaliases.mjs': `export default { id: 'vm2', aliases: 'nope' }`,
      'toolong.mjs': `export default { id: '${'x'.repeat(33)}' }`,
      'conflict.mjs': `export default { id: 'vm3', aliases: ['avm'] }`,
      'good.mjs': `export default { id: 'vm4' }`,
    })
    const vms = createVmRegistry({ pluginDir: dir })
    const { loaded, failed } = await vms.reload()
    expect(loaded).toEqual([vmIdFromName('vm4')])
    expect(failed).toEqual({
      'broken.mjs': 'plugin exploded',
      'shape.mjs': 'a VM plugin must export { id: string, aliases?: string[] }',
      'badaliases.mjs': 'a VM plugin must export { id: string, aliases?: string[] }',
      'toolong.mjs': `invalid vmID: "${'x'.repeat(33)}"`,
      [vmIdFromName('vm3')]: 'alias already mapped to an ID: avm',
    })
    // nothing of the refused VM stays behind, and it fails again on the next call
    expectThrows(() => vms.lookup('vm3'), AliasNotFoundError, 'there is no ID with alias: vm3')
    expect((await vms.reload()).failed[vmIdFromName('vm3')]).toBe('alias already mapped to an ID: avm')
  })

  it('reads an edited plugin again', async () => {
    const dir = pluginDir({ 'p.mjs': `throw new Error('not yet')` })
    const vms = createVmRegistry({ pluginDir: dir })
    expect((await vms.reload()).failed).toEqual({ 'p.mjs': 'not yet' })
    writeFileSync(join(dir, 'p.mjs'), `export default { id: 'fixedvm', aliases: [] }`)
    expect(await vms.reload()).toEqual({ loaded: [vmIdFromName('fixedvm')], failed: {} })
  })

  it('fails as os.ReadDir does when the directory is missing', async () => {
    const tmp = makeTmpDir('noplugins')
    cleanups.push(tmp.remove)
    const missing = join(tmp.dir, 'plugins')
    const vms = createVmRegistry({ pluginDir: missing })
    const error = await vms.reload().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PluginDirectoryError)
    expect((error as Error).message).toBe(`open ${missing}: no such file or directory`)
  })
})
