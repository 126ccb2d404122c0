import { describe, expect, it } from 'vitest'
import {
  getContractAddress,
  keccak256,
  parseEther,
  parseGwei,
  recoverTransactionAddress,
  serializeTransaction,
  stringToHex,
  type Hex,
} from 'viem'
import { idFromString } from '../../src/core/ids.js'
import { ICM_MESSENGER_ABI, ICM_MESSENGER_BYTECODE, ICM_MESSENGER_DEPLOYED_BYTECODE } from '../../src/evm/icm/messenger.js'
import type { EvmChainConfig } from '../../src/evm/unprotectedTxs.js'
import { createNetwork, type NetworkOptions } from '../../src/network/network.js'
import { alice, bob, testGenesis } from './helpers.js'
import { DURANGO_LOCAL, mined, side, type Side } from './icmHelpers.js'

const REFUSED = 'only replay-protected (EIP-155) transactions allowed over RPC'

/**
 * A keyless deployment as Nick's method builds one (and as icm-contracts publishes
 * TeleporterMessenger's): a legacy transaction with nonce 0, no chain id (v = 27) and a made-up
 * signature whose r equals its s; its sender is whatever address that signature recovers to.
 */
async function keylessDeployment(label: string, data: Hex, options: { sameRS?: boolean } = {}) {
  for (let attempt = 0; ; attempt++) {
    // Below n/2 (Homestead's low s): the top byte at most 0x3f.
    const value = (n: string) => BigInt(keccak256(stringToHex(`${label}/${attempt}/${n}`))) >> 2n
    const r = value('r')
    const s = options.sameRS === false ? value('s') : r
    const tx = { type: 'legacy', nonce: 0, gas: 4_000_000n, gasPrice: parseGwei('2500'), value: 0n, data } as const
    const raw = serializeTransaction(tx, { r: `0x${r.toString(16).padStart(64, '0')}`, s: `0x${s.toString(16).padStart(64, '0')}`, v: 27n })
    // Not every r is the x coordinate of a curve point: try the next one.
    const deployer = await recoverTransactionAddress({ serializedTransaction: raw }).catch(() => undefined)
    if (deployer) return { raw, deployer, address: getContractAddress({ from: deployer, nonce: 0n }) }
  }
}

/** The C-chain and an L1 `a`, each with this chain config.json. */
async function chains(options: Omit<NetworkOptions, 'l1s'> = {}, chainConfig?: EvmChainConfig): Promise<{ c: Side; l1: Side }> {
  const genesis = testGenesis({ chainId: 11111, warpConfig: { blockTimestamp: DURANGO_LOCAL } })
  const network = await createNetwork({ ...options, cChainConfig: chainConfig, l1s: [{ name: 'a', genesis, chainConfig }] })
  const l1 = network.l1s[0]!
  return { c: side(network, network.cChain, idFromString(network.preset.cChainId)), l1: side(network, l1.chain, l1.blockchainIdBytes) }
}

async function fund(s: Side, to: Hex) {
  await mined(s, await s.wallet(alice).sendTransaction({ to, value: parseEther('10') }))
}

describe("TeleporterMessenger's deployment as users run it (Nick's method)", () => {
  it('a keyless pre-EIP-155 deployment (nonce 0, r = s) lands at its derived address on the C-chain and on an L1, as coreth and subnet-EVM accept it by default', async () => {
    const { c, l1 } = await chains()
    const keyless = await keylessDeployment('icm', ICM_MESSENGER_BYTECODE)
    for (const s of [c, l1]) {
      await fund(s, keyless.deployer)
      const hash = await s.publicClient.sendRawTransaction({ serializedTransaction: keyless.raw })
      const receipt = await mined(s, hash)
      expect(receipt.from).toBe(keyless.deployer.toLowerCase())
      expect(receipt.contractAddress).toBe(keyless.address.toLowerCase())
      expect(await s.publicClient.getCode({ address: keyless.address })).toBe(ICM_MESSENGER_DEPLOYED_BYTECODE)
      expect(await s.publicClient.getTransactionCount({ address: keyless.deployer })).toBe(1)
      // The constructor's two reentrancy flags; the messenger reads its chain's id from warp.
      expect(await s.publicClient.getStorageAt({ address: keyless.address, slot: '0x0' })).toBe(`0x${'00'.repeat(31)}01`)
      expect(await s.publicClient.getStorageAt({ address: keyless.address, slot: '0x1' })).toBe(`0x${'00'.repeat(31)}01`)
      const { result } = await s.publicClient.simulateContract({ account: bob.address, address: keyless.address, abi: ICM_MESSENGER_ABI, functionName: 'initializeBlockchainID' })
      expect(result).toBe(s.blockchainId)
      // The same raw transaction again: the deployer's nonce is 1 now.
      await expect(s.publicClient.sendRawTransaction({ serializedTransaction: keyless.raw })).rejects.toThrow('nonce too low')
    }
  })

  it('fuji and mainnet nodes accept it too: the default config is the same on every network', async () => {
    const keyless = await keylessDeployment('icm', ICM_MESSENGER_BYTECODE)
    for (const preset of ['fuji', 'mainnet'] as const) {
      const network = await createNetwork({ preset })
      const c = side(network, network.cChain, idFromString(network.preset.cChainId))
      await fund(c, keyless.deployer)
      const receipt = await mined(c, await c.publicClient.sendRawTransaction({ serializedTransaction: keyless.raw }))
      expect(receipt.contractAddress).toBe(keyless.address.toLowerCase())
    }
  })

  it("other unprotected transactions keep geth's refusal unless the chain config allows them (allow-unprotected-txs, allow-unprotected-tx-hashes)", async () => {
    const keyless = await keylessDeployment('other', ICM_MESSENGER_BYTECODE, { sameRS: false })
    const byDefault = await chains()
    for (const s of [byDefault.c, byDefault.l1]) {
      await fund(s, keyless.deployer)
      await expect(s.publicClient.sendRawTransaction({ serializedTransaction: keyless.raw })).rejects.toThrow(REFUSED)
      expect(await s.publicClient.getTransactionCount({ address: keyless.deployer })).toBe(0)
    }
    const allowAll = await chains({}, { 'allow-unprotected-txs': true })
    const listed = await chains({}, { 'allow-unprotected-tx-hashes': [keccak256(keyless.raw)] })
    for (const s of [allowAll.c, allowAll.l1, listed.c, listed.l1]) {
      await fund(s, keyless.deployer)
      const receipt = await mined(s, await s.publicClient.sendRawTransaction({ serializedTransaction: keyless.raw }))
      expect(receipt.contractAddress).toBe(keyless.address.toLowerCase())
    }
  })

  it('a keyless transaction with r = s but a nonce above 0 is refused', async () => {
    const { c } = await chains()
    for (let attempt = 0; ; attempt++) {
      const r = BigInt(keccak256(stringToHex(`nonce1/${attempt}`))) >> 2n
      const sig = `0x${r.toString(16).padStart(64, '0')}` as const
      const raw = serializeTransaction({ type: 'legacy', nonce: 1, gas: 100_000n, gasPrice: parseGwei('25'), value: 0n, data: '0x00' }, { r: sig, s: sig, v: 27n })
      const from = await recoverTransactionAddress({ serializedTransaction: raw }).catch(() => undefined)
      if (!from) continue
      await fund(c, from)
      await expect(c.publicClient.sendRawTransaction({ serializedTransaction: raw })).rejects.toThrow(REFUSED)
      break
    }
  })
})
