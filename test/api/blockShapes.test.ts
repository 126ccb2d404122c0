/**
 * Each chain's own block JSON, read raw through viem over HTTP and WebSocket: the C-chain writes
 * coreth's (`extDataHash`, `extDataGasUsed`, `blockExtraData`), an L1 subnet-EVM's, which has no
 * atomic data (`internal/ethapi/api.go` `RPCMarshalHeader` / `RPCMarshalBlock`). A `newHeads`
 * notification is the VM's header JSON (`customtypes.HeaderSerializable`): struct order, unset
 * fields `null`, `hash` last, no `totalDifficulty`.
 */
import { createPublicClient, http, webSocket } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDevnet, type Devnet } from '../../src/index.js'
import { testGenesis } from '../l1/helpers.js'

/** What every block has on both VMs (geth's `RPCMarshalHeader` plus the block's own fields). */
const COMMON = [
  'baseFeePerGas', 'difficulty', 'extraData', 'gasLimit', 'gasUsed', 'hash', 'logsBloom', 'miner', 'mixHash', 'nonce', 'number',
  'parentHash', 'receiptsRoot', 'sha3Uncles', 'size', 'stateRoot', 'timestamp', 'totalDifficulty', 'transactions', 'transactionsRoot', 'uncles',
]
const CANCUN = ['blobGasUsed', 'excessBlobGas', 'parentBeaconBlockRoot']
const GRANITE = ['minDelayExcess', 'timestampMilliseconds']
const CORETH = ['blockExtraData', 'extDataGasUsed', 'extDataHash']
const sorted = (...lists: string[][]) => lists.flat().sort()

/** `HeaderSerializable`'s field order; subnet-EVM's lacks the two atomic-data fields. */
const CORETH_HEAD = [
  'parentHash', 'sha3Uncles', 'miner', 'stateRoot', 'transactionsRoot', 'receiptsRoot', 'logsBloom', 'difficulty', 'number', 'gasLimit',
  'gasUsed', 'timestamp', 'extraData', 'mixHash', 'nonce', 'extDataHash', 'baseFeePerGas', 'extDataGasUsed', 'blockGasCost',
  'blobGasUsed', 'excessBlobGas', 'parentBeaconBlockRoot', 'timestampMilliseconds', 'minDelayExcess', 'hash',
]
const SUBNET_EVM_HEAD = CORETH_HEAD.filter((k) => k !== 'extDataHash' && k !== 'extDataGasUsed')

/** A year after the devnet's start: an L1 whose Granite is still ahead. */
const LATE_GRANITE = 1_798_761_600

describe('block JSON per VM', () => {
  let devnet: Devnet
  beforeAll(async () => {
    devnet = await startDevnet({
      port: 0,
      nodes: 1,
      l1s: [
        { name: 'dex', genesis: testGenesis() },
        { name: 'old', genesis: testGenesis({ chainId: 99998, graniteTimestamp: LATE_GRANITE }) },
      ],
    })
  })
  afterAll(() => devnet.close())

  const client = (chain: string) => createPublicClient({ transport: http(devnet.rpcUrl(chain)) })
  const rawBlock = async (chain: string, tag: string) =>
    (await client(chain).request({ method: 'eth_getBlockByNumber', params: [tag as `0x${string}`, false] })) as unknown as Record<string, unknown>

  it('eth_getBlockByNumber: an L1 block has no coreth fields; the C-chain has them', async () => {
    for (const chain of ['C', 'dex', 'old']) await client(chain).request({ method: 'evm_mine' as never })
    // Genesis and block 1 of each, with the fields the upgrades active at their time set.
    for (const tag of ['0x0', '0x1']) {
      expect(Object.keys(await rawBlock('dex', tag))).toEqual(sorted(COMMON, ['blockGasCost'], CANCUN, GRANITE))
      expect(Object.keys(await rawBlock('old', tag))).toEqual(sorted(COMMON, ['blockGasCost'], CANCUN))
      expect(Object.keys(await rawBlock('C', tag))).toEqual(sorted(COMMON, ['blockGasCost'], CANCUN, GRANITE, CORETH))
    }
    const c = await rawBlock('C', '0x1')
    expect(c).toMatchObject({ blockExtraData: '0x', extDataGasUsed: '0x0', blockGasCost: '0x0', minDelayExcess: '0x799d4c', totalDifficulty: '0x1' })
    expect(c.extDataHash).toBe('0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421')
    expect((await rawBlock('C', '0x0')).extDataHash).toBe(`0x${'0'.repeat(64)}`)
    expect(await rawBlock('dex', '0x0')).toMatchObject({ blockGasCost: '0x0', minDelayExcess: '0x799d4c', timestampMilliseconds: '0x17631456480' })
  })

  it('eth_subscribe newHeads: the header JSON in struct order, unset fields null', async () => {
    const heads = async (chain: string) => {
      const ws = createPublicClient({ transport: webSocket(devnet.wsUrl(chain)) })
      let resolve!: (head: Record<string, unknown>) => void
      const head = new Promise<Record<string, unknown>>((r) => (resolve = r))
      const { unsubscribe } = await ws.transport.subscribe({ params: ['newHeads'], onData: (data) => resolve((data as { result: Record<string, unknown> }).result) })
      await client(chain).request({ method: 'evm_mine' as never })
      const result = await head
      await unsubscribe()
      ;(await ws.transport.getRpcClient()).close()
      return result
    }
    const c = await heads('C')
    expect(Object.keys(c)).toEqual(CORETH_HEAD)
    expect(Object.values(c)).not.toContain(null)
    const dex = await heads('dex')
    expect(Object.keys(dex)).toEqual(SUBNET_EVM_HEAD)
    expect(Object.values(dex)).not.toContain(null)
    const old = await heads('old')
    expect(Object.keys(old)).toEqual(SUBNET_EVM_HEAD)
    expect(old).toMatchObject({ timestampMilliseconds: null, minDelayExcess: null })
    expect(old.blockGasCost).toMatch(/^0x/)
    // The notification is the block's header: the same values eth_getBlockByNumber gives.
    const block = await rawBlock('old', old.number as string)
    for (const key of SUBNET_EVM_HEAD) if (old[key] !== null) expect(old[key], key).toBe(block[key])
  })
})
