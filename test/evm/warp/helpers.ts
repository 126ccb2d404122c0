import { bls12_381 } from '@noble/curves/bls12-381.js'
import { numberToBytesBE } from '@noble/curves/utils.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { utf8ToBytes } from '@noble/hashes/utils.js'
import { createNodeIdentity, type NodeIdentity } from '../../../src/core/keys.js'
import { hexToBytes, type Hex } from '../../../src/core/hex.js'
import type { PrecompileCall, PrecompileRules } from '../../../src/evm/precompiles/types.js'

/** Deterministic node identities: the seed is sha256 of a label. */
export function identities(count: number, label = 'warp-test'): NodeIdentity[] {
  return Array.from({ length: count }, (_, i) => createNodeIdentity(sha256(utf8ToBytes(`${label}-${i}`))))
}

export const validatorInputs = (nodes: NodeIdentity[], weights: number[]) =>
  nodes.map((node, i) => ({ nodeId: node.nodeId, weight: BigInt(weights[i]!), blsPublicKey: hexToBytes(node.blsPublicKey) }))

export const bytes32 = (label: string): Uint8Array => sha256(utf8ToBytes(label))

export type CapturedLog = { topics: Uint8Array[]; data: Uint8Array }

export function makeCall(
  overrides: Partial<Omit<PrecompileCall, 'rules'>> & { rules?: Partial<PrecompileRules> } = {},
): { call: PrecompileCall; logs: CapturedLog[] } {
  const logs: CapturedLog[] = []
  const { rules, ...rest } = overrides
  const call: PrecompileCall = {
    address: '0x0200000000000000000000000000000000000005',
    caller: '0x1111111111111111111111111111111111111111' as Hex,
    origin: '0x2222222222222222222222222222222222222222' as Hex,
    input: new Uint8Array(0),
    gas: 1_000_000n,
    readOnly: false,
    value: 0n,
    rules: { isDurango: true, isGranite: false, blockNumber: 1n, timestamp: 1n, ...rules },
    state: {
      getStorage: async () => new Uint8Array(32),
      putStorage: async () => {},
      addBalance: async () => {},
    },
    log: (topics, data) => logs.push({ topics, data }),
    ...rest,
  }
  return { call, logs }
}

/** A compressed point on the curve outside the prime-order subgroup (the first x that is on it). */
export function offSubgroupG1(): Uint8Array {
  const { Fp } = bls12_381.fields
  for (let x = 1n; ; x++) {
    const y2 = Fp.add(Fp.pow(x, 3n), 4n)
    if (!Fp.eql(Fp.pow(y2, (Fp.ORDER - 1n) / 2n), Fp.ONE)) continue
    const bytes = numberToBytesBE(x, 48)
    bytes[0]! |= 0x80
    return bytes
  }
}

/** The same on G2 (y² = x³ + 4(1+i)), x = k + 0·i; compressed as c1 ‖ c0. */
export function offSubgroupG2(): Uint8Array {
  const { Fp2 } = bls12_381.fields
  const b = Fp2.create({ c0: 4n, c1: 4n })
  for (let k = 1n; ; k++) {
    const x = Fp2.create({ c0: k, c1: 0n })
    try {
      Fp2.sqrt(Fp2.add(Fp2.mul(Fp2.sqr(x), x), b))
    } catch {
      continue
    }
    const bytes = new Uint8Array(96)
    bytes.set(numberToBytesBE(k, 48), 48)
    bytes[0]! |= 0x80
    return bytes
  }
}
