import * as AbiConstructor from 'ox/AbiConstructor'
import * as AbiEvent from 'ox/AbiEvent'
import * as AbiFunction from 'ox/AbiFunction'
import { InvalidArgumentError } from '../core/errors.js'
import type { Hex } from '../core/hex.js'
import { parseAmount } from './amount.js'
import type { Ref } from './values.js'

/** A contract artifact as the scenario reads it: a Hardhat/Foundry-style JSON with `abi` and `bytecode`. */
export type Artifact = { contractName?: string; abi: readonly AbiItem[]; bytecode: Hex }
type AbiItem = { type?: string; name?: string; inputs?: readonly AbiParam[]; outputs?: readonly AbiParam[]; stateMutability?: string; anonymous?: boolean }
type AbiParam = { type: string; name?: string; indexed?: boolean; components?: readonly AbiParam[]; internalType?: string }

/** Reads an artifact's JSON; returns the reason when it is not one. */
export function artifactFrom(json: unknown): Artifact | string {
  if (typeof json !== 'object' || json === null) return 'is not a JSON object'
  const o = json as Record<string, unknown>
  if (!Array.isArray(o.abi)) return 'has no "abi" list'
  const raw = typeof o.bytecode === 'object' && o.bytecode !== null ? (o.bytecode as { object?: unknown }).object : o.bytecode
  if (typeof raw !== 'string' || !/^(0x)?[0-9a-fA-F]*$/.test(raw) || raw.replace(/^0x/, '').length === 0) return 'has no "bytecode" (hex text, or {object} as Foundry writes it)'
  return { ...(typeof o.contractName === 'string' ? { contractName: o.contractName } : {}), abi: o.abi as AbiItem[], bytecode: (raw.startsWith('0x') ? raw : `0x${raw}`) as Hex }
}

/**
 * The function a step names: a signature (`transfer(address,uint256)`, outputs optional as
 * `balanceOf(address) returns (uint256)`) or a name in the contract's ABI, chosen among overloads
 * by argument count. Returns the reason when there is none.
 */
export function resolveFunction(method: string, abi: readonly AbiItem[] | undefined, argCount: number): AbiFunction.AbiFunction | string {
  if (method.includes('(')) {
    try {
      return AbiFunction.from(`function ${method}` as string as 'function f()')
    } catch {
      return `method ${JSON.stringify(method)} is not a valid signature like "transfer(address,uint256)"`
    }
  }
  if (!abi) return `method ${JSON.stringify(method)} needs a full signature like "${method}(address,uint256)": there is no ABI to find it in`
  const candidates = abi.filter((i) => i.type === 'function' && i.name === method)
  if (candidates.length === 0) return `the contract's ABI has no function ${JSON.stringify(method)}`
  const matching = candidates.filter((i) => (i.inputs ?? []).length === argCount)
  if (matching.length !== 1)
    return `function ${method} takes ${candidates.map((c) => (c.inputs ?? []).length).join(' or ')} argument${candidates.length === 1 && (candidates[0]!.inputs ?? []).length === 1 ? '' : 's'}, got ${argCount}`
  return AbiFunction.from(matching[0] as AbiFunction.AbiFunction)
}

/** An event by signature (`Transfer(address,address,uint256)`: topic only) or by ABI name (decoded arguments). */
export function resolveEvent(event: string, abi: readonly AbiItem[] | undefined): AbiEvent.AbiEvent | string {
  if (event.includes('(')) {
    try {
      return AbiEvent.from(`event ${event}` as string as 'event E()')
    } catch {
      return `event ${JSON.stringify(event)} is not a valid signature like "Transfer(address,address,uint256)"`
    }
  }
  const found = abi?.find((i) => i.type === 'event' && i.name === event)
  if (!found) return abi ? `the contract's ABI has no event ${JSON.stringify(event)}` : `event ${JSON.stringify(event)} needs a full signature like "${event}(address,uint256)": there is no ABI to find it in`
  return AbiEvent.from(found as AbiEvent.AbiEvent)
}

export function constructorOf(abi: readonly AbiItem[]): AbiConstructor.AbiConstructor | undefined {
  const found = abi.find((i) => i.type === 'constructor')
  return found ? AbiConstructor.from(found as AbiConstructor.AbiConstructor) : undefined
}

/** A reference's value: an address, an id as bytes32, a node's id or BLS key as bytes, a conversion's data as a tuple. */
export type RefResolver = (ref: Ref) => unknown

/**
 * A scenario value as the ABI type wants it: references become addresses (`acct:`, `contract:`),
 * ids for `bytes32` (`chain:` a blockchain id, `subnet:`, `validation:`), a node's id (`node:<i>`)
 * or BLS public key (`bls:<i>`) for `bytes`, a subnet's SubnetToL1ConversionData for a tuple
 * (`conversion:<subnet>`); amounts like "1.5 ether" become integers, lists fill arrays and tuples.
 */
export function toAbiValue(param: AbiParam, value: unknown, resolveRef: RefResolver, path: string): unknown {
  const type = param.type
  const array = /^(.*)\[([0-9]*)\]$/.exec(type)
  const fail = (expected: string): never => {
    throw new InvalidArgumentError(`${path}: expected ${expected} for ${type}, got ${JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`)
  }
  if (array) {
    if (!Array.isArray(value)) return fail('a list')
    if (array[2] !== '' && value.length !== Number(array[2])) return fail(`${array[2]} items`)
    return value.map((v, i) => toAbiValue({ ...param, type: array[1]! }, v, resolveRef, `${path}[${i}]`))
  }
  if (type === 'tuple') {
    const conversion = typeof value === 'string' ? /^conversion:(.+)$/.exec(value) : null
    if (conversion) return resolveRef({ kind: 'conversion', name: conversion[1]! })
    const components = param.components ?? []
    if (Array.isArray(value)) return components.map((c, i) => toAbiValue(c, value[i], resolveRef, `${path}[${i}]`))
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(components.map((c) => [c.name, toAbiValue(c, (value as Record<string, unknown>)[c.name ?? ''], resolveRef, `${path}.${c.name}`)]))
    return fail('a list or a mapping')
  }
  const asRef = typeof value === 'string' ? /^(acct|contract|chain|subnet|validation|node|bls):(.+)$/.exec(value) : null
  if (type === 'address') {
    if (asRef && (asRef[1] === 'acct' || asRef[1] === 'contract')) return resolveRef({ kind: asRef[1] as Ref['kind'], name: asRef[2]! })
    if (typeof value === 'string' && /^0x[0-9a-fA-F]{40}$/.test(value)) return value
    return fail('an address or a reference')
  }
  if (/^u?int[0-9]*$/.test(type)) {
    if (typeof value === 'bigint') return value
    if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value)
    if (typeof value === 'string') {
      if (/^-?[0-9]+$/.test(value)) return BigInt(value)
      if (/^0x[0-9a-fA-F]+$/.test(value)) return BigInt(value)
      const amount = parseAmount(value, { wei: 0, gwei: 9, ether: 18, avax: 18 })
      if (amount !== undefined) return amount
    }
    return fail('an integer or an amount like "1.5 ether"')
  }
  if (type === 'bool') return typeof value === 'boolean' ? value : fail('true or false')
  if (type === 'string') return typeof value === 'string' ? value : fail('a string')
  if (/^bytes[0-9]*$/.test(type)) {
    const kind = asRef?.[1]
    if (asRef && type === 'bytes32' && (kind === 'chain' || kind === 'subnet' || kind === 'validation')) return resolveRef({ kind, name: asRef[2]! })
    if (asRef && ((type === 'bytes' && kind === 'bls') || ((type === 'bytes' || type === 'bytes20') && kind === 'node'))) return resolveRef({ kind, name: asRef[2]! })
    if (typeof value === 'string' && /^0x([0-9a-fA-F]{2})*$/.test(value)) return value
    return fail('hex bytes like "0x1234"')
  }
  return fail('a supported value')
}

/** Arguments of a function or constructor. */
export function toAbiArgs(params: readonly AbiParam[], args: readonly unknown[], resolveRef: RefResolver, path: string): unknown[] {
  if (params.length !== args.length) throw new InvalidArgumentError(`${path}: expected ${params.length} argument${params.length === 1 ? '' : 's'}, got ${args.length}`)
  return params.map((p, i) => toAbiValue(p, args[i], resolveRef, `${path}[${i}]`))
}

/** Plain comparable form of a decoded ABI value (lower-case hex, bigint integers, arrays). */
export function normalize(value: unknown): unknown {
  if (typeof value === 'string') return /^0x[0-9a-fA-F]*$/.test(value) ? value.toLowerCase() : value
  if (typeof value === 'number') return BigInt(value)
  if (Array.isArray(value)) return value.map(normalize)
  if (typeof value === 'object' && value !== null) return Object.values(value).map(normalize)
  return value
}

export function show(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
}
