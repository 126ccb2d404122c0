import * as AbiFunction from 'ox/AbiFunction'
import { InvalidStateError } from '../core/errors.js'
import { bytesToHex } from '@ethereumjs/util'
import type { Hex } from '../core/hex.js'
import { idFromString, parseNodeId } from '../core/ids.js'
import type { RegistrationPreimage } from '../network/pchainWarp.js'
import type { EvmChain } from '../evm/chain.js'
import type { Network } from '../network/network.js'
import { createEIP1193Provider, type EIP1193Provider } from '../rpc/provider.js'
import { resolveFunction, toAbiArgs } from './abi.js'
import { accountIndex } from './options.js'
import type { Scenario } from './parse.js'
import type { Ref } from './values.js'

/** What the scenario named, resolved: addresses, chains' blockchain ids, subnets, validation ids, transactions. */
export type ScenarioRefs = {
  accounts: Record<string, Hex>
  contracts: Record<string, { address: Hex; chain: string }>
  chains: Record<string, string>
  subnets: Record<string, string>
  validations: Record<string, string>
  txs: Record<string, { chain: string; hash: Hex }>
}

export type Receipt = { status: Hex; contractAddress: Hex | null; logs: { address: Hex; topics: Hex[]; data: Hex }[]; blockNumber: Hex }

/**
 * A running scenario's view of the network: its references resolved, one in-process EIP-1193
 * provider per chain, and the transaction helpers steps and assertions share.
 */
export class ScenarioContext {
  readonly network: Network
  readonly scenario: Scenario
  readonly refs: ScenarioRefs = { accounts: {}, contracts: {}, chains: {}, subnets: {}, validations: {}, txs: {} }
  /** ABIs of the deployed contracts by name. */
  readonly abis = new Map<string, readonly unknown[]>()
  /** Per subnet name, its ConvertSubnetToL1Tx's SubnetToL1ConversionData as a manager's `initializeValidatorSet` takes it (`conversion:<subnet>`). */
  readonly conversions = new Map<string, unknown[]>()
  /** The justification of a validation's not-registered message: its RegisterL1Validator payload or its conversion's subnet and index. */
  readonly justifications = new Map<string, RegistrationPreimage>()
  /** The last transaction a step sent (an `event` assertion's default). */
  lastTx: { chain: string; hash: Hex } | undefined
  readonly #providers = new Map<EvmChain, EIP1193Provider>()

  constructor(network: Network, scenario: Scenario) {
    this.network = network
    this.scenario = scenario
    network.devAccounts.forEach((a, i) => (this.refs.accounts[String(i)] = a.address.toLowerCase() as Hex))
    for (const [n, i] of scenario.accounts?.named ?? []) {
      const account = network.devAccounts[i]
      if (!account)
        throw new InvalidStateError(`the scenario names account ${i} (${n}), but the network has ${network.devAccounts.length} accounts (the options given beside the scenario set fewer)`)
      this.refs.accounts[n] = account.address.toLowerCase() as Hex
    }
    for (const l1 of network.l1s) this.refs.chains[l1.name] = l1.blockchainId
    this.refs.chains.C = network.preset.cChainId
  }

  // ---- references ---------------------------------------------------------------------------

  account(ref: Ref): number {
    return accountIndex(this.scenario, ref)
  }

  address(target: Hex | Ref): Hex {
    if (typeof target === 'string') return target
    if (target.kind === 'acct') return this.refs.accounts[target.name]!
    if (target.kind === 'contract') return this.refs.contracts[target.name]!.address
    if (target.kind === 'chain') return bytesToHex(idFromString(this.refs.chains[target.name]!)) as Hex
    throw new InvalidStateError(`${target.kind}:${target.name} is not an address`)
  }

  /** A reference as an ABI value (`toAbiValue`): addresses, ids as bytes32, a node's id or BLS key, a conversion's data. */
  value(ref: Ref): unknown {
    const id = (cb58: string | undefined) => {
      if (cb58 === undefined) throw new InvalidStateError(`${ref.kind}:${ref.name} is not known yet`)
      return bytesToHex(idFromString(cb58)) as Hex
    }
    if (ref.kind === 'subnet') return id(this.refs.subnets[ref.name])
    if (ref.kind === 'validation') return id(this.refs.validations[ref.name])
    if (ref.kind === 'node' || ref.kind === 'bls') {
      const node = this.network.nodes[Number(ref.name)]
      if (!node) throw new InvalidStateError(`node ${ref.name} does not exist`)
      return ref.kind === 'bls' ? node.identity.blsPublicKey : (bytesToHex(parseNodeId(node.nodeId)) as Hex)
    }
    if (ref.kind === 'conversion') {
      const data = this.conversions.get(ref.name)
      if (!data) throw new InvalidStateError(`subnet ${ref.name} has not been converted by this scenario`)
      return data
    }
    return this.address(ref)
  }

  chain(name: string | undefined): EvmChain {
    const chain = this.network.chain(name === undefined || name === 'C' ? 'C' : this.refs.chains[name] ?? name)
    if (!chain) throw new InvalidStateError(`chain ${name} is not running`)
    return chain
  }

  provider(chain: EvmChain): EIP1193Provider {
    let p = this.#providers.get(chain)
    if (!p) this.#providers.set(chain, (p = createEIP1193Provider({ network: this.network, chain })))
    return p
  }

  contractChain(target: Hex | Ref, chain: string | undefined): EvmChain {
    if (typeof target !== 'string' && target.kind === 'contract') return this.chain(this.refs.contracts[target.name]!.chain)
    return this.chain(chain)
  }

  abiOf(target: Hex | Ref): readonly unknown[] | undefined {
    return typeof target !== 'string' && target.kind === 'contract' ? this.abis.get(target.name) : undefined
  }

  encodeCall(target: Hex | Ref, method: string, args: readonly unknown[] = []): { fn: AbiFunction.AbiFunction; data: Hex } {
    const fn = resolveFunction(method, this.abiOf(target) as never, args.length)
    if (typeof fn === 'string') throw new InvalidStateError(fn)
    const values = toAbiArgs(fn.inputs, args, (r) => this.value(r), 'args')
    return { fn, data: AbiFunction.encodeData(fn, values as never) as Hex }
  }

  // ---- EVM ------------------------------------------------------------------------------------

  async send(chain: EvmChain, tx: { from: Hex; to?: Hex; value?: bigint; data?: Hex; accessList?: { address: Hex; storageKeys: Hex[] }[] }, label?: string): Promise<Receipt> {
    const provider = this.provider(chain)
    const request: Record<string, unknown> = { from: tx.from }
    if (tx.to) request.to = tx.to
    if (tx.value) request.value = `0x${tx.value.toString(16)}`
    if (tx.data) request.data = tx.data
    if (tx.accessList) request.accessList = tx.accessList
    const hash = (await provider.request({ method: 'eth_sendTransaction', params: [request] })) as Hex
    if (chain.mining.mode !== 'auto') await chain.miner.mine()
    const receipt = (await provider.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as Receipt | null
    if (!receipt) throw new InvalidStateError(`transaction ${hash} was not mined`)
    if (receipt.status !== '0x1') throw new InvalidStateError(`transaction ${hash} reverted`)
    this.lastTx = { chain: chain.alias, hash }
    if (label) this.refs.txs[label] = this.lastTx
    return receipt
  }

  async call(chain: EvmChain, from: Hex | undefined, to: Hex, data: Hex): Promise<Hex> {
    return (await this.provider(chain).request({ method: 'eth_call', params: [{ ...(from ? { from } : {}), to, data }, 'latest'] })) as Hex
  }

  from(ref: Ref | undefined): Hex {
    return ref ? this.address(ref) : this.refs.accounts['0']!
  }

  wallets(ref: Ref | undefined) {
    return this.network.wallets(ref ? this.account(ref) : 0)!
  }

  signer(node: number | 'new') {
    return node === 'new' ? this.network.newValidatorIdentity() : this.network.nodes[node]!.identity
  }
}
