import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Hex } from 'viem'
import type { Devnet } from '../../src/index.js'
import { idToString, PRIMARY_NETWORK_ID } from '../../src/core/ids.js'
import { parseMessage, encodeUnsignedMessage } from '../../src/evm/warp/codec.js'
import { canonicalValidatorSet, verifyWarpMessage } from '../../src/evm/warp/signature.js'
import { warpDevnet } from '../helpers/warpDevnet.js'

describe('the signature aggregator at /aggregate-signatures', () => {
  let devnet: Devnet
  /** The `SendWarpMessage` log's data and the unsigned message in it. */
  let sent: { data: Hex; unsigned: Hex }

  beforeAll(async () => {
    ;({ devnet, sent } = await warpDevnet('0xdeadbeef'))
  })
  afterAll(() => devnet.close())

  const aggregate = async (body: unknown, init: RequestInit = {}) => {
    const res = await fetch(`${devnet.url}/aggregate-signatures`, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), ...init })
    return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as Record<string, string> }
  }
  /** Checks the aggregate BLS signature against the subnet's validator keys, as a receiving chain does. */
  const verify = (signedHex: string, subnetId: string, quorum = 67) =>
    verifyWarpMessage({ message: Buffer.from(signedHex, 'hex'), networkId: devnet.network.preset.networkId, validators: canonicalValidatorSet(devnet.network.validators.get(subnetId)), quorumNumerator: quorum })

  it('signs a message the L1 sent, given as the unsigned bytes or as the log data, 0x optional', async () => {
    const subnetId = devnet.network.l1('a')!.subnetId
    for (const message of [sent.unsigned, sent.unsigned.slice(2), sent.data]) {
      const { status, type, body } = await aggregate({ message })
      expect(status).toBe(200)
      expect(type).toBe('application/json')
      const signed = body['signed-message']!
      expect(signed).toMatch(/^[0-9a-f]+$/)
      expect(verify(signed, subnetId)).toBeUndefined()
      const parsed = parseMessage(Buffer.from(signed, 'hex'))
      expect(`0x${Buffer.from(parsed.unsignedBytes).toString('hex')}`).toBe(sent.unsigned)
      // all five validators of the L1 sign
      expect([...parsed.signature.signers]).toEqual([0x1f])
    }
    // the library call gives the same message
    expect(Buffer.from(devnet.network.aggregateSignatures({ message: sent.data })).toString('hex')).toBe((await aggregate({ message: sent.data })).body['signed-message'])
  })

  it('signs the hash of an accepted block (a Hash payload), not of any other', async () => {
    const res = await fetch(devnet.rpcUrl('a'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['latest', false] }) })
    const { result } = (await res.json()) as { result: { hash: Hex } }
    const accepted = devnet.network.warpBlockHashMessage('a', result.hash)
    const { status, body } = await aggregate({ message: Buffer.from(accepted).toString('hex') })
    expect(status).toBe(200)
    expect(verify(body['signed-message']!, devnet.network.l1('a')!.subnetId)).toBeUndefined()
    const other = Uint8Array.from(accepted)
    other[other.length - 1]! ^= 1
    expect(await aggregate({ message: Buffer.from(other).toString('hex') })).toMatchObject({ status: 500, body: { error: 'failed to aggregate signatures. error: failed to collect a threshold of signatures' } })
  })

  it('signs with another subnet when asked (signing-subnet-id, cb58 or 0x hex)', async () => {
    for (const subnet of [PRIMARY_NETWORK_ID, `0x${'00'.repeat(32)}`]) {
      const { status, body } = await aggregate({ message: sent.unsigned, 'signing-subnet-id': subnet, 'quorum-percentage': 100 })
      expect(status).toBe(200)
      expect(verify(body['signed-message']!, PRIMARY_NETWORK_ID, 100)).toBeUndefined()
    }
  })

  it('refuses what it cannot read with 400 and icm-services\' words', async () => {
    const cases: [unknown, string][] = [
      ['{', 'Could not decode request body'],
      [{ message: 5 }, 'Could not decode request body'],
      [{ message: sent.unsigned, 'quorum-percentage': -1 }, 'Could not decode request body'],
      [{ message: '0xzz' }, 'Could not decode message'],
      [{}, 'Error unpacking warp message'],
      [{ message: '0x00' }, 'Error unpacking warp message'],
      [{ message: sent.unsigned, justification: '0x1' }, 'Could not decode justification'],
      // an all-zero message parses (network 0, chain 0, empty payload): without a justification it is nothing
      [{ message: '00'.repeat(42) }, 'Must provide either message or justification'],
      [{ message: sent.unsigned, 'quorum-percentage': 101 }, 'Invalid quorum number'],
      [{ message: sent.unsigned, 'signing-subnet-id': 'nope' }, 'Error parsing signing subnet ID'],
      [{ message: sent.unsigned, 'signing-subnet-id': '0x00' }, 'Error parsing signing subnet ID'],
    ]
    for (const [body, error] of cases) expect(await aggregate(body)).toEqual({ status: 400, type: 'application/json', body: { error } })
  })

  it('fails with 500 for a message the network never produced, or an unknown source chain', async () => {
    const l1 = devnet.network.l1('a')!
    const forged = encodeUnsignedMessage({ networkId: devnet.network.preset.networkId, sourceChainId: l1.blockchainIdBytes, payload: Uint8Array.of(1, 2, 3) })
    expect(await aggregate({ message: Buffer.from(forged).toString('hex') })).toEqual({
      status: 500,
      type: 'application/json',
      body: { error: 'failed to aggregate signatures. error: failed to collect a threshold of signatures' },
    })
    const unknown = encodeUnsignedMessage({ networkId: devnet.network.preset.networkId, sourceChainId: new Uint8Array(32).fill(9), payload: Uint8Array.of(1) })
    expect((await aggregate({ message: Buffer.from(unknown).toString('hex') })).body).toEqual({
      error: `failed to aggregate signatures. error: source blockchain not found for chain ID ${idToString(new Uint8Array(32).fill(9))}`,
    })
  })

})
