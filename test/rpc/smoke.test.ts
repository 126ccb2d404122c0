import { describe, expect, it } from 'vitest'
import { createNetwork } from '../../src/network/network.js'
import { createEthDispatcher } from '../../src/rpc/dispatcher.js'
import { createEthMethods } from '../../src/rpc/methods/index.js'

describe('eth methods through the dispatcher', () => {
  it('answers the basics', async () => {
    const network = await createNetwork()
    const dispatcher = createEthDispatcher({ methods: createEthMethods() })
    const ctx = { network, chain: network.cChain }
    const call = async (method: string, params: unknown[] = []) =>
      JSON.parse((await dispatcher.handle(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), ctx))!)
    expect((await call('eth_chainId')).result).toBe('0xa868')
    expect((await call('eth_blockNumber')).result).toBe('0x0')
    const [from, to] = network.devAccounts
    const sent = await call('eth_sendTransaction', [{ from: from!.address, to: to!.address, value: '0x1' }])
    expect(sent.error).toBeUndefined()
    const receipt = await call('eth_getTransactionReceipt', [sent.result])
    expect(receipt.result.status).toBe('0x1')
    const block = await call('eth_getBlockByNumber', ['latest', true])
    expect(block.result.transactions[0].hash).toBe(sent.result)
    expect((await call('eth_getBalance', [to!.address, 'latest'])).result).toBe('0x21e19e0c9bab2400001')
    expect((await call('eth_getBalance', [to!.address, '0x0'])).result).toBe('0x21e19e0c9bab2400000')
    expect((await call('eth_feeHistory', ['0x2', 'latest', [50]])).result.baseFeePerGas).toHaveLength(2)
    expect((await call('eth_gasPrice')).result).toMatch(/^0x/)
    const est = await call('eth_estimateGas', [{ from: from!.address, to: to!.address, value: '0x1' }])
    expect(est.result).toBe('0x5208')
    await network.close()
  })
})
