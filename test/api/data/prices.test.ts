import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, createWalletClient, custom, defineChain, getAddress, getContractAddress, type Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { createPriceTable, CURRENCY_CODES, DEFAULT_RATES, formatDecimal, type PriceOptions } from '../../../src/api/routes/data/prices.js'
import { InvalidArgumentError } from '../../../src/core/errors.js'
import { startDevnet, type Devnet } from '../../../src/index.js'
import { createEIP1193Provider } from '../../../src/rpc/provider.js'
import { ERC20 } from '../../fixtures/contracts/index.js'

const MNEMONIC = 'test test test test test test test test test test test junk'
const alice = mnemonicToAccount(MNEMONIC, { addressIndex: 0 })
const bob = mnemonicToAccount(MNEMONIC, { addressIndex: 1 })
const DATA_DIR = 'test/.tmp/data-api-prices'
/** Addresses that only ever receive what the test sends them. */
const HOLDER = '0x00000000000000000000000000000000000000c1'
const DUST = '0x00000000000000000000000000000000000000c2'
/** Alice's first two transactions deploy the tokens. */
const PRICED = getContractAddress({ from: alice.address, nonce: 0n })
const PLAIN = getContractAddress({ from: alice.address, nonce: 1n })
const PRICES: PriceOptions = { usd: { [PRICED]: '1.0001', AVAX: 1, 'native:43112': '23.45' }, rates: { eur: 0.5 } }

let devnet: Devnet
let chainId: string
const hashes: Record<string, Hex> = {}

type Json = Record<string, any>
const get = async (path: string): Promise<{ status: number; body: Json }> => {
  const res = await fetch(`${devnet.url}/v1/chains/${chainId}${path}`)
  return { status: res.status, body: (await res.json()) as Json }
}

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, node: { dataDir: DATA_DIR }, dataApi: { prices: PRICES } })
  const chain = devnet.network.cChain
  chainId = String(chain.chainId)
  const provider = createEIP1193Provider({ network: devnet.network, chain })
  const viemChain = defineChain({ id: Number(chain.chainId), name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [devnet.rpcUrl('C')] } } })
  const client = createPublicClient({ chain: viemChain, transport: custom(provider) })
  const wallet = createWalletClient({ chain: viemChain, account: alice, transport: custom(provider) })
  const mined = async (name: string, hash: Hex) => {
    hashes[name] = hash
    expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success')
  }
  await mined('deployPriced', await wallet.deployContract({ abi: ERC20.abi, bytecode: ERC20.bytecode as Hex, args: ['Priced', 'PRC', 1000n] }))
  await mined('deployPlain', await wallet.deployContract({ abi: ERC20.abi, bytecode: ERC20.bytecode as Hex, args: ['Plain', 'PLN', 1000n] }))
  await mined('sendPriced', await wallet.writeContract({ address: PRICED, abi: ERC20.abi, functionName: 'transfer', args: [bob.address, 10n] }))
  await mined('sendPlain', await wallet.writeContract({ address: PLAIN, abi: ERC20.abi, functionName: 'transfer', args: [bob.address, 10n] }))
  await mined('holder', await wallet.sendTransaction({ to: HOLDER, value: 1_500_000_000_000_000_000n }))
  await mined('dust', await wallet.sendTransaction({ to: DUST, value: 1n }))
})
afterAll(async () => {
  await devnet.close()
  rmSync(DATA_DIR, { recursive: true, force: true })
})

describe('nativeTokenBalance (listErc1155Balances, op 8)', () => {
  it('prices the native balance and values it exactly: balance × price / 10^decimals', async () => {
    const { status, body } = await get(`/addresses/${HOLDER}/balances:listErc1155`)
    expect(status).toBe(200)
    expect(body.nativeTokenBalance).toEqual({
      name: 'Avalanche',
      symbol: 'AVAX',
      decimals: 18,
      chainId,
      price: { currencyCode: 'usd', value: 23.45 },
      balance: '1500000000000000000',
      balanceValue: { currencyCode: 'usd', value: 35.175 },
    })
    expect(Object.keys(body.nativeTokenBalance)).toEqual(['name', 'symbol', 'decimals', 'chainId', 'price', 'balance', 'balanceValue'])
    expect((await get(`/addresses/${DUST}/balances:listErc1155`)).body.nativeTokenBalance.balanceValue).toEqual({ currencyCode: 'usd', value: 2.345e-17 })
  })
})

describe('Erc20Token.price', () => {
  it('is given for a configured token and omitted for others (listErc20Transactions, op 5)', async () => {
    const { body } = await get(`/addresses/${bob.address}/transactions:listErc20`)
    const tokens = (body.transactions as Json[]).map((t) => t.erc20Token)
    expect(tokens).toEqual([
      { address: PLAIN, name: 'Plain', symbol: 'PLN', decimals: 18, ercType: 'ERC-20' },
      { address: getAddress(PRICED), name: 'Priced', symbol: 'PRC', decimals: 18, ercType: 'ERC-20', price: { currencyCode: 'usd', value: 1.0001 } },
    ])
  })
})

describe('networkTokenDetails (getTransaction, op 10; getDeploymentTransaction, op 9)', () => {
  it('gives the current price in USD, and no historical price for a recent transaction', async () => {
    const { body } = await get(`/transactions/${hashes.sendPriced}`)
    expect(body.networkTokenDetails).toEqual({ networkToken: { name: 'Avalanche', symbol: 'AVAX', decimals: 18 }, currentPrice: { currencyCode: 'usd', value: 23.45 } })
    expect(body.erc20Transfers[0].erc20Token.price).toEqual({ currencyCode: 'usd', value: 1.0001 })
  })

  it('answers in the currency asked for, at the configured or the default rate', async () => {
    const eur = await get(`/contracts/${PRICED}/transactions:getDeployment?currency=eur`)
    expect(eur.status).toBe(200)
    expect(eur.body.networkTokenDetails.currentPrice).toEqual({ currencyCode: 'eur', value: 11.725 })
    expect(eur.body.erc20Transfers[0].erc20Token.price).toEqual({ currencyCode: 'eur', value: 0.50005 })
    const jpy = await get(`/contracts/${PRICED}/transactions:getDeployment?currency=jpy`)
    expect(jpy.body.networkTokenDetails.currentPrice).toEqual({ currencyCode: 'jpy', value: 23.45 * Number(DEFAULT_RATES.jpy) })
    expect(jpy.body.networkTokenDetails.currentPrice.value).toBe(3517.5)
  })

  it('refuses a currency outside the enum with a 400', async () => {
    const { status, body } = await get(`/contracts/${PRICED}/transactions:getDeployment?currency=btc`)
    expect(status).toBe(400)
    expect(body.message).toEqual([`currency must be one of the following values: ${CURRENCY_CODES.join(', ')}`])
    expect((await get(`/contracts/${PRICED}/transactions:getDeployment?currency=USD`)).status).toBe(400)
  })

  it('gives the historical price (the same table) once the transaction is more than 24 hours old', async () => {
    await devnet.network.advanceTime(24 * 60 * 60 + 1)
    const { body } = await get(`/transactions/${hashes.holder}`)
    expect(body.networkTokenDetails).toEqual({
      networkToken: { name: 'Avalanche', symbol: 'AVAX', decimals: 18 },
      currentPrice: { currencyCode: 'usd', value: 23.45 },
      historicalPrice: { currencyCode: 'usd', value: 23.45 },
    })
  })

  it('omits every price when the network configures none', async () => {
    const dataApi = devnet.network.dataApi
    dataApi.prices = undefined
    try {
      expect((await get(`/transactions/${hashes.sendPriced}`)).body.networkTokenDetails).toEqual({ networkToken: { name: 'Avalanche', symbol: 'AVAX', decimals: 18 } })
      expect((await get(`/transactions/${hashes.sendPriced}`)).body.erc20Transfers[0].erc20Token).not.toHaveProperty('price')
      expect((await get(`/addresses/${HOLDER}/balances:listErc1155`)).body.nativeTokenBalance).toEqual({ name: 'Avalanche', symbol: 'AVAX', decimals: 18, chainId, balance: '1500000000000000000' })
    } finally {
      dataApi.prices = PRICES
    }
  })
})

describe('createPriceTable', () => {
  it('looks up native prices by chain first, then by symbol in any case', () => {
    const table = createPriceTable({ usd: { avax: '2', 'native:99': 3 } })
    expect(table.native('43112', 'AVAX', 'usd')).toEqual({ currencyCode: 'usd', value: 2 })
    expect(table.native('99', 'AVAX', 'usd')).toEqual({ currencyCode: 'usd', value: 3 })
    expect(table.native('5', 'OTHER', 'usd')).toBeUndefined()
    expect(table.token(PRICED, 'usd')).toBeUndefined()
  })

  it('computes exactly before converting: no binary rounding on the way', () => {
    const table = createPriceTable({ usd: { X: '0.1' }, rates: { gbp: '0.3' } })
    // 0.1 × 0.3 in doubles is 0.030000000000000002.
    expect(table.native('1', 'X', 'gbp')!.value).toBe(0.03)
    expect(table.nativeBalance('1', 'X', 'usd', 3n, 0)!.balanceValue.value).toBe(0.3)
    expect(createPriceTable({ usd: { X: '2.5e-3' } }).native('1', 'X', 'usd')!.value).toBe(0.0025)
    expect(createPriceTable({ usd: { X: '1.2E3' } }).native('1', 'X', 'usd')!.value).toBe(1200)
    expect(formatDecimal({ digits: 1234500n, scale: 4 })).toBe('123.45')
    expect(formatDecimal({ digits: 5n, scale: 3 })).toBe('0.005')
    expect(formatDecimal({ digits: 0n, scale: 2 })).toBe('0')
  })

  it('refuses what is not a non-negative decimal, and unknown currencies', () => {
    expect(() => createPriceTable({ usd: { X: -1 } })).toThrow(InvalidArgumentError)
    expect(() => createPriceTable({ usd: { X: 'ten' } })).toThrow('prices.usd["X"] must be a non-negative decimal number')
    expect(() => createPriceTable({ usd: { X: Number.NaN } })).toThrow(InvalidArgumentError)
    expect(() => createPriceTable({ rates: { btc: 1 } as never })).toThrow('prices.rates.btc is not a currency')
  })
})
