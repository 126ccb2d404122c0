/**
 * Bad input through the eth dispatcher, in process: each case checks the exact JSON-RPC body the
 * node writes (coreth's codes and messages) and that nothing changed — no block, no balance or
 * nonce change for the sender, no pool change.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { privateKeyToAccount, sign as signHash, type PrivateKeyAccount } from 'viem/accounts'
import { concatHex, keccak256, toRlp, type TransactionSerializable } from 'viem'
import type { Hex } from '../../src/core/hex.js'
import { createNetwork, type Network } from '../../src/network/network.js'
import { createEthDispatcher } from '../../src/rpc/dispatcher.js'
import { createEthMethods } from '../../src/rpc/methods/index.js'
import { toChecksumAddress } from '@ethereumjs/util'

const CHAIN_ID = 43112
const TO: Hex = '0x00000000000000000000000000000000000000bb'
const FEE_CAP = 100_000_000_000n // 100 gwei, above the next base fee
const dispatcher = createEthDispatcher({ methods: createEthMethods() })
const networks: Network[] = []

afterEach(async () => {
  for (const n of networks.splice(0)) await n.close()
})

async function setup() {
  const network = await createNetwork()
  networks.push(network)
  const chain = network.cChain
  const ctx = { network, chain }
  const dev = network.devAccounts[0]!
  const account = privateKeyToAccount(dev.privateKey as Hex)
  const sender = dev.address.toLowerCase() as Hex

  const handle = (body: string) => dispatcher.handle(body, ctx)
  const call = async (method: string, params: unknown[] = []) => {
    const out = JSON.parse((await handle(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })))!)
    expect(out.error, `${method}: ${JSON.stringify(out.error)}`).toBeUndefined()
    return out.result
  }
  const state = async (who: Hex = sender) => ({
    height: chain.store.height,
    ...(await chain.getAccountFields(who, 'latest')),
    pool: chain.pool.all().map((p) => p.hash),
  })
  /** Sends `body`, expects exactly `expected` back and the same block height, sender account and pool after. */
  const refused = async (body: string, expected: string, who: Hex = sender) => {
    const before = await state(who)
    expect(await handle(body)).toBe(expected)
    expect(await state(who)).toEqual(before)
  }
  const sign = (tx: Partial<TransactionSerializable>, by: PrivateKeyAccount = account) => {
    const priced = tx.type === 'legacy' || tx.type === 'eip2930' ? {} : { maxFeePerGas: FEE_CAP, maxPriorityFeePerGas: 1n }
    return by.signTransaction({ chainId: CHAIN_ID, type: 'eip1559', nonce: 0, to: TO, value: 1n, gas: 21_000n, ...priced, ...tx } as TransactionSerializable)
  }
  return { network, chain, account, sender, handle, call, refused, sign, state }
}

/** A signed dynamic-fee transaction built field by field, for what libraries refuse to sign. */
async function signRaw1559(
  key: Hex,
  t: { chainId: bigint; nonce: bigint; tip: bigint; feeCap: bigint; gas: bigint; to: Hex; value: bigint },
): Promise<Hex> {
  const q = (n: bigint): Hex => {
    const hex = n === 0n ? '' : n.toString(16)
    return `0x${hex.length % 2 === 1 ? `0${hex}` : hex}`
  }
  const fields = [q(t.chainId), q(t.nonce), q(t.tip), q(t.feeCap), q(t.gas), t.to, q(t.value), '0x' as Hex, []]
  const signature = await signHash({ hash: keccak256(concatHex(['0x02', toRlp(fields)])), privateKey: key })
  return concatHex(['0x02', toRlp([...fields, q(BigInt(signature.yParity!)), q(BigInt(signature.r)), q(BigInt(signature.s))])])
}

const rawCall = (raw: string, id = 1) => JSON.stringify({ jsonrpc: '2.0', id, method: 'eth_sendRawTransaction', params: [raw] })
/** A response as Go's encoding/json writes it: `<`, `>` and `&` escaped, a trailing newline. */
const error = (code: number, message: string, id: unknown = 1) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`)}\n`

describe('bad envelopes', () => {
  it('malformed JSON: -32700 parse error, id null', async () => {
    const { refused } = await setup()
    await refused('{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"', '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}')
  })

  it('a batch with one bad member: the others are answered, the bad one gets its own error', async () => {
    const { refused, sender } = await setup()
    const batch = JSON.stringify([
      { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' },
      { jsonrpc: '2.0', id: 2, method: 'eth_getBalance', params: ['0x1234', 'latest'] },
      { jsonrpc: '2.0', id: 3, method: 'eth_getTransactionCount', params: [sender, 'latest'] },
    ])
    await refused(
      batch,
      '[{"jsonrpc":"2.0","id":1,"result":"0x0"},' +
        '{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"invalid argument 0: hex string has length 4, want 40 for common.Address"}},' +
        '{"jsonrpc":"2.0","id":3,"result":"0x0"}]\n',
    )
  })

  it('a batch member that is not a request object is -32600 with id null', async () => {
    const { refused } = await setup()
    await refused(
      '[{"jsonrpc":"2.0","id":7,"method":"eth_chainId"},42]',
      '[{"jsonrpc":"2.0","id":7,"result":"0xa868"},{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request"}}]\n',
    )
  })

  it('unknown method: -32601', async () => {
    const { refused } = await setup()
    await refused(
      '{"jsonrpc":"2.0","id":1,"method":"eth_sendTransactionz","params":[]}',
      error(-32601, 'the method eth_sendTransactionz does not exist/is not available'),
    )
  })
})

describe('wrong param types: -32602 with geth\'s decoder messages', () => {
  const cases: [string, unknown[], string][] = [
    ['eth_getBalance', [123, 'latest'], 'invalid argument 0: json: cannot unmarshal non-string into Go value of type common.Address'],
    ['eth_getBalance', ['0x00000000000000000000000000000000000000bb'], 'missing value for required argument 1'],
    ['eth_getCode', ['0x00000000000000000000000000000000000000bb'], 'missing value for required argument 1'],
    ['eth_getStorageAt', ['0x00000000000000000000000000000000000000bb', '0x0'], 'missing value for required argument 2'],
    ['eth_getTransactionCount', ['0x00000000000000000000000000000000000000bb'], 'missing value for required argument 1'],
    ['eth_getProof', ['0x00000000000000000000000000000000000000bb', []], 'missing value for required argument 2'],
    ['eth_getBlockReceipts', [], 'missing value for required argument 0'],
    ['eth_getBalance', ['0x00000000000000000000000000000000000000bb', true], 'invalid argument 1: json: cannot unmarshal bool into Go value of type string'],
    ['eth_getBlockByNumber', ['latest', 'yes'], 'invalid argument 1: json: cannot unmarshal string into Go value of type bool'],
    ['eth_sendRawTransaction', [123], 'invalid argument 0: json: cannot unmarshal non-string into Go value of type hexutil.Bytes'],
    ['eth_sendRawTransaction', ['0xabc'], 'invalid argument 0: json: cannot unmarshal hex string of odd length into Go value of type hexutil.Bytes'],
    ['eth_sendTransaction', [{ from: '0x00000000000000000000000000000000000000bb', value: 5 }], 'invalid argument 0: json: cannot unmarshal non-string into Go struct field TransactionArgs.value of type *hexutil.Big'],
    ['eth_chainId', [1], 'too many arguments, want at most 0'],
  ]
  for (const [method, params, message] of cases) {
    it(`${method} ${JSON.stringify(params)}`, async () => {
      const { refused } = await setup()
      await refused(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), error(-32602, message))
    })
  }

  it('the block argument stays optional where geth takes a pointer (eth_call, eth_estimateGas)', async () => {
    const { call, sender } = await setup()
    expect(await call('eth_call', [{ from: sender, to: TO }])).toBe('0x')
    expect(await call('eth_estimateGas', [{ from: sender, to: TO }])).toBe('0x5208')
  })
})

describe('eth_sendRawTransaction refusals (coreth pool wording, -32000)', () => {
  it('nonce too low', async () => {
    const { handle, refused, sign } = await setup()
    expect(await handle(rawCall(await sign({ nonce: 0 })))).toMatch(/"result":"0x[0-9a-f]{64}"/)
    await refused(rawCall(await sign({ nonce: 0, value: 2n })), error(-32000, 'nonce too low: next nonce 1, tx nonce 0'))
  })

  it('nonce gap in automine: the state transition\'s nonce too high (it could never be mined by this call)', async () => {
    const { refused, sign, sender } = await setup()
    await refused(rawCall(await sign({ nonce: 3 })), error(-32000, `nonce too high: address ${toChecksumAddress(sender)}, tx: 3 state: 0`))
  })

  it('insufficient funds: balance, tx cost, overshot', async () => {
    const { refused, sign } = await setup()
    const pauper = privateKeyToAccount(`0x${'42'.repeat(32)}`)
    const cost = 21_000n * FEE_CAP + 1n
    await refused(
      rawCall(await sign({}, pauper)),
      error(-32000, `insufficient funds for gas * price + value: balance 0, tx cost ${cost}, overshot ${cost}`),
      pauper.address.toLowerCase() as Hex,
    )
  })

  it('insufficient funds with the sender\'s queued transactions counted', async () => {
    const { call, refused, sign, sender } = await setup()
    await call('evm_setAutomine', [false])
    const balance = BigInt(await call('eth_getBalance', [sender, 'latest']))
    const first = 21_000n * FEE_CAP + 1n
    await call('eth_sendRawTransaction', [await sign({ nonce: 0 })])
    const value = balance - 21_000n * FEE_CAP // affordable alone, not after the first one
    const cost = 21_000n * FEE_CAP + value
    await refused(
      rawCall(await sign({ nonce: 1, value })),
      error(-32000, `insufficient funds for gas * price + value: balance ${balance}, queued cost ${first}, tx cost ${cost}, overshot ${first + cost - balance}`),
    )
  })

  it('replacement underpriced (manual mining, same nonce, less than 10% more)', async () => {
    const { call, refused, sign, chain } = await setup()
    await call('evm_setAutomine', [false])
    const hash = await call('eth_sendRawTransaction', [await sign({ nonce: 0, maxPriorityFeePerGas: 100n })])
    await refused(
      rawCall(await sign({ nonce: 0, maxFeePerGas: FEE_CAP + FEE_CAP / 20n, maxPriorityFeePerGas: 105n })),
      error(-32000, 'replacement transaction underpriced'),
    )
    // Equal fees are no replacement either, and the pool keeps the original.
    await refused(rawCall(await sign({ nonce: 0, value: 9n, maxPriorityFeePerGas: 100n })), error(-32000, 'replacement transaction underpriced'))
    expect(chain.pool.all().map((p) => p.hash)).toEqual([hash])
    // 10% more on both caps replaces it.
    const bumped = await call('eth_sendRawTransaction', [await sign({ nonce: 0, maxFeePerGas: FEE_CAP + FEE_CAP / 10n, maxPriorityFeePerGas: 110n })])
    expect(chain.pool.all().map((p) => p.hash)).toEqual([bumped])
  })

  it('already known', async () => {
    const { call, refused, sign } = await setup()
    await call('evm_setAutomine', [false])
    const raw = await sign({ nonce: 0 })
    await call('eth_sendRawTransaction', [raw])
    await refused(rawCall(raw), error(-32000, 'already known'))
  })

  it('intrinsic gas too low: address, tx gas, minimum needed', async () => {
    const { refused, sign, sender } = await setup()
    await refused(
      rawCall(await sign({ gas: 20_000n })),
      error(-32000, `intrinsic gas too low: address ${toChecksumAddress(sender)} tx gas (20000), minimum needed 21000`),
    )
    await refused(
      rawCall(await sign({ gas: 21_000n, data: '0x0001' })),
      error(-32000, `intrinsic gas too low: address ${toChecksumAddress(sender)} tx gas (21000), minimum needed 21020`),
    )
  })

  it('wrong chain id: invalid sender', async () => {
    const { refused, sign } = await setup()
    await refused(rawCall(await sign({ chainId: 1 })), error(-32000, 'invalid sender'))
    await refused(rawCall(await sign({ chainId: 43113, type: 'legacy', gasPrice: FEE_CAP } as never)), error(-32000, 'invalid sender'))
    await refused(rawCall(await sign({ chainId: 5, type: 'eip2930', gasPrice: FEE_CAP } as never)), error(-32000, 'invalid sender'))
  })

  it('wrong chain id after the checks coreth makes before recovering the sender', async () => {
    const { refused, sign } = await setup()
    await refused(rawCall(await sign({ chainId: 1, gas: 16_000_000n })), error(-32000, 'exceeds block gas limit: tx gas (16000000) > current max gas (10000000)'))
  })

  it('blob transaction (type 3): transaction type not supported', async () => {
    const { refused, sign } = await setup()
    const raw = await sign({ type: 'eip4844', maxFeePerBlobGas: 1n, blobVersionedHashes: [`0x01${'00'.repeat(31)}`] } as never)
    expect(raw.startsWith('0x03')).toBe(true)
    await refused(rawCall(raw), error(-32000, 'transaction type not supported'))
  })

  it('set-code transaction (EIP-7702, type 4): transaction type not supported', async () => {
    const { refused, sign, account } = await setup()
    const authorization = await account.signAuthorization({ chainId: CHAIN_ID, address: '0x00000000000000000000000000000000000000cc', nonce: 1 })
    const raw = await sign({ type: 'eip7702', gas: 50_000n, authorizationList: [authorization] } as never)
    expect(raw.startsWith('0x04')).toBe(true)
    await refused(rawCall(raw), error(-32000, 'transaction type not supported'))
  })

  it('tip below the pool minimum (1 wei)', async () => {
    const { refused, sign } = await setup()
    await refused(rawCall(await sign({ maxPriorityFeePerGas: 0n })), error(-32000, 'transaction underpriced: gas tip cap 0, minimum needed 1'))
    await refused(rawCall(await sign({ type: 'legacy', gasPrice: 0n } as never)), error(-32000, 'transaction underpriced: gas tip cap 0, minimum needed 1'))
  })

  it('tip above fee cap, block gas limit, fee cap, oversized data, unprotected legacy', async () => {
    const { refused, sign, network } = await setup()
    const dev0Key = network.devAccounts[0]!.privateKey as Hex
    // viem and ethereumjs refuse to build this one; coreth decodes it and its pool refuses it.
    const tipAboveCap = await signRaw1559(dev0Key, { chainId: BigInt(CHAIN_ID), nonce: 0n, tip: 6n, feeCap: 5n, gas: 21_000n, to: TO, value: 1n })
    await refused(rawCall(tipAboveCap), error(-32000, 'max priority fee per gas higher than max fee per gas'))
    await refused(rawCall(await sign({ gas: 10_000_001n })), error(-32000, 'exceeds block gas limit: tx gas (10000001) > current max gas (10000000)'))
    await refused(
      rawCall(await sign({ gas: 1_000_000n, maxFeePerGas: 200_000_000_000_000n })),
      error(-32000, 'tx fee (200.00 ether) exceeds the configured cap (100.00 ether)'),
    )
    const big = await sign({ gas: 10_000_000n, data: `0x${'01'.repeat(131_073)}` })
    await refused(rawCall(big), error(-32000, `oversized data: transaction size ${(big.length - 2) / 2}, limit 131072`))
    const unprotected = await privateKeyToAccount(`0x${'11'.repeat(32)}`).signTransaction({ type: 'legacy', nonce: 0, to: TO, gas: 21_000n, gasPrice: FEE_CAP } as never)
    await refused(rawCall(unprotected), error(-32000, 'only replay-protected (EIP-155) transactions allowed over RPC'))
    // A fee cap below the next base fee cannot occur here: ACP-176's base fee on an idle C-chain is
    // its 1 wei minimum, the least a fee cap can be after the 1 wei minimum tip. test/evm/chain.test.ts
    // covers that refusal on a chain with subnet-EVM fees.
  })
})

describe('eth_sendTransaction admission', () => {
  it('a dev account pays at least the minimum tip', async () => {
    const { refused, sender } = await setup()
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendTransaction', params: [{ from: sender, to: TO, maxPriorityFeePerGas: '0x0' }] })
    await refused(body, error(-32000, 'transaction underpriced: gas tip cap 0, minimum needed 1'))
  })

  it('an impersonated account may pay no tip (anvil users send with any fee)', async () => {
    const { call, chain } = await setup()
    const whale: Hex = '0x00000000000000000000000000000000000000aa'
    await call('anvil_setBalance', [whale, '0xde0b6b3a7640000'])
    await call('anvil_impersonateAccount', [whale])
    const hash = await call('eth_sendTransaction', [{ from: whale, to: TO, value: '0x1', maxPriorityFeePerGas: '0x0' }])
    expect(chain.store.tx(hash)?.receipt.status).toBe(1)
  })

  it('nonce too low from an explicit nonce', async () => {
    const { call, refused, sender } = await setup()
    await call('eth_sendTransaction', [{ from: sender, to: TO }])
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendTransaction', params: [{ from: sender, to: TO, nonce: '0x0' }] })
    await refused(body, error(-32000, 'nonce too low: next nonce 1, tx nonce 0'))
  })
})

describe('eth_call and eth_estimateGas refusals (state transition wording)', () => {
  it('eth_call: insufficient funds and intrinsic gas are wrapped with the supplied gas', async () => {
    const { refused } = await setup()
    const pauper: Hex = '0x00000000000000000000000000000000000000aa'
    const body = (tx: object) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ from: pauper, to: TO, ...tx }, 'latest'] })
    await refused(
      body({ value: '0x1' }),
      error(-32000, `err: insufficient funds for gas * price + value: address ${toChecksumAddress(pauper)} have 0 want 1 (supplied gas 50000000)`),
    )
    await refused(body({ gas: '0x4e20' }), error(-32000, 'err: intrinsic gas too low: have 20000, want 21000 (supplied gas 20000)'))
  })

  it('eth_estimateGas: a priced estimate with the value at or above the balance', async () => {
    const { refused } = await setup()
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_estimateGas',
      params: [{ from: '0x00000000000000000000000000000000000000aa', to: TO, gasPrice: '0x3b9aca00' }],
    })
    await refused(body, error(-32000, 'insufficient funds for transfer'))
  })
})

describe('block build refusals', () => {
  it('a pool transaction its sender can no longer pay for is dropped from the block, not mined', async () => {
    const { call, chain, sign, sender } = await setup()
    await call('evm_setAutomine', [false])
    const hash = await call('eth_sendRawTransaction', [await sign({ nonce: 0 })])
    await call('anvil_setBalance', [sender, '0x0'])
    await call('evm_mine')
    expect(chain.store.height).toBe(1n)
    expect(chain.head.txs).toEqual([])
    expect(chain.pool.size).toBe(0)
    expect(chain.miner.dropped.get(hash)).toBe(
      `insufficient funds for gas * price + value: address ${toChecksumAddress(sender)} have 0 want ${21_000n * FEE_CAP + 1n}`,
    )
    expect(await call('eth_getTransactionCount', [sender, 'latest'])).toBe('0x0')
  })
})
