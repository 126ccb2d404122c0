import * as AbiConstructor from 'ox/AbiConstructor'
import * as AbiFunction from 'ox/AbiFunction'
import { InvalidStateError } from '../core/errors.js'
import { hexToBytes } from '@ethereumjs/util'
import type { Hex } from '../core/hex.js'
import type { EvmChain } from '../evm/chain.js'
import { packPredicateHex, WARP_ADDRESS } from '../evm/warp/predicate.js'
import { abiDecodeBytes } from '../evm/warp/abi.js'
import { parseUnsignedMessage } from '../evm/warp/codec.js'
import { destinationSubnet } from '../network/warp.js'
import { createNetwork, type Network, type NetworkOptions } from '../network/network.js'
import { SUBNET_EVM_ID } from '../network/version.js'
import { constructorOf, toAbiArgs } from './abi.js'
import { AssertionError, checkAssertion } from './assertions.js'
import { deliverStep, relayerStep } from './relayerSteps.js'
import { ScenarioContext, type ScenarioRefs } from './context.js'
import { carryToPChain, convertSubnet, deliverFromPChain, sentWarpLog } from './l1Messages.js'
import type { Step } from './document.js'
import { ScenarioStepError } from './errors.js'
import { chainConfigOf, clockStartOf, networkOptionsOf } from './options.js'
import type { Scenario } from './parse.js'
import type { Position } from './schema.js'
import type { Ref } from './values.js'

export type { ScenarioRefs }
export type StepProgress = { stepsDone: number; stepsTotal: number; blocks: number; elapsedMs: number; step?: string }
/** A failed assertion: its step, path and position, as validation issues are positioned. */
export type AssertionFailure = { step: number; path: string; message: string; file: string; line: number; column: number }
export type ScenarioRun = { passed: number; failures: AssertionFailure[]; snapshots: Map<string, bigint>; refs: ScenarioRefs }
export type RunOptions = { onProgress?: (p: StepProgress) => void; stopOnFailure?: boolean }

/**
 * Runs a scenario on a network created from it: the primary-network stakers and the subnets
 * (P-chain transactions), then the timeline, each step through the library's own paths (the
 * EIP-1193 provider for EVM transactions and calls, the P- and X-chain wallets, faults, warp
 * signing). A step that cannot be carried out throws {@link ScenarioStepError}; assertions that
 * fail are collected.
 */
export async function runScenario(network: Network, scenario: Scenario, options: RunOptions = {}): Promise<ScenarioRun> {
  const runner = new Runner(network, scenario)
  return runner.run(options)
}

/** `createNetwork(networkOptionsOf(s) + overrides)`, {@link runScenario}, then the result is what `network.reset()` returns to. */
export async function createScenarioNetwork(scenario: Scenario, overrides: Partial<NetworkOptions> = {}): Promise<{ network: Network; run: ScenarioRun }> {
  const network = await createNetwork({ ...networkOptionsOf(scenario, overrides.preset), ...overrides })
  try {
    const run = await runScenario(network, scenario)
    await network.markInitial()
    return { network, run }
  } catch (error) {
    await network.close()
    throw error
  }
}

class Runner {
  readonly #network: Network
  readonly #scenario: Scenario
  readonly #ctx: ScenarioContext
  readonly #snapshots = new Map<string, bigint>()
  #blocks = 0

  constructor(network: Network, scenario: Scenario) {
    this.#network = network
    this.#scenario = scenario
    this.#ctx = new ScenarioContext(network, scenario)
  }

  async run(options: RunOptions): Promise<ScenarioRun> {
    const started = performance.now()
    const steps = this.#scenario.steps ?? []
    const failures: AssertionFailure[] = []
    let passed = 0
    const count = () => this.#blocks++
    // Chains started from the P-chain during setup are counted from then on.
    const watched = new Set<EvmChain>()
    const watch = () => {
      for (const chain of this.#network.chains) {
        if (watched.has(chain)) continue
        watched.add(chain)
        chain.events.on('block', count)
      }
    }
    watch()
    try {
      await this.#setup()
      watch()
      passed = await this.#timeline(steps, failures, options, started)
    } finally {
      for (const chain of watched) chain.events.off('block', count)
    }
    options.onProgress?.({ stepsDone: steps.length, stepsTotal: steps.length, blocks: this.#blocks, elapsedMs: performance.now() - started })
    return { passed, failures, snapshots: this.#snapshots, refs: this.#ctx.refs }
  }

  async #timeline(steps: readonly Step[], failures: AssertionFailure[], options: RunOptions, started: number): Promise<number> {
    let passed = 0
    for (const step of steps) {
      options.onProgress?.({ stepsDone: step.index, stepsTotal: steps.length, blocks: this.#blocks, elapsedMs: performance.now() - started, step: `${step.path} ${step.kind}${step.kind === 'assert' ? ` ${step.body.kind}` : ''}` })
      try {
        await this.#waitFor(step)
        await this.#step(step)
        // Deliveries a step's blocks started (the relayer in auto mode) are done before the next step looks.
        await this.#network.relayer.settled()
        if (step.kind === 'assert') passed++
      } catch (error) {
        if (error instanceof AssertionError) {
          failures.push({ step: step.index, path: `${step.path}.assert.${(step.body as { kind: string }).kind}`, message: error.message, file: this.#scenario.file, ...step.pos })
          if (options.stopOnFailure) break
          continue
        }
        throw this.#fail(step.pos, step.path + '.' + step.kind, error)
      }
    }
    return passed
  }

  #fail(pos: Position, path: string, error: unknown): ScenarioStepError {
    if (error instanceof ScenarioStepError) return error
    const message = (error as { shortMessage?: string }).shortMessage ?? (error as Error).message
    return new ScenarioStepError({ file: this.#scenario.file, ...pos, path, message }, error)
  }


  // ---- setup: primary stakers and subnets ----------------------------------------------------

  async #setup(): Promise<void> {
    const s = this.#scenario
    for (const [i, v] of (s.primary?.validators ?? []).entries())
      await this.#guard(v.$pos, `primary.validators[${i}]`, () => this.#addValidator(v))
    for (const [i, d] of (s.primary?.delegators ?? []).entries())
      await this.#guard(d.$pos, `primary.delegators[${i}]`, () => this.#addDelegator(d))
    for (const [i, subnet] of (s.subnets ?? []).entries()) {
      await this.#guard(subnet.$pos, `subnets[${i}]`, async () => {
        const { p } = this.#ctx.wallets(subnet.owner)
        const { subnetId } = p.createSubnet()
        this.#ctx.refs.subnets[subnet.name] = subnetId
        for (const chain of subnet.chains) {
          const { genesis } = chainConfigOf(s, chain, this.#network.presetName)
          const { blockchainId } = p.createChain({ subnetId, name: chain.name, vmId: SUBNET_EVM_ID, genesis: JSON.stringify(genesis) })
          await this.#network.startChainFromP(blockchainId)
          this.#ctx.refs.chains[chain.name] = blockchainId
        }
        if (subnet.convert) convertSubnet(this.#ctx, subnet.name, subnet.convert)
      })
    }
  }

  async #guard(pos: Position, path: string, fn: () => unknown): Promise<void> {
    try {
      await fn()
    } catch (error) {
      throw this.#fail(pos, path, error)
    }
  }

  #addValidator(v: { node: number | 'new'; stake: bigint; duration: number; account?: Ref; delegationFee?: number }) {
    const { p } = this.#ctx.wallets(v.account)
    return p.addValidator({ node: this.#ctx.signer(v.node), stake: v.stake, end: this.#network.clock.now() + v.duration, ...(v.delegationFee !== undefined ? { delegationFee: v.delegationFee } : {}) })
  }

  #addDelegator(d: { node: number | 'new'; stake: bigint; duration: number; account?: Ref }) {
    const { p } = this.#ctx.wallets(d.account)
    return p.addDelegator({ nodeId: this.#ctx.signer(d.node).nodeId, stake: d.stake, end: this.#network.clock.now() + d.duration })
  }

  // ---- the timeline ---------------------------------------------------------------------------

  async #waitFor(step: Step): Promise<void> {
    if (!step.at) return
    if ('offset' in step.at) {
      const due = clockStartOf(this.#scenario) + step.at.offset
      const now = this.#network.clock.now()
      if (due > now) await this.#network.advanceTime(due - now)
      return
    }
    const chain = this.#ctx.chain(step.at.chain)
    while (chain.head.number < BigInt(step.at.block)) await chain.miner.mine()
  }

  async #step(step: Step): Promise<void> {
    const network = this.#network
    const label = step.name
    switch (step.kind) {
      case 'send': {
        const b = step.body
        await this.#ctx.send(this.#ctx.chain(b.chain), { from: this.#ctx.from(b.from), to: this.#ctx.address(b.to), value: b.value }, label)
        return
      }
      case 'deploy': {
        const b = step.body
        const artifact = this.#scenario.artifacts.get(b.artifact)!
        const ctor = constructorOf(artifact.abi)
        const args = toAbiArgs(ctor?.inputs ?? [], b.args ?? [], (r) => this.#ctx.value(r), 'args')
        const data = ctor ? (AbiConstructor.encode(ctor, { bytecode: artifact.bytecode, args: args as never }) as Hex) : artifact.bytecode
        const chain = this.#ctx.chain(b.chain)
        const receipt = await this.#ctx.send(chain, { from: this.#ctx.from(b.from), data, ...(b.value ? { value: b.value } : {}) }, label)
        this.#ctx.refs.contracts[b.contract] = { address: receipt.contractAddress!, chain: b.chain ?? 'C' }
        this.#ctx.abis.set(b.contract, artifact.abi)
        network.registerArtifact(artifact as never)
        return
      }
      case 'call': {
        const b = step.body
        const { data } = this.#ctx.encodeCall(b.contract, b.method, b.args)
        await this.#ctx.send(this.#ctx.contractChain(b.contract, b.chain), { from: this.#ctx.from(b.from), to: this.#ctx.address(b.contract), data, ...(b.value ? { value: b.value } : {}) }, label)
        return
      }
      case 'mint': {
        const b = step.body
        const data = AbiFunction.encodeData(AbiFunction.from('function mintNativeCoin(address,uint256)'), [this.#ctx.address(b.to), b.amount]) as Hex
        await this.#ctx.send(this.#ctx.chain(b.chain), { from: this.#ctx.from(b.from), to: '0x0200000000000000000000000000000000000001', data }, label)
        return
      }
      case 'transfer': {
        const b = step.body
        const from = this.#ctx.from(b.from)
        const { data } =
          b.tokenId !== undefined
            ? this.#ctx.encodeCall(b.token, 'transferFrom(address,address,uint256)', [from, this.#ctx.address(b.to), b.tokenId])
            : this.#ctx.encodeCall(b.token, 'transfer(address,uint256)', [this.#ctx.address(b.to), b.amount ?? 0n])
        await this.#ctx.send(this.#ctx.contractChain(b.token, undefined), { from, to: this.#ctx.address(b.token), data }, label)
        return
      }
      case 'addValidator':
        this.#addValidator(step.body)
        return
      case 'addDelegator':
        this.#addDelegator(step.body)
        return
      case 'registerL1Validator': {
        const b = step.body
        const { p } = this.#ctx.wallets(b.account)
        const r = p.registerL1Validator({ subnetId: this.#ctx.refs.subnets[b.subnet.name]!, node: this.#ctx.signer(b.node), weight: BigInt(b.weight), balance: b.balance })
        this.#ctx.refs.validations[b.name] = r.validationId
        return
      }
      case 'setL1ValidatorWeight':
        this.#ctx.wallets(step.body.account).p.setL1ValidatorWeight({ validationId: this.#ctx.refs.validations[step.body.validation.name]!, weight: BigInt(step.body.weight) })
        return
      case 'increaseL1ValidatorBalance':
        this.#ctx.wallets(step.body.account).p.increaseL1ValidatorBalance({ validationId: this.#ctx.refs.validations[step.body.validation.name]!, amount: step.body.amount })
        return
      case 'disableL1Validator':
        this.#ctx.wallets(step.body.account).p.disableL1Validator({ validationId: this.#ctx.refs.validations[step.body.validation.name]! })
        return
      case 'sendAvax': {
        const b = step.body
        const w = this.#ctx.wallets(b.from)
        const to = this.#ctx.wallets(b.to).address
        if (b.chain === 'P') w.p.send([{ address: to, amount: b.amount }])
        else if (b.chain === 'X') network.primary.xchain.issueTx(w.x.send([{ address: to, amount: b.amount }]))
        else throw new InvalidStateError('sendAvax moves AVAX on chain:P or chain:X; use send on the C-chain')
        return
      }
      case 'atomic':
        await network.transfer({ from: step.body.from, to: step.body.to, amount: step.body.amount, account: this.#ctx.account(step.body.account) })
        return
      case 'advance':
        await network.advanceTime(step.body)
        return
      case 'activate': {
        const b = step.body
        const chainSpec = [...(this.#scenario.l1s ?? []), ...(this.#scenario.subnets ?? []).flatMap((s) => s.chains)].find((c) => c.name === b.chain)!
        const upgrade = chainSpec.upgrades!.find((u) => u.name === b.upgrade.name)!
        const due = clockStartOf(this.#scenario) + upgrade.at
        const now = network.clock.now()
        if (due > now) await network.advanceTime(due - now)
        await this.#ctx.chain(b.chain).miner.mine()
        return
      }
      case 'inject': {
        const b = step.body
        const f = network.faults
        const node = b.node as number | undefined
        if (b.fault === 'disconnectNode') f.disconnectNode(required(node, 'node'))
        else if (b.fault === 'stallChain') f.stallChain(this.#ctx.chain(required(b.chain, 'chain')).alias)
        else if (b.fault === 'fillDisk') f.fillDisk(b.percent ?? 0, node)
        else if (b.fault === 'closeDatabase') f.closeDatabase(node)
        else if (b.fault === 'withholdWarpSignatures') f.withholdWarpSignatures(required(node, 'node'))
        else f.delayBootstrap(required(b.seconds, 'seconds'), node)
        return
      }
      case 'lift': {
        const b = step.body
        const f = network.faults
        if (b === 'all') return f.clear()
        const node = b.node as number | undefined
        if (b.fault === 'disconnectNode') f.connectNode(required(node, 'node'))
        else if (b.fault === 'stallChain') f.resumeChain(this.#ctx.chain(required(b.chain, 'chain')).alias)
        else if (b.fault === 'fillDisk') f.clearDisk(node)
        else if (b.fault === 'closeDatabase') f.openDatabase(node)
        else if (b.fault === 'withholdWarpSignatures') f.resumeWarpSignatures(required(node, 'node'))
        else throw new InvalidStateError('a delayBootstrap fault ends by itself; advance time past it')
        return
      }
      case 'relay': {
        const b = step.body
        const log = await sentWarpLog(this.#ctx, b.message.name)
        // Signed by the validators the destination checks it against, as a relayer asks them: through
        // the signature aggregator (its faults apply), or by the nodes the step names.
        const destination = this.#ctx.contractChain(b.to, b.chain)
        const unsigned = abiDecodeBytes(hexToBytes(log.data))
        const signingSubnetId = destinationSubnet(network, destination.alias, parseUnsignedMessage(unsigned).sourceChainId)
        const signed = b.signers
          ? network.signWarpMessage(unsigned, { destination: destination.alias, signers: b.signers as number[] })
          : network.aggregateSignatures({ message: unsigned, ...(signingSubnetId ? { signingSubnetId } : {}) })
        const { data } = this.#ctx.encodeCall(b.to, b.method, b.args)
        await this.#ctx.send(destination, { from: this.#ctx.from(b.from), to: this.#ctx.address(b.to), data, accessList: [{ address: WARP_ADDRESS as Hex, storageKeys: packPredicateHex(signed) }] }, label)
        return
      }
      case 'relayer':
        return relayerStep(network, this.#ctx, step.body)
      case 'deliver':
        return deliverStep(network, this.#ctx, step.body)
      case 'convertSubnetToL1':
        convertSubnet(this.#ctx, step.body.subnet.name, step.body)
        return
      case 'toPChain':
        await carryToPChain(this.#ctx, step.body)
        return
      case 'fromPChain':
        await deliverFromPChain(this.#ctx, step.body, label)
        return
      case 'snapshot':
        this.#snapshots.set(step.body, await network.snapshot())
        return
      case 'revert': {
        const id = this.#snapshots.get(step.body.name)
        if (id === undefined || !(await network.revert(id))) throw new InvalidStateError(`snapshot ${step.body.name} was already used by a revert`)
        for (const [n, v] of [...this.#snapshots]) if (v >= id) this.#snapshots.delete(n)
        return
      }
      case 'assert':
        await checkAssertion(this.#ctx, step.body)
        return
    }
  }

}

function required<T>(value: T | undefined, key: string): T {
  if (value === undefined) throw new InvalidStateError(`this fault needs ${JSON.stringify(key)}`)
  return value
}
