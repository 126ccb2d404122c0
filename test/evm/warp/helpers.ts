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
