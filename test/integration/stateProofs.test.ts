/**
 * The state trie seen from a client: every block's state root, and EIP-1186 proofs (viem's
 * getProof) of accounts and storage slots at that block that verify against it, at the head and
 * at old blocks after later writes, a snapshot's revert and blocks built over it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyMerkleProof } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { createPublicClient, createTestClient, createWalletClient, defineChain, encodeAbiParameters, http, keccak256, parseEther, type Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { startDevnet, type Devnet } from '../../src/index.js'
import { ERC20 } from '../fixtures/contracts/index.js'

const alice = mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: 0 })
const holder = (i: number) => `0x${(0xa11ce000 + i).toString(16).padStart(40, '0')}` as Hex
/** The fixture's `balanceOf` mapping is its fourth slot. */
const balanceSlot = (who: Hex) => keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [who, 3n]))

describe('state roots and EIP-1186 proofs', () => {
  let devnet: Devnet
  let client: ReturnType<typeof createPublicClient>
  let wallet: ReturnType<typeof createWalletClient>
  let test: ReturnType<typeof createTestClient>
  let token: Hex
  beforeAll(async () => {
    devnet = await startDevnet({ port: 0 })
    const url = devnet.rpcUrl('C')
    const chain = defineChain({ id: 43112, name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [url] } } })
    client = createPublicClient({ chain, transport: http(url) })
    wallet = createWalletClient({ chain, transport: http(url), account: alice })
    test = createTestClient({ chain, mode: 'anvil', transport: http(url) })
    const hash = await wallet.deployContract({ abi: ERC20.abi, bytecode: ERC20.bytecode as Hex, args: ['Token', 'TOK', parseEther('1000')], chain, account: alice })
    token = (await client.waitForTransactionReceipt({ hash })).contractAddress!
  })
  afterAll(() => devnet.close())

  const transfer = async (to: Hex, value: bigint) => {
    const hash = await wallet.writeContract({ address: token, abi: ERC20.abi, functionName: 'transfer', args: [to, value], chain: wallet.chain, account: alice })
    return (await client.waitForTransactionReceipt({ hash })).blockNumber
  }

  /** Checks the proofs at `blockNumber` against its header's state root and the values read there. */
  const provesAt = async (blockNumber: bigint, holders: Hex[]) => {
    const { stateRoot } = await client.getBlock({ blockNumber })
    const slots = holders.map(balanceSlot)
    for (const address of [token, alice.address, holder(999)] as Hex[]) {
      const proof = await client.getProof({ address, storageKeys: address === token ? slots : [], blockNumber })
      const leaf = await verifyMerkleProof(hexToBytes(address), proof.accountProof.map((n) => hexToBytes(n)), { useKeyHashing: true, root: hexToBytes(stateRoot) })
      if (address === holder(999)) {
        expect(leaf).toBeNull()
        continue
      }
      const [nonce, balance, storageHash, codeHash] = RLP.decode(leaf!) as Uint8Array[]
      expect(BigInt(bytesToHex(nonce!) === '0x' ? 0 : bytesToHex(nonce!))).toBe(BigInt(proof.nonce))
      expect(bytesToHex(balance!) === '0x' ? 0n : BigInt(bytesToHex(balance!))).toBe(await client.getBalance({ address, blockNumber }))
      expect(bytesToHex(storageHash!)).toBe(proof.storageHash)
      expect(bytesToHex(codeHash!)).toBe(proof.codeHash)
      for (const item of proof.storageProof) {
        const stored = await verifyMerkleProof(hexToBytes(item.key as Hex), item.proof.map((n) => hexToBytes(n)), { useKeyHashing: true, root: hexToBytes(proof.storageHash) })
        const value = await client.getStorageAt({ address, slot: item.key as Hex, blockNumber })
        expect(stored === null ? 0n : BigInt(bytesToHex(RLP.decode(stored) as Uint8Array))).toBe(BigInt(value ?? '0x0'))
        expect(item.value).toBe(BigInt(value ?? '0x0'))
      }
    }
  }

  it('proofs verify against each block state root, old blocks included, across a snapshot and revert', async () => {
    const holders = Array.from({ length: 24 }, (_, i) => holder(i))
    const blocks: bigint[] = []
    for (const [i, to] of holders.slice(0, 16).entries()) blocks.push(await transfer(to, BigInt(i + 1)))
    const id = await test.snapshot()
    for (const to of holders.slice(16)) await transfer(to, 7n)
    await test.revert({ id })
    // Built over the reverted state: the same heights again, other states.
    for (const to of holders.slice(20)) blocks.push(await transfer(to, 9n))
    for (const blockNumber of [blocks[0]!, blocks[7]!, blocks[15]!, blocks.at(-1)!]) await provesAt(blockNumber, holders)
    expect(await client.readContract({ address: token, abi: ERC20.abi, functionName: 'balanceOf', args: [holders[17]!] })).toBe(0n)
    expect(await client.readContract({ address: token, abi: ERC20.abi, functionName: 'balanceOf', args: [holders[21]!] })).toBe(9n)
  })
})
