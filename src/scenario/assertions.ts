import * as AbiEvent from 'ox/AbiEvent'
import * as AbiFunction from 'ox/AbiFunction'
import { BaseError, InvalidStateError } from '../core/errors.js'
import type { Hex } from '../core/hex.js'
import { normalize, resolveEvent, show, toAbiArgs, toAbiValue } from './abi.js'
import type { ScenarioContext, Receipt } from './context.js'
import type { AssertBodies, Assertion } from './document.js'

/** An assertion that does not hold: recorded as a failure, not thrown out of the run. */
export class AssertionError extends BaseError {
  override name = 'AssertionError'
}

/** Checks one `assert` step against the network's current state; throws {@link AssertionError} when it does not hold. */
export async function checkAssertion(ctx: ScenarioContext, a: Assertion): Promise<void> {
  switch (a.kind) {
    case 'balance':
      return checkBalance(ctx, a.body)
    case 'storage': {
      const b = a.body
      const chain = ctx.contractChain(b.contract, b.chain)
      const slot = toAbiValue({ type: 'uint256' }, b.slot, (r) => ctx.value(r), 'slot') as bigint
      const got = BigInt((await ctx.provider(chain).request({ method: 'eth_getStorageAt', params: [ctx.address(b.contract), `0x${slot.toString(16)}`, 'latest'] })) as Hex)
      const want = toAbiValue({ type: typeof b.equals === 'string' && b.equals.startsWith('0x') && b.equals.length === 42 ? 'address' : 'uint256' }, b.equals, (r) => ctx.value(r), 'equals')
      const wantInt = typeof want === 'bigint' ? want : BigInt(want as Hex)
      if (got !== wantInt) throw new AssertionError(`storage slot ${slot} of ${ctx.address(b.contract)}: expected ${wantInt}, got ${got}`)
      return
    }
    case 'event': {
      const b = a.body
      const tx = b.in ? ctx.refs.txs[b.in.name] : ctx.lastTx
      if (!tx) throw new AssertionError('no transaction to look for the event in')
      const ev = resolveEvent(b.event, b.contract ? (ctx.abiOf(b.contract) as never) : undefined)
      if (typeof ev === 'string') throw new InvalidStateError(ev)
      const receipt = (await ctx.provider(ctx.chain(tx.chain)).request({ method: 'eth_getTransactionReceipt', params: [tx.hash] })) as Receipt
      const topic = AbiEvent.getSelector(ev).toLowerCase()
      const address = b.contract ? ctx.address(b.contract) : undefined
      const logs = receipt.logs.filter((l) => l.topics[0]?.toLowerCase() === topic && (!address || l.address.toLowerCase() === address))
      if (logs.length === 0) throw new AssertionError(`transaction ${tx.hash} emitted no ${b.event}${address ? ` from ${address}` : ''}`)
      if (b.args) {
        const want = normalize(toAbiArgs(ev.inputs, b.args, (r) => ctx.value(r), 'args'))
        const decoded = logs.map((l) => normalize(Object.values(AbiEvent.decode(ev, l as never) as object)))
        if (!decoded.some((d) => show(d) === show(want))) throw new AssertionError(`no ${b.event} with args ${show(want)}; emitted ${decoded.map(show).join(', ')}`)
      }
      return
    }
    case 'health': {
      const b = a.body
      const reply = ctx.network.nodes[b.node as number]!.health.worker(b.worker ?? 'health').results()
      const healthy = b.check ? reply.checks[b.check] !== undefined && reply.checks[b.check]!.error === undefined : reply.healthy
      if (b.check && !reply.checks[b.check]) throw new AssertionError(`node ${b.node} has no health check ${JSON.stringify(b.check)}`)
      if (healthy !== b.healthy) throw new AssertionError(`node ${b.node}${b.check ? ` check ${b.check}` : ''}: expected ${b.healthy ? 'healthy' : 'unhealthy'}, got ${healthy ? 'healthy' : 'unhealthy'}`)
      return
    }
    case 'call': {
      const b = a.body
      const { fn, data } = ctx.encodeCall(b.contract, b.method, b.args)
      const chain = ctx.contractChain(b.contract, b.chain)
      const out = await ctx.call(chain, b.from ? ctx.from(b.from) : undefined, ctx.address(b.contract), data)
      const decoded = AbiFunction.decodeResult(fn, out)
      const expected = fn.outputs.length === 1 ? toAbiValue(fn.outputs[0]!, b.equals, (r) => ctx.value(r), 'equals') : toAbiArgs(fn.outputs, b.equals as unknown[], (r) => ctx.value(r), 'equals')
      if (show(normalize(decoded)) !== show(normalize(expected))) throw new AssertionError(`${b.method}: expected ${show(normalize(expected))}, got ${show(normalize(decoded))}`)
      return
    }
    case 'l1Validator': {
      const b = a.body
      const id = ctx.refs.validations[b.validation.name]!
      const v = ctx.network.primary.pchain.state.getL1Validator(id)
      if (!v) throw new AssertionError(`validation ${b.validation.name} (${id}) is not on the P-chain`)
      const active = v.endAccumulatedFee !== 0n
      if (b.active !== undefined && active !== b.active) throw new AssertionError(`validation ${b.validation.name}: expected ${b.active ? 'active' : 'inactive'}, got ${active ? 'active' : 'inactive'}`)
      if (b.weight !== undefined && v.weight !== BigInt(b.weight)) throw new AssertionError(`validation ${b.validation.name}: expected weight ${b.weight}, got ${v.weight}`)
      return
    }
  }
}

async function checkBalance(ctx: ScenarioContext, b: AssertBodies['balance']): Promise<void> {
  let got: bigint
  let unit: string
  if (b.chain === 'P' || b.chain === 'X') {
    if (typeof b.account === 'string' || b.account.kind !== 'acct') throw new InvalidStateError('P- and X-chain balances are of dev accounts (acct:…)')
    const w = ctx.wallets(b.account)
    got = b.chain === 'P' ? w.p.balance() : ctx.network.primary.xchain.balanceOf(w.address)
    unit = 'nAVAX'
  } else {
    const chain = ctx.chain(b.chain)
    got = BigInt((await ctx.provider(chain).request({ method: 'eth_getBalance', params: [ctx.address(b.account), 'latest'] })) as Hex)
    unit = 'wei'
  }
  const who = typeof b.account === 'string' ? b.account : `${b.account.kind}:${b.account.name}`
  if (b.equals !== undefined && got !== b.equals) throw new AssertionError(`balance of ${who} on ${b.chain ?? 'C'}: expected ${b.equals} ${unit}, got ${got}`)
  if (b.atLeast !== undefined && got < b.atLeast) throw new AssertionError(`balance of ${who} on ${b.chain ?? 'C'}: expected at least ${b.atLeast} ${unit}, got ${got}`)
  if (b.atMost !== undefined && got > b.atMost) throw new AssertionError(`balance of ${who} on ${b.chain ?? 'C'}: expected at most ${b.atMost} ${unit}, got ${got}`)
}
