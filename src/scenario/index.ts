/** Scenario files: one schema, validated with positions, and a runner over the network's own paths. */
export { parseScenario, readScenario, type Scenario } from './parse.js'
export { ScenarioValidationError, ScenarioStepError, formatIssue, type ScenarioIssue } from './errors.js'
export { networkOptionsOf } from './options.js'
export { runScenario, createScenarioNetwork, type StepProgress, type AssertionFailure, type ScenarioRun, type ScenarioRefs, type RunOptions } from './run.js'
