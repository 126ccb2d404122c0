import { isMap, type Node } from 'yaml'
import type { Hex } from '../core/hex.js'
import { isValidMnemonic } from '../core/keys.js'
import { parseRelayerMode } from '../network/relayer.js'
import {
  anyValue, at, bool, byKind, describe, entries, int, list, object, oneOf, opt, positionOf, record, report, req, scalar, str,
  type At, type Check, type Position,
} from './schema.js'
import { PRECOMPILES, type PrecompileName } from './precompiles.js'
import { addressOrRef, chainRef, duration, evmAmount, name, nameRef, nodeRef, primaryAmount, ref, timestamp, type Ref } from './values.js'

export { PRECOMPILES, type PrecompileName }

const PRECOMPILE_NAMES = Object.keys(PRECOMPILES) as PrecompileName[]

const account = ref('acct')
const addresses = list(addressOrRef('acct', 'contract'))

/** `{ acct:alice: 100 ether, 0x…: 5 }`: balances by address or reference. */
function balances(): Check<{ address: Hex | Ref; amount: bigint }[]> {
  const key = addressOrRef('acct', 'contract')
  return (node, a) => {
    if (!isMap(node)) return report(a, node, `expected a mapping of addresses to amounts, got ${describe(a.ctx, node)}`)
    const out: { address: Hex | Ref; amount: bigint }[] = []
    let ok = true
    for (const e of entries(a.ctx, node)) {
      const where = at(a, e.key)
      const address = key(e.keyNode, where)
      const amount = e.value === null ? report(where, e.keyNode, 'expected an amount, got nothing') : evmAmount(e.value, where)
      if (address === undefined || amount === undefined) ok = false
      else out.push({ address, amount })
    }
    return ok ? out : undefined
  }
}

const precompileConfig = object({
  admins: opt(addresses),
  managers: opt(addresses),
  enabled: opt(addresses),
  /** nativeMinter: balances minted when it activates. */
  initialMint: opt(balances()),
  /** warp: the signature quorum in percent (67 by default). */
  quorumNumerator: opt(int(33, 100)),
})
export type PrecompileConfig = NonNullable<ReturnType<typeof precompileConfig>>

function precompiles(): Check<Map<PrecompileName, PrecompileConfig>> {
  return record((k) => ((PRECOMPILE_NAMES as string[]).includes(k) ? undefined : `unknown precompile ${JSON.stringify(k)} (expected ${PRECOMPILE_NAMES.join(', ')})`), precompileConfig) as Check<Map<PrecompileName, PrecompileConfig>>
}

const feeConfig = object({
  gasLimit: req(int(1)),
  minBaseFee: req(int(1)),
  targetGas: req(int(1)),
  baseFeeChangeDenominator: req(int(1)),
  minBlockGasCost: req(int(0)),
  maxBlockGasCost: req(int(0)),
  targetBlockRate: req(int(1)),
  blockGasCostStep: req(int(0)),
})
export type FeeConfig = NonNullable<ReturnType<typeof feeConfig>>

const upgrade = object({
  name: req(name),
  /** Seconds after the scenario's clock start. */
  at: req(duration),
  enable: opt(precompiles()),
  disable: opt(list(oneOf(PRECOMPILE_NAMES))),
})
export type UpgradeSpec = NonNullable<ReturnType<typeof upgrade>>

const chainFields = {
  name: req(name),
  chainId: req(int(1)),
  feeConfig: opt(feeConfig),
  precompiles: opt(precompiles()),
  upgrades: opt(list(upgrade)),
  alloc: opt(balances()),
}
const chainSpec = object(chainFields)
export type ChainSpec = NonNullable<ReturnType<typeof chainSpec>>

const l1Spec = object({ ...chainFields, validators: opt(list(object({ node: req(nodeRef(false)), weight: opt(int(1)) }), { min: 1 })) })
export type L1Spec = NonNullable<ReturnType<typeof l1Spec>>

const l1ValidatorSpec = object({ name: opt(name), node: req(nodeRef(true)), weight: req(int(1)), balance: req(primaryAmount) })
const subnetSpec = object({
  name: req(name),
  /** The dev account that pays for, owns and signs for the subnet (default account 0). */
  owner: opt(account),
  chains: req(list(chainSpec, { min: 1 })),
  convert: opt(object({ chain: req(chainRef(false)), manager: req(addressOrRef('acct', 'contract')), validators: req(list(l1ValidatorSpec, { min: 1 })) })),
})
export type SubnetSpec = NonNullable<ReturnType<typeof subnetSpec>>

const validatorSpec = object({ node: req(nodeRef(true)), stake: req(primaryAmount), duration: req(duration), account: opt(account), delegationFee: opt(int(0, 1_000_000)) })
const delegatorSpec = object({ node: req(nodeRef(false)), stake: req(primaryAmount), duration: req(duration), account: opt(account) })

const mining: Check<{ mode: 'auto' } | { mode: 'manual' } | { mode: 'interval'; interval: number }> = byKind(
  scalar('auto, manual or a mapping { interval: <seconds> }', (v) => (v === 'auto' || v === 'manual' ? { mode: v } : undefined)),
  (node, a) => {
    const o = object({ interval: req(int(1)) })(node, a)
    return o && { mode: 'interval' as const, interval: o.interval }
  },
)

const tier = byKind(str, object({ perMinute: req(int(1)), perDay: req(int(1)) }))
const price = scalar('a price as a number or a decimal string', (v) => (typeof v === 'number' && v >= 0 ? v : typeof v === 'string' && /^[0-9]+(\.[0-9]+)?$/.test(v) ? v : undefined))
const anyKey = () => undefined

/** The relayer's mode as `--relayer` takes it. */
const relayerMode = scalar('auto, manual, delay=<N>s or delay=<N>blocks', (v) => {
  if (typeof v !== 'string') return undefined
  try {
    parseRelayerMode(v)
    return v
  } catch {
    return undefined
  }
})

const FAULTS = ['disconnectNode', 'stallChain', 'fillDisk', 'closeDatabase', 'delayBootstrap', 'withholdWarpSignatures'] as const
const args = list(anyValue())

/** A `call` target: a deployed contract by name, or an address on a chain. */
const target = addressOrRef('contract')

const balanceAssert: Check<{ account: Hex | Ref; chain?: string; equals?: bigint; atLeast?: bigint; atMost?: bigint; $pos: Position }> = (node, a) => {
  const shape = object({ account: req(addressOrRef('acct', 'contract')), chain: opt(chainRef(true)), equals: opt(anyValue()), atLeast: opt(anyValue()), atMost: opt(anyValue()) })
  const o = shape(node, a)
  if (!o) return undefined
  const primary = o.chain === 'P' || o.chain === 'X'
  const out: { account: Hex | Ref; chain?: string; equals?: bigint; atLeast?: bigint; atMost?: bigint; $pos: Position } = { account: o.account, $pos: o.$pos }
  if (o.chain !== undefined) out.chain = o.chain
  let ok = true
  let any = false
  for (const e of entries(a.ctx, node)) {
    if (e.key !== 'equals' && e.key !== 'atLeast' && e.key !== 'atMost') continue
    any = true
    const v = e.value && (primary ? primaryAmount : evmAmount)(e.value, at(a, e.key))
    if (v === undefined || v === null) ok = false
    else out[e.key] = v
  }
  if (!any) return report(a, node, 'expected one of equals, atLeast, atMost')
  return ok ? out : undefined
}

const ASSERTS = {
  balance: balanceAssert,
  storage: object({ contract: req(target), chain: opt(chainRef(false)), slot: req(anyValue()), equals: req(anyValue()) }),
  event: object({ event: req(str), contract: opt(target), in: opt(ref('step')), args: opt(args) }),
  health: object({ node: req(nodeRef(false)), healthy: req(bool), check: opt(str), worker: opt(oneOf(['health', 'readiness', 'liveness'])) }),
  call: object({ contract: req(target), chain: opt(chainRef(false)), method: req(str), args: opt(args), from: opt(account), equals: req(anyValue()) }),
  l1Validator: object({ validation: req(ref('validation')), active: opt(bool), weight: opt(int(0)) }),
}

/** A P-chain ACP-77 message a `fromPChain` step delivers. */
const PCHAIN_MESSAGES = {
  conversion: ref('subnet'),
  registration: ref('validation'),
  removal: ref('validation'),
  weight: ref('validation'),
}

const STEPS = {
  send: object({ from: req(account), to: req(addressOrRef('acct', 'contract')), value: req(evmAmount), chain: opt(chainRef(false)) }),
  deploy: object({ contract: req(name), artifact: req(str), args: opt(args), from: opt(account), value: opt(evmAmount), chain: opt(chainRef(false)) }),
  call: object({ contract: req(target), method: req(str), args: opt(args), from: opt(account), value: opt(evmAmount), chain: opt(chainRef(false)) }),
  mint: object({ chain: req(chainRef(false)), from: req(account), to: req(addressOrRef('acct', 'contract')), amount: req(evmAmount) }),
  transfer: object({ token: req(ref('contract')), from: req(account), to: req(addressOrRef('acct', 'contract')), amount: opt(evmAmount), tokenId: opt(anyValue()) }),
  addValidator: validatorSpec,
  addDelegator: delegatorSpec,
  registerL1Validator: object({ name: req(name), subnet: req(ref('subnet')), node: req(nodeRef(true)), weight: req(int(1)), balance: req(primaryAmount), account: opt(account) }),
  setL1ValidatorWeight: object({ validation: req(ref('validation')), weight: req(int(0)), account: opt(account) }),
  increaseL1ValidatorBalance: object({ validation: req(ref('validation')), amount: req(primaryAmount), account: opt(account) }),
  disableL1Validator: object({ validation: req(ref('validation')), account: opt(account) }),
  sendAvax: object({ chain: req(chainRef(true)), from: req(account), to: req(account), amount: req(primaryAmount) }),
  atomic: object({ account: req(account), from: req(chainRef(true)), to: req(chainRef(true)), amount: req(primaryAmount) }),
  advance: duration,
  activate: object({ chain: req(chainRef(false)), upgrade: req(nameRef('upgrade')) }),
  inject: object({ fault: req(oneOf(FAULTS)), node: opt(nodeRef(false)), chain: opt(chainRef(false)), percent: opt(int(0, 100)), seconds: opt(int(1)) }),
  lift: byKind(scalar('all or a mapping { fault, node?, chain? }', (v) => (v === 'all' ? ('all' as const) : undefined)), object({ fault: req(oneOf(FAULTS)), node: opt(nodeRef(false)), chain: opt(chainRef(false)) })),
  relay: object({ message: req(ref('step')), to: req(target), method: req(str), args: opt(args), from: opt(account), chain: opt(chainRef(false)), signers: opt(list(nodeRef(false), { min: 1 })) }),
  relayer: object({ mode: opt(relayerMode), drop: opt(int(1)), duplicate: opt(int(1)), reorder: opt(list(ref('step'), { min: 1 })) }),
  deliver: byKind(scalar('all or a mapping { message: step:<name> }', (v) => (v === 'all' ? ('all' as const) : undefined)), object({ message: req(ref('step')) })),
  convertSubnetToL1: object({ subnet: req(ref('subnet')), chain: req(chainRef(false)), manager: req(addressOrRef('contract')), validators: req(list(l1ValidatorSpec, { min: 1 })) }),
  toPChain: object({ message: req(ref('step')), validation: opt(name), balance: opt(primaryAmount), account: opt(account) }),
  fromPChain: object({ message: req(oneKey('P-chain message', PCHAIN_MESSAGES)), to: req(ref('contract')), method: req(str), args: opt(args), from: opt(account) }),
  snapshot: name,
  revert: nameRef('snapshot'),
  assert: oneKey('assertion', ASSERTS),
}

type Checked<C> = C extends Check<infer T> ? T : never
export type StepKind = keyof typeof STEPS
export type StepBodies = { [K in StepKind]: Checked<(typeof STEPS)[K]> }
export type AssertKind = keyof typeof ASSERTS
export type AssertBodies = { [K in AssertKind]: Checked<(typeof ASSERTS)[K]> }
export type Assertion = { [K in AssertKind]: { kind: K; body: AssertBodies[K] } }[AssertKind]

/** A mapping with exactly one key among `kinds`. */
function oneKey<M extends Record<string, Check<unknown>>>(what: string, kinds: M): Check<{ [P in keyof M]: { kind: P; body: Checked<M[P]> } }[keyof M]> {
  type K = keyof M & string
  const names = Object.keys(kinds) as K[]
  return (node, a) => {
    if (!isMap(node)) return report(a, node, `expected a mapping with one ${what} (${names.join(', ')}), got ${describe(a.ctx, node)}`)
    const found = entries(a.ctx, node)
    let result: { kind: K; body: unknown } | undefined
    let ok = true
    for (const e of found) {
      if (!(names as string[]).includes(e.key)) {
        report(at(a, e.key), e.keyNode, `unknown ${what} ${JSON.stringify(e.key)} (expected one of ${names.join(', ')})`)
        ok = false
        continue
      }
      const body = e.value === null ? report(at(a, e.key), e.keyNode, 'expected a value, got nothing') : kinds[e.key as K]!(e.value, at(a, e.key))
      if (body === undefined) ok = false
      else if (!result) result = { kind: e.key as K, body }
    }
    const known = found.filter((e) => (names as string[]).includes(e.key))
    if (known.length > 1) return report(a, node, `expected one ${what}, got ${known.map((e) => e.key).join(' and ')}`)
    if (known.length === 0 && ok) return report(a, node, `expected one ${what} (${names.join(', ')})`)
    return ok ? (result as never) : undefined
  }
}

export type Step = { [K in StepKind]: { kind: K; body: StepBodies[K]; name?: string; at?: StepTime; index: number; path: string; pos: Position } }[StepKind]
export type StepTime = { offset: number } | { block: number; chain: string }

const stepTime: Check<StepTime> = byKind(
  (node, a) => {
    const d = duration(node, a)
    return d === undefined ? undefined : { offset: d }
  },
  (node, a) => {
    const o = object({ block: req(int(0)), chain: opt(chainRef(false)) })(node, a)
    return o && { block: o.block, chain: o.chain ?? 'C' }
  },
)

const STEP_COMMON = ['name', 'at'] as const

function step(node: Node, a: At, index: number): Step | undefined {
  a.ctx.step = index
  if (!isMap(node)) return report(a, node, `expected a mapping with one step (${Object.keys(STEPS).join(', ')}), got ${describe(a.ctx, node)}`)
  const found = entries(a.ctx, node)
  let ok = true
  let stepName: string | undefined
  let time: StepTime | undefined
  const kinds: { kind: StepKind; value: Node | null; keyNode: Node }[] = []
  for (const e of found) {
    const where = at(a, e.key)
    if (e.key === 'name') {
      stepName = e.value === null ? undefined : name(e.value, where)
      if (stepName === undefined) ok = false
    } else if (e.key === 'at') {
      time = e.value === null ? undefined : stepTime(e.value, where)
      if (time === undefined) ok = false
    } else if (Object.hasOwn(STEPS, e.key)) kinds.push({ kind: e.key as StepKind, value: e.value, keyNode: e.keyNode })
    else {
      report(where, e.keyNode, `unknown key ${JSON.stringify(e.key)} (expected a step: ${Object.keys(STEPS).join(', ')}; or ${STEP_COMMON.join(', ')})`)
      ok = false
    }
  }
  if (kinds.length === 0) return ok ? report(a, node, `expected one step (${Object.keys(STEPS).join(', ')})`) : undefined
  if (kinds.length > 1) return report(a, node, `expected one step, got ${kinds.map((k) => k.kind).join(' and ')}`)
  const { kind, value, keyNode } = kinds[0]!
  const where = at(a, kind)
  const body = value === null ? report(where, keyNode, 'expected a value, got nothing') : (STEPS[kind] as Check<unknown>)(value, where)
  if (body === undefined || !ok) return undefined
  return { kind, body, index, path: a.path, pos: positionOf(a.ctx, node), ...(stepName !== undefined ? { name: stepName } : {}), ...(time !== undefined ? { at: time } : {}) } as Step
}

const steps: Check<Step[]> = list<Step>((n, where, index) => step(n, where, index!))

const mnemonic = scalar('a BIP-39 mnemonic of English words', (v) => (typeof v === 'string' && isValidMnemonic(v) ? v : undefined))

export const documentShape = object({
  name: opt(str),
  description: opt(str),
  network: opt(object({ preset: opt(oneOf(['local', 'fuji', 'mainnet'])), seed: opt(str), nodes: opt(int(1, 100)), mining: opt(mining) })),
  clock: opt(object({ start: opt(timestamp), mode: opt(oneOf(['manual', 'realtime'])) })),
  node: opt(object({ apiAdminEnabled: opt(bool), healthCheckFrequency: opt(int(1)), bootstrapDelay: opt(int(1)), logLevel: opt(oneOf(['OFF', 'FATAL', 'ERROR', 'WARN', 'INFO', 'TRACE', 'DEBUG', 'VERBO'])) })),
  accounts: opt(object({ mnemonic: opt(mnemonic), count: opt(int(1, 1000)), balance: opt(evmAmount), named: opt(record(anyKey, int(0))) })),
  primary: opt(object({ validators: opt(list(validatorSpec)), delegators: opt(list(delegatorSpec)) })),
  l1s: opt(list(l1Spec)),
  subnets: opt(list(subnetSpec)),
  icm: opt(bool),
  dataApi: opt(object({ apiKeys: opt(record(anyKey, tier)), prices: opt(object({ usd: opt(record(anyKey, price)), rates: opt(record(anyKey, price)) })), rateLimits: opt(bool) })),
  steps: opt(steps),
})

export type ScenarioDocument = NonNullable<ReturnType<typeof documentShape>>
