import { readdir, stat } from 'node:fs/promises'
import { extname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { BaseError, InvalidStateError } from '../core/errors.js'
import { idFromString, vmIdFromName } from '../core/ids.js'
import { importModule } from '../core/importModule.js'
import { Aliaser } from './aliases.js'
import { goQuote } from './logging.js'

/**
 * A node's virtual machines (`vms/manager.go` + `vms/registry`): the built-in VMs, and plugins
 * that `admin.loadVMs` finds in the plugin directory.
 *
 * Plugin format. avalanchego runs VM binaries named after their VM id; the emulator cannot run
 * them, so a plugin is an ES module file `<pluginDir>/<any name>.js` or `.mjs` whose default
 * export (or, without one, the module itself) is
 *
 * ```js
 * export default { id: 'myvm', aliases: ['my-vm'] }
 * ```
 *
 * - `id`: a cb58 VM id (`srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy`), an alias of a VM
 *   already known, or a VM name of up to 32 ASCII characters, whose id is the name zero-padded
 *   to 32 bytes (`vmIdFromName`), as subnet-EVM's id pads `subnetevm`; a name also becomes the
 *   VM's first alias.
 * - `aliases` (optional): more names for the VM, as `--vm-aliases-file` gives them.
 *
 * Files with other extensions and directories are skipped. A VM whose id is known already is
 * not loaded again, so a second `loadVMs` over the same files reports nothing new.
 */
export type VmPlugin = { id: string; aliases?: string[] }

/** Built-in VMs: the name their id pads, and their aliases (`genesis.VMAliases`, plus subnet-EVM's). */
export const BUILTIN_VMS: readonly { name: string; aliases: readonly string[] }[] = [
  { name: 'platformvm', aliases: ['platform'] },
  { name: 'avm', aliases: ['avm'] },
  { name: 'evm', aliases: ['evm'] },
  { name: 'subnetevm', aliases: ['subnetevm'] },
]

/** The plugin directory could not be read; the message is Go's `os.ReadDir` error. */
export class PluginDirectoryError extends InvalidStateError {
  override name = 'PluginDirectoryError'
}

const SYSCALL_MESSAGES: Record<string, string> = {
  ENOENT: 'no such file or directory',
  ENOTDIR: 'not a directory',
  EACCES: 'permission denied',
}

export type ReloadResult = {
  /** Ids of the VMs registered by this call. */
  loaded: string[]
  /** Plugins that failed: by VM id when it is known, by file name otherwise → error message. */
  failed: Record<string, string>
}

export type VmRegistryOptions = {
  /** `--plugin-dir` (default `<dataDir>/plugins`). */
  pluginDir: string
}

export class VmRegistry {
  readonly pluginDir: string
  /** VM aliases, each VM's own id string last among those given at registration. */
  readonly aliases = new Aliaser()
  private readonly registered = new Map<string, { source: string }>()

  constructor(options: VmRegistryOptions) {
    this.pluginDir = options.pluginDir
    for (const vm of BUILTIN_VMS) this.register(vmIdFromName(vm.name), vm.aliases, 'builtin')
  }

  /**
   * `RegisterFactory` with the VM's aliases: every alias and the id itself must be free (checked
   * before any is taken, so a refused VM leaves nothing behind).
   */
  register(id: string, aliases: readonly string[], source = 'builtin'): void {
    if (this.registered.has(id)) throw new InvalidStateError(`"${id}" was already registered as a vm`)
    const taken = new Set<string>()
    for (const alias of [...aliases, id]) {
      if (taken.has(alias) || this.isAlias(alias)) throw new InvalidStateError(`alias already mapped to an ID: ${alias}`)
      taken.add(alias)
    }
    for (const alias of taken) this.aliases.alias(id, alias)
    this.registered.set(id, { source })
  }

  has(id: string): boolean {
    return this.registered.has(id)
  }

  /** The VM an alias or id string names. */
  lookup(alias: string): string {
    return this.aliases.lookup(alias)
  }

  /** `ids.GetRelevantAliases`: each VM's aliases without its own id string. */
  relevantAliases(ids: readonly string[]): Record<string, string[]> {
    const sorted = [...ids].sort()
    return Object.fromEntries(sorted.map((id) => [id, (this.aliases.aliases(id) ?? []).filter((alias) => alias !== id)]))
  }

  /** Every registered VM with its relevant aliases (what `info.getVMs` lists). */
  list(): Record<string, string[]> {
    return this.relevantAliases([...this.registered.keys()])
  }

  /** Every registered VM with all its aliases (primary first, the id itself included), in registration order. */
  entries(): { id: string; aliases: string[] }[] {
    return [...this.registered.keys()].map((id) => ({ id, aliases: this.aliases.aliases(id) ?? [] }))
  }

  /**
   * `VMRegistry.Reload`: reads the plugin directory, imports each plugin not yet registered and
   * registers it. A directory that cannot be read fails the whole call, as in avalanchego.
   */
  async reload(): Promise<ReloadResult> {
    const entries = await this.readPluginDir()
    const found = new Map<string, { file: string; aliases: string[] }>()
    const failed: Record<string, string> = {}
    for (const entry of entries) {
      if (!entry.isFile() && !entry.isSymbolicLink()) continue
      const extension = extname(entry.name)
      if ((extension !== '.js' && extension !== '.mjs') || entry.name.length === extension.length) continue
      try {
        const plugin = await this.importPlugin(join(this.pluginDir, entry.name))
        const { id, nameAlias } = this.resolveId(plugin.id)
        if (this.registered.has(id)) continue
        const aliases = [...(nameAlias !== undefined && !plugin.aliases?.includes(nameAlias) ? [nameAlias] : []), ...(plugin.aliases ?? [])]
        found.set(id, { file: entry.name, aliases })
      } catch (error) {
        failed[entry.name] = error instanceof BaseError ? error.shortMessage : (error as Error).message
      }
    }

    const loaded: string[] = []
    for (const [id, plugin] of found) {
      try {
        this.register(id, plugin.aliases, plugin.file)
        loaded.push(id)
      } catch (error) {
        failed[id] = (error as BaseError).shortMessage
      }
    }
    return { loaded, failed }
  }

  private isAlias(alias: string): boolean {
    try {
      this.aliases.lookup(alias)
      return true
    } catch {
      return false
    }
  }

  private async readPluginDir() {
    try {
      const entries = await readdir(this.pluginDir, { withFileTypes: true })
      return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? ''
      const reason = SYSCALL_MESSAGES[code] ?? (error as Error).message
      throw new PluginDirectoryError(`open ${this.pluginDir}: ${reason}`, { cause: error })
    }
  }

  /** Imports a plugin; the URL carries the file's mtime and size, so an edited file is read again. */
  private async importPlugin(path: string): Promise<VmPlugin> {
    const { mtimeMs, size } = await stat(path)
    const module = await importModule(`${pathToFileURL(path).href}?v=${mtimeMs}-${size}`)
    const plugin = (module.default ?? module) as Partial<VmPlugin> | null
    const aliases = plugin?.aliases
    if (
      typeof plugin?.id !== 'string' ||
      (aliases !== undefined && (!Array.isArray(aliases) || !aliases.every((alias) => typeof alias === 'string')))
    )
      throw new InvalidStateError('a VM plugin must export { id: string, aliases?: string[] }')
    return { id: plugin.id, ...(aliases ? { aliases: [...aliases] } : {}) }
  }

  /** A known alias, a cb58 id, or a name that pads into an id (and becomes an alias). */
  private resolveId(value: string): { id: string; nameAlias?: string } {
    if (this.isAlias(value)) return { id: this.aliases.lookup(value) }
    try {
      idFromString(value)
      return { id: value }
    } catch {
      // not an id: a name
    }
    if (value.length === 0 || value.length > 32 || !/^[\x20-\x7e]+$/.test(value))
      throw new InvalidStateError(`invalid vmID: ${goQuote(value)}`)
    return { id: vmIdFromName(value), nameAlias: value }
  }
}

export function createVmRegistry(options: VmRegistryOptions): VmRegistry {
  return new VmRegistry(options)
}
