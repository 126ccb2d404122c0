import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, createWalletClient, custom, defineChain, type Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { dataRoutes } from '../../src/api/routes/data/index.js'
import { networkDataSource } from '../../src/api/routes/data/networkSource.js'
import { evmDataRoutes } from '../../src/api/routes/data/evm/index.js'
import { InvalidArgumentError } from '../../src/core/errors.js'
import { SELECTORS } from '../../src/evm/precompiles/abi.js'
import { WARP_SELECTORS } from '../../src/evm/warp/precompile.js'
import { BUILT_IN_SIGNATURES, canonicalSignature, createMethodRegistry, selectorOf } from '../../src/indexer/methods.js'
import { createNetwork, type Network } from '../../src/network/network.js'
import { createEIP1193Provider } from '../../src/rpc/provider.js'
import { ERC20, TestNFT721 } from '../fixtures/contracts/index.js'

/** `sendCrossChainMessage` as ITeleporterMessenger.sol's JSON ABI gives it (nested tuples). */
const SEND_CROSS_CHAIN_MESSAGE_ABI = {
  type: 'function',
  name: 'sendCrossChainMessage',
  inputs: [
    {
      name: 'messageInput',
      type: 'tuple',
      components: [
        { name: 'destinationBlockchainID', type: 'bytes32' },
        { name: 'destinationAddress', type: 'address' },
        { name: 'feeInfo', type: 'tuple', components: [{ name: 'feeTokenAddress', type: 'address' }, { name: 'amount', type: 'uint256' }] },
        { name: 'requiredGasLimit', type: 'uint256' },
        { name: 'allowedRelayerAddresses', type: 'address[]' },
        { name: 'message', type: 'bytes' },
      ],
    },
  ],
} as const

describe('selectors and canonical signatures', () => {
  it('hashes signatures to the well-known selectors', () => {
    expect(selectorOf('transfer(address,uint256)')).toBe('0xa9059cbb')
    expect(selectorOf('approve(address,uint256)')).toBe('0x095ea7b3')
    expect(selectorOf('deposit()')).toBe('0xd0e30db0')
    expect(selectorOf('aggregate3((address,bool,bytes)[])')).toBe('0x82ad56cb')
  })

  it('writes canonical types: uint → uint256, tuples expanded with their array suffixes', () => {
    expect(canonicalSignature({ name: 'f', inputs: [{ type: 'uint' }, { type: 'int[2]' }, { type: 'tuple[][3]', components: [{ type: 'bytes32' }, { type: 'tuple', components: [{ type: 'bool' }] }] }] })).toBe(
      'f(uint256,int256[2],(bytes32,(bool))[][3])',
    )
    expect(canonicalSignature(SEND_CROSS_CHAIN_MESSAGE_ABI)).toBe('sendCrossChainMessage((bytes32,address,(address,uint256),uint256,address[],bytes))')
    expect(() => canonicalSignature({ name: 'f', inputs: [{ type: 'uint7' }] })).toThrow(InvalidArgumentError)
    expect(() => canonicalSignature({ name: 'f', inputs: [{ type: 'tuple' }] })).toThrow('tuple without components')
  })

  it('knows every subnet-EVM precompile function by the selectors the precompiles dispatch on', () => {
    const registry = createMethodRegistry()
    for (const [name, selector] of [...Object.entries(SELECTORS), ...Object.entries(WARP_SELECTORS)]) expect(registry.methodName(selector), name).toMatch(new RegExp(`^${name}\\(`))
  })

  it('has the Teleporter messenger in the canonical form its ABI gives, and no two built-ins share a selector', () => {
    const registry = createMethodRegistry()
    expect(registry.methodName(selectorOf(canonicalSignature(SEND_CROSS_CHAIN_MESSAGE_ABI)))).toBe(canonicalSignature(SEND_CROSS_CHAIN_MESSAGE_ABI))
    expect(registry.methodName('0xC87B56DD')).toBe('tokenURI(uint256)')
    expect(new Set(BUILT_IN_SIGNATURES.map(selectorOf)).size).toBe(BUILT_IN_SIGNATURES.length)
  })
})

describe('createMethodRegistry', () => {
  it('registers the functions of an ABI only, and names them', () => {
    const registry = createMethodRegistry()
    expect(registry.methodName(selectorOf('setTokenURI(uint256,string)'))).toBe('setTokenURI(uint256,string)')
    expect(registry.methodName(selectorOf('ghost(address,uint256)'))).toBeUndefined()
    const signatures = registry.registerAbi(TestNFT721.abi)
    expect(signatures).toContain('ghost(address,uint256)')
    expect(signatures).not.toContain('Transfer(address,address,uint256)')
    expect(signatures).toHaveLength(TestNFT721.abi.filter((e) => e.type === 'function').length)
    expect(registry.methodName(selectorOf('ghost(address,uint256)'))).toBe('ghost(address,uint256)')
    // An entry without `type` is a function (the ABI spec's default).
    expect(registry.registerAbi([{ name: 'legacy', inputs: [{ type: 'uint' }] }])).toEqual(['legacy(uint256)'])
  })

  it('lets a registered signature win over a built-in with the same selector, per registry', () => {
    // The well-known collision with transfer(address,uint256).
    expect(selectorOf('many_msg_babbage(bytes1)')).toBe('0xa9059cbb')
    const registry = createMethodRegistry()
    registry.registerAbi([{ type: 'function', name: 'many_msg_babbage', inputs: [{ type: 'bytes1' }] }])
    expect(registry.methodName('0xa9059cbb')).toBe('many_msg_babbage(bytes1)')
    expect(createMethodRegistry().methodName('0xa9059cbb')).toBe('transfer(address,uint256)')
  })

  it('reads Hardhat and Foundry artifacts and refuses bad shapes without registering anything', () => {
    const registry = createMethodRegistry()
    const abi = [{ type: 'function', name: 'poke', inputs: [{ type: 'address' }] }, { type: 'event', name: 'Poked', inputs: [] }]
    expect(registry.registerArtifact({ contractName: 'Poker', abi, bytecode: '0x6080', deployedBytecode: '0x6080' })).toEqual(['poke(address)'])
    expect(registry.registerArtifact({ abi: [{ type: 'function', name: 'prod', inputs: [] }], bytecode: { object: '0x6080' }, deployedBytecode: { object: '6080' } })).toEqual(['prod()'])
    expect(registry.methodName(selectorOf('poke(address)'))).toBe('poke(address)')
    expect(() => registry.registerArtifact({ abi, bytecode: 'not hex' })).toThrow(InvalidArgumentError)
    expect(() => registry.registerArtifact({ abi: 'nope' as never })).toThrow('ABI must be a JSON array')
    expect(() => registry.registerAbi([{ type: 'function', name: 'good', inputs: [] }, { type: 'function', name: 'bad', inputs: [{ type: 'strin' }] }])).toThrow(InvalidArgumentError)
    expect(registry.methodName(selectorOf('good()'))).toBeUndefined()
  })
})

describe('Method.methodName through /v1', () => {
  const MNEMONIC = 'test test test test test test test test test test test junk'
  const alice = mnemonicToAccount(MNEMONIC, { addressIndex: 0 })
  let network: Network
  let app: ReturnType<typeof Fastify>
  let deployHash: Hex
  let ghostHash: Hex
  let transferHash: Hex

  beforeAll(async () => {
    network = await createNetwork()
    const chain = network.cChain
    const provider = createEIP1193Provider({ network, chain })
    const viemChain = defineChain({ id: Number(chain.chainId), name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: ['http://unused'] } } })
    const client = createPublicClient({ chain: viemChain, transport: custom(provider) })
    const wallet = createWalletClient({ chain: viemChain, account: alice, transport: custom(provider) })
    deployHash = await wallet.deployContract({ abi: TestNFT721.abi, bytecode: TestNFT721.bytecode as Hex, args: ['N', 'N', false] })
    const nft = (await client.waitForTransactionReceipt({ hash: deployHash })).contractAddress!
    ghostHash = await wallet.writeContract({ address: nft, abi: TestNFT721.abi, functionName: 'ghost', args: [alice.address, 1n] })
    const token = (await client.waitForTransactionReceipt({ hash: await wallet.deployContract({ abi: ERC20.abi, bytecode: ERC20.bytecode as Hex, args: ['T', 'T', 5n] }) })).contractAddress!
    transferHash = await wallet.writeContract({ address: token, abi: ERC20.abi, functionName: 'transfer', args: [alice.address, 1n] })
    await client.waitForTransactionReceipt({ hash: transferHash })
    app = Fastify()
    await app.register(dataRoutes, { source: networkDataSource(network), routes: [evmDataRoutes(network)] })
    await app.ready()
  })
  afterAll(async () => {
    await app.close()
    await network.close()
  })

  const methodOf = async (hash: Hex) => ((await app.inject({ method: 'GET', url: `/v1/chains/${network.cChain.chainId}/transactions/${hash}` })).json() as { nativeTransaction: { method: unknown } }).nativeTransaction.method

  it('names built-ins, omits unknown selectors, and names what the network registered', async () => {
    expect(await methodOf(deployHash)).toEqual({ callType: 'CONTRACT_CREATION', methodHash: '', methodName: 'Contract Created' })
    expect(await methodOf(transferHash)).toEqual({ callType: 'CONTRACT_CALL', methodHash: '0xa9059cbb', methodName: 'transfer(address,uint256)' })
    expect(await methodOf(ghostHash)).toEqual({ callType: 'CONTRACT_CALL', methodHash: selectorOf('ghost(address,uint256)') })
    expect(network.registerArtifact(TestNFT721)).toContain('ghost(address,uint256)')
    expect(await methodOf(ghostHash)).toEqual({ callType: 'CONTRACT_CALL', methodHash: selectorOf('ghost(address,uint256)'), methodName: 'ghost(address,uint256)' })
    network.registerAbi([{ type: 'function', name: 'many_msg_babbage', inputs: [{ type: 'bytes1' }] }])
    expect(await methodOf(transferHash)).toEqual({ callType: 'CONTRACT_CALL', methodHash: '0xa9059cbb', methodName: 'many_msg_babbage(bytes1)' })
  })
})
