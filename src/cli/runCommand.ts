/**
 * `l1sim run <scenario file>`: runs a scenario to its end on a network of its own (no server, the
 * scenario's own clock), prints each failed assertion and a summary, and exits 1 if any failed.
 * A file that does not validate prints every issue (`file:line:column: path: message`) and
 * exits 2, as a bad command line does: nothing ran.
 */
import { BaseError } from '../core/errors.js'
import { createNetwork, type Network } from '../network/network.js'
import { networkOptionsOf, readScenario, runScenario, ScenarioValidationError, type Scenario, type ScenarioRun } from '../scenario/index.js'
import { createProgressReporter, type ProgressOutput } from './progress.js'

type Output = { write(text: string): unknown }

export async function runCommand(file: string, stdout: Output, stderr: ProgressOutput): Promise<number> {
  let scenario: Scenario
  try {
    scenario = await readScenario(file)
  } catch (error) {
    if (error instanceof ScenarioValidationError) {
      stderr.write(`${error.shortMessage}\n${file}: ${error.issues.length} problem${error.issues.length === 1 ? '' : 's'}, nothing ran\n`)
      return 2
    }
    stderr.write(`l1sim: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? messageOf(error)}\n`)
    return 2
  }

  let network: Network
  try {
    network = await createNetwork(networkOptionsOf(scenario))
  } catch (error) {
    // The document validated, so this is the network refusing what it describes: one line, as
    // `start --scenario` reports it, never a stack trace.
    stderr.write(`l1sim: ${file}: ${messageOf(error)}\n`)
    return 1
  }
  const progress = createProgressReporter(stderr, file)
  const started = performance.now()
  let run: ScenarioRun
  try {
    run = await runScenario(network, scenario, { onProgress: (p) => progress.report(p) })
  } catch (error) {
    progress.done()
    stderr.write(`l1sim: ${messageOf(error)}\n`)
    return 1
  } finally {
    await network.close()
  }
  progress.done()

  for (const failure of run.failures) stdout.write(`FAIL ${failure.file}:${failure.line}:${failure.column}: ${failure.path}: ${failure.message}\n`)
  const last = progress.last
  const ran = last ? `${last.stepsDone} step${last.stepsDone === 1 ? '' : 's'}, ${last.blocks} block${last.blocks === 1 ? '' : 's'}` : '0 steps'
  const seconds = ((last?.elapsedMs ?? performance.now() - started) / 1000).toFixed(1)
  const verdict = run.failures.length === 0 ? 'ok' : 'FAILED'
  stdout.write(`${file}: ${ran} in ${seconds} s; ${run.passed} assertion${run.passed === 1 ? '' : 's'} passed, ${run.failures.length} failed: ${verdict}\n`)
  return run.failures.length === 0 ? 0 : 1
}

function messageOf(error: unknown): string {
  return error instanceof BaseError ? error.message : error instanceof Error ? error.message : String(error)
}
