import { existsSync, readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, resolve as resolvePath } from 'node:path'
import { LineCounter, parseDocument, type Node } from 'yaml'
import { artifactFrom, resolveEvent, resolveFunction, type Artifact } from './abi.js'
import { checkAliases } from './aliases.js'
import { documentShape, type ScenarioDocument, type Step } from './document.js'
import { ScenarioValidationError, type ScenarioIssue } from './errors.js'
import { chainConfigIssues } from './options.js'
import { positionOf, type Ctx, type Position } from './schema.js'
import { isRef } from './values.js'

/** A validated scenario: the document, the file it came from, and the artifacts its deploy steps read. */
export type Scenario = ScenarioDocument & {
  file: string
  /** Artifacts by the path written in the document (relative to the scenario's folder). */
  artifacts: Map<string, Artifact>
}

/** Parses and validates a scenario (YAML or JSON text); throws {@link ScenarioValidationError} listing every issue. */
export function parseScenario(text: string, file: string): Scenario {
  const lines = new LineCounter()
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true })
  const issues: ScenarioIssue[] = []
  for (const error of doc.errors) {
    const { line, col } = lines.linePos(error.pos[0])
    issues.push({ file, line, column: col, path: '', message: error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '') })
  }
  if (issues.length > 0) throw new ScenarioValidationError(issues)
  // Before anything reads the document with its aliases expanded.
  const aliases = checkAliases(doc, lines, file)
  if (aliases.issues.length > 0) throw new ScenarioValidationError(aliases.issues)
  const ctx: Ctx = { file, text, lines, doc, aliases: aliases.targets, issues: [], refs: [], step: -1 }
  const root = doc.contents as Node | null
  const document = root === null ? documentShape(doc.createNode({}) as Node, { ctx, path: '' }) : documentShape(root, { ctx, path: '' })
  const artifacts = checkReferences(ctx, document)
  if (ctx.issues.length > 0 || !document) throw new ScenarioValidationError(sortIssues(ctx.issues))
  const scenario = { ...document, file, artifacts }
  const chainIssues = chainConfigIssues(scenario)
  if (chainIssues.length > 0) throw new ScenarioValidationError(chainIssues)
  return scenario
}

/** Reads and validates a scenario file. */
export async function readScenario(path: string): Promise<Scenario> {
  return parseScenario(await readFile(path, 'utf8'), path)
}

function sortIssues(issues: ScenarioIssue[]): ScenarioIssue[] {
  return [...issues].sort((a, b) => a.line - b.line || a.column - b.column)
}

/**
 * The second pass: every reference names something defined (contracts, validations, steps and
 * snapshots earlier in the timeline), artifact files exist and hold an ABI and bytecode, and
 * methods and events are found in the ABI they name.
 */
function checkReferences(ctx: Ctx, document: ScenarioDocument | undefined): Map<string, Artifact> {
  const artifacts = new Map<string, Artifact>()
  const issue = (pos: Position, path: string, message: string) => ctx.issues.push({ file: ctx.file, ...pos, path, message })
  const nodeAt = (path: (string | number)[]): Node | null => (ctx.doc.getIn(path, true) as Node | undefined) ?? null
  // Definitions are read from the raw document, so a section with a bad value elsewhere still
  // defines its names and one mistake does not cascade into unknown-reference issues.
  const raw = rawDocument(ctx)
  const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {})
  const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
  const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
  const accounts = obj(raw.accounts)
  const accountCount = typeof accounts.count === 'number' ? accounts.count : 20
  const named = new Map(Object.entries(obj(accounts.named)).filter((e): e is [string, number] => typeof e[1] === 'number'))
  for (const [n, index] of named)
    if (index >= accountCount) issue(positionOf(ctx, nodeAt(['accounts', 'named', n])), `accounts.named.${n}`, `account index ${index} is beyond the ${accountCount} dev accounts`)
  const nodes = obj(raw.network).nodes
  const nodeCount = typeof nodes === 'number' ? nodes : 5
  const chains = new Map<string, string[]>()
  const chainPaths = new Map<string, string>([['C', 'the C-chain'], ['P', 'the P-chain'], ['X', 'the X-chain']])
  const upgradeNames = (c: Record<string, unknown>) => arr(c.upgrades).flatMap((u) => text(obj(u).name) ?? [])
  // A chain's name is its alias (/ext/bc/<name>/rpc, chain:<name>): one chain each.
  const defineChain = (c: Record<string, unknown>, keys: (string | number)[], path: string) => {
    const chainName = text(c.name)
    if (chainName === undefined) return
    const taken = chainPaths.get(chainName)
    if (taken !== undefined) issue(positionOf(ctx, nodeAt([...keys, 'name'])), `${path}.name`, `chain name ${JSON.stringify(chainName)} is already taken by ${taken}`)
    else chainPaths.set(chainName, path)
    chains.set(chainName, upgradeNames(c))
  }
  arr(raw.l1s).forEach((l1, i) => defineChain(obj(l1), ['l1s', i], `l1s[${i}]`))
  const subnets = new Set<string>()
  const validations = new Map<string, number>()
  arr(raw.subnets).map(obj).forEach((s, i) => {
    if (text(s.name)) subnets.add(text(s.name)!)
    arr(s.chains).forEach((c, j) => defineChain(obj(c), ['subnets', i, 'chains', j], `subnets[${i}].chains[${j}]`))
    for (const v of arr(obj(s.convert).validators).map(obj)) if (text(v.name)) validations.set(text(v.name)!, -1)
  })
  /** Contracts by name: the deploy step, and its artifact (undefined when it could not be read). */
  const contracts = new Map<string, { step: number; artifact?: Artifact; broken?: boolean }>()
  const stepNames = new Map<string, number>()
  const snapshots = new Map<string, number>()
  const dir = dirname(ctx.file)
  arr(raw.steps).forEach((rawStep, index) => {
    const step = obj(rawStep)
    const deploy = obj(step.deploy)
    if (text(deploy.contract)) {
      const path = text(deploy.artifact)
      const artifact = path === undefined ? undefined : loadArtifact(ctx, artifacts, dir, path, positionOf(ctx, nodeAt(['steps', index, 'deploy', 'artifact'])), `steps[${index}].deploy.artifact`)
      contracts.set(text(deploy.contract)!, { step: index, ...(artifact ? { artifact } : { broken: true }) })
    }
    if (text(obj(step.registerL1Validator).name)) validations.set(text(obj(step.registerL1Validator).name)!, index)
    if (text(obj(step.toPChain).validation)) validations.set(text(obj(step.toPChain).validation)!, index)
    for (const v of arr(obj(step.convertSubnetToL1).validators).map(obj)) if (text(v.name)) validations.set(text(v.name)!, index)
    if (text(step.snapshot)) snapshots.set(text(step.snapshot)!, index)
    const stepName = text(step.name)
    if (stepName !== undefined) {
      if (stepNames.has(stepName)) issue(positionOf(ctx, nodeAt(['steps', index, 'name'])), `steps[${index}].name`, `step name ${JSON.stringify(stepName)} is already used by steps[${stepNames.get(stepName)}]`)
      else stepNames.set(stepName, index)
    }
  })
  const earlier = (defined: number | undefined, use: number) => defined !== undefined && (use < 0 ? defined < 0 : defined < use)
  const list = (names: Iterable<string>) => [...names].join(', ') || 'none'
  const steps = document?.steps ?? []
  for (const r of ctx.refs) {
    const at = (message: string) => issue(r.pos, r.path, message)
    switch (r.kind) {
      case 'acct':
        if (/^[0-9]+$/.test(r.name) ? Number(r.name) >= accountCount : !named.has(r.name))
          at(`unknown account acct:${r.name} (named accounts: ${list(named.keys())}; or acct:<index below ${accountCount}>)`)
        break
      case 'node':
        if (Number(r.name) >= nodeCount) at(`node:${r.name} does not exist (the network has ${nodeCount} nodes)`)
        break
      case 'chain':
        if (!chains.has(r.name)) at(`unknown chain chain:${r.name} (chains: ${list(['C', ...chains.keys()])})`)
        break
      case 'subnet':
        if (!subnets.has(r.name)) at(`unknown subnet subnet:${r.name} (subnets: ${list(subnets)})`)
        break
      case 'contract':
        if (!earlier(contracts.get(r.name)?.step, r.step)) at(`unknown contract contract:${r.name} (no earlier deploy step names it)`)
        break
      case 'validation':
        if (!earlier(validations.get(r.name), r.step)) at(`unknown validation validation:${r.name} (no conversion validator or earlier registerL1Validator or toPChain step names it)`)
        break
      case 'step':
        if (!earlier(stepNames.get(r.name), r.step)) at(`unknown step step:${r.name} (no earlier step has this name)`)
        break
      case 'snapshot':
        if (!earlier(snapshots.get(r.name), r.step)) at(`unknown snapshot ${JSON.stringify(r.name)} (no earlier snapshot step takes it)`)
        break
      case 'upgrade': {
        const chain = text(obj(obj(arr(raw.steps)[r.step]).activate).chain)?.replace(/^chain:/, '')
        const upgrades = chain === undefined ? undefined : chains.get(chain)
        if (chain === 'C') at('the C-chain has no scenario upgrades')
        else if (upgrades && !upgrades.includes(r.name)) at(`chain ${chain} has no upgrade ${JSON.stringify(r.name)} (upgrades: ${list(upgrades)})`)
        break
      }
    }
  }
  for (const step of steps) checkAbiUse(ctx, step, contracts, issue, nodeAt)
  return artifacts
}

function rawDocument(ctx: Ctx): Record<string, unknown> {
  try {
    // Aliases are bounded already (checkAliases); yaml's own count would refuse a document the
    // checks accepted, and its definitions would silently go missing.
    const js: unknown = ctx.doc.toJS({ maxAliasCount: -1 })
    return typeof js === 'object' && js !== null && !Array.isArray(js) ? (js as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/** Reads an artifact file (once per path) relative to the scenario's folder; reports why it cannot be used. */
function loadArtifact(ctx: Ctx, artifacts: Map<string, Artifact>, dir: string, path: string, where: Position, at: string): Artifact | undefined {
  const cached = artifacts.get(path)
  if (cached) return cached
  const issue = (message: string): undefined => {
    ctx.issues.push({ file: ctx.file, ...where, path: at, message: `artifact file ${JSON.stringify(path)} ${message}` })
    return undefined
  }
  const file = resolvePath(dir, path)
  if (!existsSync(file)) return issue(`does not exist (paths are relative to the scenario's folder)`)
  let json: unknown
  try {
    json = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    return issue(`is not JSON: ${(error as Error).message}`)
  }
  const read = artifactFrom(json)
  if (typeof read === 'string') return issue(read)
  artifacts.set(path, read)
  return read
}

/** Methods and events named on deployed contracts exist in their ABI with that many arguments. */
function checkAbiUse(
  ctx: Ctx,
  step: Step,
  contracts: Map<string, { step: number; artifact?: Artifact; broken?: boolean }>,
  issue: (pos: Position, path: string, message: string) => void,
  nodeAt: (path: (string | number)[]) => Node | null,
): void {
  const abiOf = (target: unknown) => (isRef(target) && target.kind === 'contract' ? contracts.get(target.name)?.artifact?.abi : undefined)
  // A contract that is unknown or whose artifact could not be read has its own issue already.
  const unusable = (target: unknown) => isRef(target) && target.kind === 'contract' && (contracts.get(target.name) === undefined || contracts.get(target.name)!.broken === true)
  const check = (keys: (string | number)[], target: unknown, method: string, args: readonly unknown[] | undefined) => {
    if (unusable(target)) return
    const found = resolveFunction(method, abiOf(target), args?.length ?? 0)
    if (typeof found === 'string') issue(positionOf(ctx, nodeAt(['steps', step.index, ...keys, 'method'])), `steps[${step.index}].${keys.join('.')}.method`, found)
    else if (method.includes('(') && (args?.length ?? 0) !== found.inputs.length)
      issue(positionOf(ctx, nodeAt(['steps', step.index, ...keys, 'method'])), `steps[${step.index}].${keys.join('.')}.method`, `${method} takes ${found.inputs.length} argument${found.inputs.length === 1 ? '' : 's'}, got ${args?.length ?? 0}`)
  }
  if (step.kind === 'call') check(['call'], step.body.contract, step.body.method, step.body.args)
  if (step.kind === 'relay') check(['relay'], step.body.to, step.body.method, step.body.args)
  if (step.kind === 'fromPChain') check(['fromPChain'], step.body.to, step.body.method, step.body.args)
  if (step.kind === 'assert' && step.body.kind === 'call') check(['assert', 'call'], step.body.body.contract, step.body.body.method, step.body.body.args)
  if (step.kind === 'assert' && step.body.kind === 'event') {
    if (unusable(step.body.body.contract)) return
    const found = resolveEvent(step.body.body.event, abiOf(step.body.body.contract))
    if (typeof found === 'string') issue(positionOf(ctx, nodeAt(['steps', step.index, 'assert', 'event', 'event'])), `steps[${step.index}].assert.event.event`, found)
  }
  if (step.kind === 'deploy') {
    const abi = contracts.get(step.body.contract)?.artifact?.abi
    const inputs = abi?.find((i) => i.type === 'constructor')?.inputs ?? []
    if (abi && inputs.length !== (step.body.args?.length ?? 0))
      issue(positionOf(ctx, nodeAt(['steps', step.index, 'deploy'])), `steps[${step.index}].deploy.args`, `the constructor takes ${inputs.length} argument${inputs.length === 1 ? '' : 's'}, got ${step.body.args?.length ?? 0}`)
  }
}
