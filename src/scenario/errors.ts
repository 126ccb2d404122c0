import { BaseError } from '../core/errors.js'

/** One problem in a scenario file: where it is (1-based line and column, the path in the document) and what was expected. */
export type ScenarioIssue = { file: string; line: number; column: number; path: string; message: string }

/** `file:line:column: path: message`, the one format of every scenario issue and failure. */
export function formatIssue(issue: ScenarioIssue): string {
  return `${issue.file}:${issue.line}:${issue.column}: ${issue.path ? `${issue.path}: ` : ''}${issue.message}`
}

/** A scenario file failed validation; `issues` lists every problem found, in document order. */
export class ScenarioValidationError extends BaseError {
  override name = 'ScenarioValidationError'
  readonly issues: ScenarioIssue[]
  constructor(issues: ScenarioIssue[]) {
    super(issues.map(formatIssue).join('\n'))
    this.issues = issues
  }
}

/** A step could not be carried out (a refused transaction, a P-chain refusal): positioned at the step. */
export class ScenarioStepError extends BaseError {
  override name = 'ScenarioStepError'
  readonly issue: ScenarioIssue
  constructor(issue: ScenarioIssue, cause?: unknown) {
    super(formatIssue(issue), { cause })
    this.issue = issue
  }
}
