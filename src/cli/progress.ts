/**
 * A scenario run's progress on stderr. On a terminal: one line, redrawn in place (at most every
 * 100 ms of the run) and erased at the end. Elsewhere (a log, a pipe): a plain line once per
 * second of the run, so a run shorter than a second prints nothing and a long one shows it is
 * alive without flooding the log.
 */
import type { StepProgress } from '../scenario/index.js'

export type ProgressOutput = { write(text: string): unknown; isTTY?: boolean }

export type ProgressReporter = {
  /** Called with every progress report of the run. */
  report(progress: StepProgress): void
  /** The last report (the run's totals once it has ended), if any. */
  readonly last: StepProgress | undefined
  /** Erases the terminal line, if one is shown. */
  done(): void
}

export function createProgressReporter(out: ProgressOutput, label: string): ProgressReporter {
  const tty = out.isTTY === true
  let last: StepProgress | undefined
  let shownAt = -Infinity
  let lineShown = false
  return {
    report(progress) {
      last = progress
      if (tty) {
        if (progress.elapsedMs - shownAt < 100 && progress.stepsDone !== progress.stepsTotal) return
        shownAt = progress.elapsedMs
        out.write(`\r\x1b[K${formatProgress(label, progress)}`)
        lineShown = true
        return
      }
      const second = Math.floor(progress.elapsedMs / 1000)
      if (second < 1 || second * 1000 <= shownAt) return
      shownAt = second * 1000
      out.write(`${formatProgress(label, progress)}\n`)
    },
    get last() {
      return last
    },
    done() {
      if (lineShown) out.write('\r\x1b[K')
      lineShown = false
    },
  }
}

/** `label: step 3/12, 40 blocks, 1.2 s (deploy token)`. */
export function formatProgress(label: string, p: StepProgress): string {
  return `${label}: step ${p.stepsDone}/${p.stepsTotal}, ${p.blocks} block${p.blocks === 1 ? '' : 's'}, ${(p.elapsedMs / 1000).toFixed(1)} s${p.step ? ` (${p.step})` : ''}`
}
