/**
 * The real local genesis, read through the clients a user runs against a real local network:
 * avalanchejs' `PVMApi` / `AVMApi` and its codec, `@avalanche-sdk/client`'s P-Chain client, viem
 * for the C-Chain and @avalabs/glacier-sdk for `/v1`, over HTTP on port 0.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { Glacier } from '@avalabs/glacier-sdk'
import { createPChainClient } from '@avalanche-sdk/client'
import { avalancheLocal } from '@avalanche-sdk/client/chains'
import { createPublicClient, createWalletClient, http, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex, hexToBytes } from '../../../src/core/hex.js'
import { idToString } from '../../../src/core/ids.js'
import { buildNetworkGenesis } from '../../../src/network/genesis.js'
import { ajs } from '../../platform/fixtures/ajs.js'
import { result, rpcError, sim, startTestDevnet, type TestDevnet } from './helpers.js'

const EWOQ_P = 'P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u'
const EWOQ_X = 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u'
const EWOQ_C = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC'
const AVAX = 1_000_000_000n
const PRIMARY = '11111111111111111111111111111111LpoYY'

let devnet: TestDevnet
beforeAll(async () => {
  devnet = await startTestDevnet('genesis', { dataApi: { apiKeys: { 'test-key': 'free' } } })
})
afterAll(() => devnet?.stop())

/** avalanchejs' P-Chain codec (its typings do not resolve under NodeNext: see fixtures/ajs.ts). */
const pvmManager = () => ajs.utils.getManagerForVM('PVM')
/** A tx's id from avalanchejs' own bytes of it (codec version, unsigned tx, credentials). */
const ajsTxId = (signed: { toBytes(): Uint8Array }) => idToString(sha256(signed.toBytes()))

describe('the P-Chain genesis', () => {
  it('holds the X- and C-Chain CreateChainTxs: getBlockchains lists them, getTx returns txs whose ids are the chain ids', async () => {
    const { url, network } = devnet
    const p = new ajs.pvm.PVMApi(url)
    const { blockchains } = await p.getBlockchains()
    const { preset } = network
    // The primary network's chains in id byte order, as the node's chain database iterates them.
    expect(blockchains).toEqual([
      { id: preset.xChainId, name: 'X-Chain', subnetID: PRIMARY, vmID: 'jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq' },
      { id: preset.cChainId, name: 'C-Chain', subnetID: PRIMARY, vmID: 'mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6' },
    ])
    for (const chain of blockchains) {
      const tx = await p.getTx({ txID: chain.id })
      expect(ajs.pvmSerial.isCreateChainTx(tx.unsignedTx)).toBe(true)
      expect(tx.unsignedTx.chainName.value()).toBe(chain.name)
      expect(ajsTxId(tx)).toBe(chain.id)
      expect(await p.getTxStatus({ txID: chain.id })).toEqual({ status: 'Committed' })
    }
    // The C-Chain's genesis text funds ewoq, as genesis_local.json's does.
    const cTx = await p.getTx({ txID: preset.cChainId })
    const cGenesis = JSON.parse(new TextDecoder().decode(cTx.unsignedTx.genesisData.toBytes().slice(4)))
    expect(cGenesis.alloc).toEqual({ '8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC': { balance: '0x295BE96E64066972000000' } })
    // and info.getBlockchainID is unchanged
    expect(await result(url, '/ext/info', 'info.getBlockchainID', { alias: 'X' })).toEqual({ blockchainID: preset.xChainId })
  })

  it('its validators are AddPermissionlessValidatorTxs with each node\'s BLS signer, committed at genesis', async () => {
    const { url, network } = devnet
    const p = new ajs.pvm.PVMApi(url)
    const { validators } = await p.getCurrentValidators({ subnetID: PRIMARY })
    expect(validators).toHaveLength(5)
    const fees = []
    for (const [i, node] of network.nodes.entries()) {
      const v = validators.find((x: { nodeID: string }) => x.nodeID === node.nodeId)
      // The node's own key and proof of possession, as it reports them itself.
      const { nodePOP } = await result(devnet.nodes[i]!.url, '/ext/info', 'info.getNodeID')
      expect(v.signer).toEqual(nodePOP)
      expect(v.signer).toEqual({ publicKey: node.identity.blsPublicKey, proofOfPossession: node.identity.proofOfPossession })
      // 2,000,000 AVAX each, from the local genesis' staked funds, and a potential reward as syncGenesis computes it.
      expect(v.weight).toBe(String(2_000_000n * AVAX))
      expect(BigInt(v.potentialReward)).toBeGreaterThan(0n)
      expect(v.validationRewardOwner).toEqual({ locktime: '0', threshold: '1', addresses: [EWOQ_P] })
      fees.push(v.delegationFee)

      const tx = await p.getTx({ txID: v.txID })
      expect(ajs.pvmSerial.isAddPermissionlessValidatorTx(tx.unsignedTx)).toBe(true)
      expect(ajsTxId(tx)).toBe(v.txID)
      // avalanchejs checks the proof of possession against the key as it decodes the signer.
      const signer = tx.unsignedTx.signer.proof
      expect([bytesToHex(signer.publicKey), bytesToHex(signer.signature)]).toEqual([node.identity.blsPublicKey, node.identity.proofOfPossession])
      expect(await p.getTxStatus({ txID: v.txID })).toEqual({ status: 'Committed' })
    }
    expect(fees).toEqual(['100.0000', '50.0000', '25.0000', '12.5000', '6.2500'])
  })

  it('the data API lists the genesis validators with their BLS credentials', async () => {
    const { url, network } = devnet
    const glacier = new Glacier({ BASE: url, HEADERS: { 'x-data-api-key': 'test-key' } })
    const { validators } = await glacier.primaryNetwork.listValidators({ network: 'local' as never })
    expect(validators).toHaveLength(network.nodes.length)
    for (const node of network.nodes) {
      const v = validators.find((x) => x.nodeId === node.nodeId) as { blsCredentials?: unknown; amountStaked: string }
      expect(v.blsCredentials).toEqual({ publicKey: node.identity.blsPublicKey, proofOfPossession: node.identity.proofOfPossession })
      expect(v.amountStaked).toBe(String(2_000_000n * AVAX))
    }
  })
})

describe('ewoq is funded as on a real local network', () => {
  it('P: 20M + 10M AVAX unlocked in the genesis UTXOs (empty tx id, outputs 0 and 1)', async () => {
    const p = new ajs.pvm.PVMApi(devnet.url)
    const balance = await p.getBalance({ addresses: [EWOQ_P] })
    expect(balance.unlocked).toBe(30_000_000n * AVAX)
    expect(balance.balance).toBe(30_000_000n * AVAX)
    const { utxos } = await p.getUTXOs({ addresses: [EWOQ_P] })
    const ids = utxos.map((u: { utxoId: { txID: { toString(): string }; outputIdx: { value(): number } } }) => `${u.utxoId.txID.toString()}:${u.utxoId.outputIdx.value()}`)
    expect(ids.sort()).toEqual([`${PRIMARY}:0`, `${PRIMARY}:1`])
  })

  it('X: 300M AVAX, the genesis asset\'s second output', async () => {
    const x = new ajs.avm.AVMApi(devnet.url)
    expect(BigInt((await x.getBalance({ address: EWOQ_X, assetID: 'AVAX' })).balance)).toBe(300_000_000n * AVAX)
    const { utxos } = await x.getUTXOs({ addresses: [EWOQ_X] })
    expect(utxos.map((u: { utxoId: { txID: { toString(): string }; outputIdx: { value(): number } } }) => `${u.utxoId.txID.toString()}:${u.utxoId.outputIdx.value()}`)).toEqual([`${devnet.network.preset.avaxAssetId}:1`])
  })

  it('C: 50M AVAX, and its key signs transactions there beside the dev accounts', async () => {
    const chain = { ...avalancheLocal, rpcUrls: { default: { http: [devnet.rpcUrl('C')] } } }
    const client = createPublicClient({ chain, transport: http(devnet.rpcUrl('C')) })
    expect(await client.getBalance({ address: EWOQ_C })).toBe(50_000_000n * 10n ** 18n)
    const ewoq = privateKeyToAccount('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027')
    expect(ewoq.address).toBe(EWOQ_C)
    const wallet = createWalletClient({ account: ewoq, chain, transport: http(devnet.rpcUrl('C')) })
    const hash = await wallet.sendTransaction({ to: '0x00000000000000000000000000000000000000cc', value: parseEther('1') })
    expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success')
    // the dev accounts keep their 10,000 AVAX
    expect(await client.getBalance({ address: devnet.network.devAccounts[0]!.address })).toBe(10_000n * 10n ** 18n)
  })
})

describe('P-Chain blocks', () => {
  /** A P-Chain block as the codec lays it out (vms/platformvm/block), its txs decoded by avalanchejs. */
  function decodeBlock(hex: string) {
    const bytes = hexToBytes(hex as `0x${string}`).slice(0, -4) // hex encoding ends in a 4-byte checksum
    const view = new DataView(bytes.buffer, bytes.byteOffset)
    expect(view.getUint16(0)).toBe(0)
    const type = view.getUint32(2)
    const id = idToString(sha256(bytes))
    if (type === 2) return { type, id, parentId: idToString(bytes.slice(6, 38)), height: Number(view.getBigUint64(38)), txs: [] as unknown[] }
    const time = Number(view.getBigUint64(6))
    let at = 14 + (type === 29 ? 4 : 0)
    const parentId = idToString(bytes.slice(at, at + 32))
    const height = Number(view.getBigUint64(at + 32))
    at += 40
    const count = type === 32 ? view.getUint32(at) : type === 29 ? 1 : 0
    if (type === 32) at += 4
    let rest = bytes.slice(at)
    const txs: unknown[] = []
    for (let i = 0; i < count; i++) {
      const [tx, remaining] = ajs.avaxSerial.SignedTx.fromBytes(rest, pvmManager().getDefaultCodec())
      txs.push(tx)
      rest = remaining
    }
    expect(rest).toHaveLength(0)
    return { type, id, time, parentId, height, txs }
  }

  it('getBlockByHeight and getBlock (@avalanche-sdk/client P-Chain client): bytes whose sha256 is the block id, chained by parent ids', async () => {
    const { url, network } = devnet
    const pChain = createPChainClient({ chain: avalancheLocal, transport: { type: 'http', url } })
    // A block with a tx, a time-advance block and reward blocks: a validator added and its stake ended.
    const added = await sim(url, 'addValidator', { stake: Number(2_000n * AVAX), duration: 14 * 24 * 3600 })
    await sim(url, 'advanceTime', { seconds: 15 * 24 * 3600 })
    const height = Number((await pChain.getHeight()).height)
    expect(height).toBe(network.primary.pchain.height)
    expect(height).toBeGreaterThanOrEqual(3)

    const genesis = await pChain.getBlockByHeight({ height: 0, encoding: 'hex' })
    expect(genesis.encoding).toBe('hex')
    const g = decodeBlock(genesis.block as string)
    // The genesis block is an ApricotCommitBlock at height 0 whose parent is the hash of the genesis bytes.
    expect(g).toMatchObject({ type: 2, height: 0, parentId: idToString(sha256(genesisBytes())) })

    let parent = g.id
    const kinds: number[] = []
    const txIds: string[] = []
    for (let h = 1; h <= height; h++) {
      const byHeight = await pChain.getBlockByHeight({ height: h, encoding: 'hex' })
      const b = decodeBlock(byHeight.block as string)
      expect(b.height).toBe(h)
      expect(b.parentId).toBe(parent)
      kinds.push(b.type)
      txIds.push(...b.txs.map((t) => ajsTxId(t as { toBytes(): Uint8Array })))
      // getBlock by the id the bytes hash to gives the same bytes; its JSON names that id.
      const byId = await pChain.getBlock({ blockId: b.id, encoding: 'hex' } as never)
      expect(byId.block).toBe(byHeight.block)
      const json = await pChain.getBlock({ blockId: b.id, encoding: 'json' } as never)
      expect(json.encoding).toBe('json')
      expect(json.block).toMatchObject({ id: b.id, parentID: parent, height: h, time: b.time })
      parent = b.id
    }
    // Banff blocks: the standard block of the AddPermissionlessValidatorTx, then at its end a proposal
    // block (RewardValidatorTx) and its commit.
    expect(kinds).toContain(32)
    expect(kinds.slice(-2)).toEqual([29, 31])
    expect(txIds).toContain(added.txID)
    expect((await pChain.getBlockByHeight({ height, encoding: 'hex' })).block).toBeDefined()
    expect(network.primary.pchain.state.lastBlockId).toBe(parent)
  })

  it('the genesis block as JSON, and unknown blocks refused with the node\'s messages', async () => {
    const { url, network } = devnet
    const genesis = await result(url, '/ext/bc/P', 'platform.getBlockByHeight', { height: '0', encoding: 'json' })
    const id = network.primary.pchain.state.d.blocks[0]!.id
    expect(genesis).toEqual({ block: { parentID: idToString(sha256(genesisBytes())), height: 0, id }, encoding: 'json' })
    const next = network.primary.pchain.height + 1
    await rpcError(url, '/ext/bc/P', 'platform.getBlockByHeight', { height: next }, `couldn't get block at height ${next}: not found`)
    await rpcError(url, '/ext/bc/P', 'platform.getBlock', { blockID: network.preset.xChainId }, `couldn't get block with id ${network.preset.xChainId}: not found`)
    expect(await result(url, '/ext/bc/P', 'platform.getProposedHeight')).toEqual({ height: String(network.primary.pchain.height) })
  })
})

/** The platformvm genesis bytes of the devnet's nodes and genesis time (avalanchego's `genesis.FromConfig`). */
function genesisBytes(): Uint8Array {
  const { network } = devnet
  const genesisTime = network.primary.pchain.state.d.blocks[0]!.timestamp
  return buildNetworkGenesis({ presetName: 'local', preset: network.preset, genesisTime, nodes: network.nodes.map((n) => n.identity), version: 2 }).platform.bytes
}
