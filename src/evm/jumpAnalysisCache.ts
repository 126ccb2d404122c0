import { importModule } from '../core/importModule.js'
import { installLazyRunState, installSyncSteps, installCallFrames, type InterpreterProto as StepsProto } from './ethereumjsInternals.js'
import { installedVersion } from './ethereumjsInternals/sealing.js'

/** The @ethereumjs/evm release whose interpreter internals this was written against. */
const PATCHED_VERSION = '10.1.3'

type Analysis = unknown
type InterpreterProto = {
  _getValidJumpDestinations(this: { _evm: { _opcodeMap: object } }, code: Uint8Array): Analysis
  __l1simJumpCache?: true
}

/**
 * ethereumjs analyses a contract's code (JUMPDEST positions, decoded PUSH values, opcode table)
 * every time a frame runs it: for a 1.6 KB token contract that is a tenth of an eth_call and a
 * third of its garbage. The analysis is a pure function of the code bytes and the opcode table,
 * and the interpreter only reads it, so it is cached per code array (the state manager hands out
 * the same array for the same code) and opcode table, weakly, so dropped code is collected.
 *
 * The interpreter is internal to @ethereumjs/evm, so this wraps its prototype method, only on
 * the release it was checked against; on any other release nothing is changed and ethereumjs
 * behaves as shipped. On that release the interpreter's loop also runs fixed-fee synchronous
 * opcodes without a promise each, and a frame's composite run state is built only when read
 * (`ethereumjsInternals/interpreterSteps.ts`). Returns whether
 * the cache is in place.
 */
export async function installJumpAnalysisCache(): Promise<boolean> {
  try {
    // Known at build time in the bundled CLI (scripts/bundle-cli.mjs pins it: resolving the package
    // and reading its package.json was ~1.5 ms of a cold start).
    if (installedVersion('@ethereumjs/evm') !== PATCHED_VERSION) return false
    // The bundled CLI (scripts/bundle-cli.mjs) publishes its copy of the class; otherwise the
    // module is loaded by path, the same instance the EVM imports.
    const bundled = (globalThis as Record<symbol, unknown>)[Symbol.for('l1sim.ethereumjs.Interpreter')] as { prototype: InterpreterProto } | undefined
    const mod = bundled
      ? { Interpreter: bundled }
      : await importModule<{ Interpreter?: { prototype: InterpreterProto } }>(new URL('./interpreter.js', import.meta.resolve('@ethereumjs/evm')).href)
    const proto = mod.Interpreter?.prototype
    if (!proto || typeof proto._getValidJumpDestinations !== 'function') return false
    if (typeof (proto as unknown as StepsProto).run === 'function') installSyncSteps(proto as unknown as StepsProto)
    installLazyRunState(mod.Interpreter as unknown as Parameters<typeof installLazyRunState>[0])
    installCallFrames()
    if (proto.__l1simJumpCache) return true
    const analyse = proto._getValidJumpDestinations
    const cache = new WeakMap<Uint8Array, WeakMap<object, Analysis>>()
    proto._getValidJumpDestinations = function (code) {
      let byTable = cache.get(code)
      if (!byTable) cache.set(code, (byTable = new WeakMap()))
      const table = this._evm._opcodeMap
      let analysis = byTable.get(table)
      if (analysis === undefined) byTable.set(table, (analysis = analyse.call(this, code)))
      return analysis
    }
    proto.__l1simJumpCache = true
    return true
  } catch {
    return false
  }
}

/** Installed once per process, before the first chain runs code. */
export const jumpAnalysisCache = installJumpAnalysisCache()
