import { describe, expect, it } from 'vitest'
import { sha256 } from '@noble/hashes/sha2.js'
import { subnetToL1ConversionId } from '../../../src/platform/pchain/executor.js'

describe('SubnetToL1ConversionID', () => {
  it('is sha256 of the codec bytes of SubnetToL1ConversionData, laid out as the Go struct', () => {
    const subnetId = new Uint8Array(32).fill(1)
    const chainId = new Uint8Array(32).fill(2)
    const address = Uint8Array.of(0xab, 0xcd)
    const nodeId = new Uint8Array(20).fill(3)
    const publicKey = new Uint8Array(48).fill(4)
    // codec version 0 | subnetID | managerChainID | u32 len + address | u32 count | (u32 len + nodeID | 48-byte key | u64 weight)…
    const expected = Buffer.concat([
      Buffer.from([0, 0]), subnetId, chainId, Buffer.from([0, 0, 0, 2]), address, Buffer.from([0, 0, 0, 1]),
      Buffer.from([0, 0, 0, 20]), nodeId, publicKey, Buffer.from([0, 0, 0, 0, 0, 0, 0, 7]),
    ])
    expect(Buffer.from(subnetToL1ConversionId({ subnetId, chainId, address, validators: [{ nodeId, signer: { publicKey }, weight: 7n }] }))).toEqual(Buffer.from(sha256(expected)))
  })
})
