import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatAddress, hrpForNetworkId } from '../../../src/core/address.js'
import { bytesToHex } from '../../../src/core/hex.js'
import { PRIMARY_NETWORK_ID, idFromString } from '../../../src/core/ids.js'
import { dataRoutes } from '../../../src/api/routes/data/index.js'
import { networkDataSource } from '../../../src/api/routes/data/networkSource.js'
import { FILTERS_NEED_ADDRESSES, L1_VALIDATION_ID_P_ONLY, primaryTxRoutes } from '../../../src/api/routes/data/primary/utxosAndTxs.js'
import { createNetwork, type Network } from '../../../src/network/network.js'

const AVAX = 1_000_000_000n
const DAY = 86_400
type Json = Record<string, unknown>
type Body = Json & { utxos?: Json[]; transactions?: Json[]; nextPageToken?: string; message?: unknown }

const P_UTXO_KEYS = [
  'addresses', 'asset', 'consumedOnChainId', 'consumingTxHash', 'createdOnChainId', 'utxoId', 'utxoBytes', 'amount', 'assetId', 'blockNumber',
  'blockTimestamp', 'consumingBlockNumber', 'consumingBlockTimestamp', 'platformLocktime', 'outputIndex', 'rewardType', 'stakeableLocktime', 'staked',
  'threshold', 'txHash', 'utxoEndTimestamp', 'utxoStartTimestamp', 'utxoType',
]
const P_TX_KEYS = [
  'txHash', 'txType', 'blockTimestamp', 'blockNumber', 'blockHash', 'consumedUtxos', 'emittedUtxos', 'sourceChain', 'destinationChain', 'value',
  'amountBurned', 'amountStaked', 'amountL1ValidatorBalanceBurned', 'startTimestamp', 'endTimestamp', 'delegationFeePercent', 'nodeId', 'subnetId',
  'l1ValidatorManagerDetails', 'l1ValidatorDetails', 'estimatedReward', 'rewardTxHash', 'rewardAddresses', 'memo', 'stakingTxHash', 'subnetOwnershipInfo',
  'blsCredentials', 'blockchainInfo',
]
/** `keys` in the order of `order` (the spec's property order). */
const inSpecOrder = (keys: string[], order: string[]) => keys.every((k) => order.includes(k)) && keys.every((k, i) => i === 0 || order.indexOf(keys[i - 1]!) < order.indexOf(k))
const avax = (amount: bigint) => ({ assetId: expect.any(String), name: 'Avalanche', symbol: 'AVAX', denomination: 9, type: 'secp256k1', amount: String(amount) })

describe('/v1/networks/{network}/blockchains/{blockchainId}/utxos and /transactions', () => {
  let network: Network
  let app: FastifyInstance
  let hrp: string
  let pAddr: string
  let xAddr: string
  let bare: string
  let cAddr: string
  const ids = {} as Record<'xSend' | 'xExport' | 'pImport' | 'pSend' | 'addValidator' | 'addDelegator' | 'createSubnet' | 'createChain' | 'blockchainId' | 'subnetId' | 'convert' | 'increase' | 'setWeight' | 'register' | 'disable' | 'pExport' | 'cImport' | 'cExport' | 'xImport', string>
  let validationIds: string[] = []
  const weightOf = new Map<string, number>()
  let registered: string
  let stakeStart: number
  let validatorEnd: number

  beforeAll(async () => {
    network = await createNetwork()
    const w = network.wallets(0)!
    hrp = hrpForNetworkId(network.preset.networkId)
    pAddr = formatAddress('P', hrp, w.address)
    xAddr = formatAddress('X', hrp, w.address)
    bare = pAddr.slice(2)
    cAddr = network.devAccounts[0]!.address.toLowerCase()
    const other = network.wallets(1)!.address
    ids.xSend = network.primary.xchain.issueTx(w.x.send([{ address: other, amount: 5n * AVAX }])).txId
    const xp = await network.transfer({ from: 'X', to: 'P', amount: 10n * AVAX, account: 0 })
    ids.xExport = xp.exportTxId
    ids.pImport = xp.importTxId
    ids.pSend = w.p.send([{ address: other, amount: AVAX }]).txId
    const t = network.primary.pchain.timestamp
    const node = network.newValidatorIdentity()
    validatorEnd = t + DAY + 100
    ids.addValidator = w.p.addValidator({ node, stake: 2_000n * AVAX, end: validatorEnd, delegationFee: 50_000 }).txId
    stakeStart = network.primary.pchain.timestamp
    ids.addDelegator = w.p.addDelegator({ nodeId: node.nodeId, stake: 100n * AVAX, end: t + DAY }).txId
    const subnet = w.p.createSubnet()
    ids.createSubnet = subnet.txId
    const chain = w.p.createChain({ subnetId: subnet.subnetId, name: 'l1', vmId: new Uint8Array(32).fill(1), genesis: '{"config":{"chainId":99999},"alloc":{}}' })
    ids.createChain = chain.txId
    ids.blockchainId = chain.blockchainId
    ids.subnetId = subnet.subnetId
    const nodes = [network.newValidatorIdentity(), network.newValidatorIdentity()]
    const conv = w.p.convertSubnetToL1({
      subnetId: subnet.subnetId, chainId: chain.blockchainId, address: new Uint8Array(20).fill(0xee),
      validators: nodes.map((n, i) => ({ node: n, weight: 100n + BigInt(i), balance: AVAX })),
    })
    ids.convert = conv.txId
    validationIds = conv.validators.map((v) => v.validationId)
    for (const v of conv.validators) weightOf.set(v.validationId, 100 + nodes.findIndex((n) => n.nodeId === v.nodeId))
    ids.increase = w.p.increaseL1ValidatorBalance({ validationId: validationIds[0]!, amount: 5_000n }).txId
    ids.setWeight = w.p.setL1ValidatorWeight({ validationId: validationIds[1]!, weight: 250n, warpSigners: nodes }).txId
    const reg = w.p.registerL1Validator({ subnetId: subnet.subnetId, node: network.newValidatorIdentity(), weight: 50n, balance: 2n * AVAX, warpSigners: nodes })
    ids.register = reg.txId
    registered = reg.validationId
    ids.disable = w.p.disableL1Validator({ validationId: registered }).txId
    const pc = await network.transfer({ from: 'P', to: 'C', amount: 3n * AVAX, account: 0 })
    ids.pExport = pc.exportTxId
    ids.cImport = pc.importTxId
    const cx = await network.transfer({ from: 'C', to: 'X', amount: AVAX, account: 0 })
    ids.cExport = cx.exportTxId
    ids.xImport = cx.importTxId
    await network.advanceTime(DAY + 200)
    app = Fastify()
    await app.register(dataRoutes, { source: networkDataSource(network), routes: [primaryTxRoutes(network)] })
    await app.ready()
  })
  afterAll(async () => {
    await app?.close()
    await network?.close?.()
  })

  const utxos = async (chain: string, addresses: string, qs = '') => {
    const r = await app.inject({ method: 'POST', url: `/v1/networks/local/blockchains/${chain}/utxos${qs}`, payload: { addresses } })
    return { status: r.statusCode, body: r.json() as Body }
  }
  const txs = async (chain: string, qs = '') => {
    const r = await app.inject({ method: 'GET', url: `/v1/networks/local/blockchains/${chain}/transactions${qs}` })
    return { status: r.statusCode, body: r.json() as Body }
  }
  const allTxs = async (chain: string, qs: string) => {
    const out: Json[] = []
    let token: string | undefined
    do {
      const page = await txs(chain, `${qs}&pageSize=3${token ? `&pageToken=${token}` : ''}`)
      expect(page.status).toBe(200)
      out.push(...page.body.transactions!)
      token = page.body.nextPageToken
    } while (token)
    return out
  }
  const pTx = async (txHash: string) => (await allTxs('p-chain', `?addresses=${pAddr}`)).find((t) => t.txHash === txHash)!

  it('lists P-chain UTXOs in the PChainUtxo shape, spent ones with their consuming tx', async () => {
    const { status, body } = await utxos('p-chain', pAddr, '?pageSize=100')
    expect(status).toBe(201)
    expect(body.chainInfo).toEqual({ chainName: 'p-chain', network: 'fuji' })
    const imported = body.utxos!.find((u) => u.txHash === ids.pImport)
    // the import's output was spent by a later tx of the account: only listed with includeSpent
    const all = await utxos(PRIMARY_NETWORK_ID, bare, '?pageSize=100&includeSpent=true')
    const spent = all.body.utxos!.find((u) => u.txHash === ids.pImport && u.outputIndex === 0)!
    expect(imported).toBeUndefined()
    expect(inSpecOrder(Object.keys(spent), P_UTXO_KEYS)).toBe(true)
    expect(spent).toMatchObject({
      addresses: [bare], consumedOnChainId: network.primary.pchain.chainId, createdOnChainId: network.primary.pchain.chainId,
      platformLocktime: 0, outputIndex: 0, staked: false, threshold: 1, utxoType: 'TRANSFER', blockNumber: expect.stringMatching(/^\d+$/),
      consumingBlockNumber: expect.stringMatching(/^\d+$/),
    })
    const consumer = await pTx(spent.consumingTxHash as string)
    expect((consumer.consumedUtxos as Json[]).map((u) => u.utxoId)).toContain(spent.utxoId)
    expect(spent.consumingBlockNumber).toBe(consumer.blockNumber)
    expect(spent.consumingBlockTimestamp).toBe(consumer.blockTimestamp)
    expect(spent.utxoBytes).toMatch(/^0x0000/)
    expect(all.body.utxos!.length).toBeGreaterThan(body.utxos!.length)
  })

  it('lists stake outputs with their staking window and rewards with their reward type', async () => {
    const { body } = await utxos('p-chain', pAddr, '?pageSize=100&includeSpent=true')
    const stake = body.utxos!.filter((u) => u.txHash === ids.addValidator && u.staked === true)
    expect(stake).toHaveLength(1)
    expect(stake[0]).toMatchObject({ utxoType: 'STAKE', amount: String(2_000n * AVAX), utxoStartTimestamp: stakeStart, utxoEndTimestamp: validatorEnd })
    expect(Object.keys(stake[0]!).slice(-3)).toEqual(['utxoEndTimestamp', 'utxoStartTimestamp', 'utxoType'])
    const rewards = body.utxos!.filter((u) => u.rewardType !== undefined)
    expect(rewards.map((u) => u.rewardType).sort()).toEqual(['DELEGATOR', 'VALIDATOR', 'VALIDATOR_FEE'])
    expect(rewards.every((u) => u.utxoType === 'STAKE' && u.staked === false)).toBe(true)
  })

  it('serves an AddValidatorTx and its RewardValidatorTx with every staking field', async () => {
    const add = await pTx(ids.addValidator)
    expect(inSpecOrder(Object.keys(add), P_TX_KEYS)).toBe(true)
    const reward = (await allTxs('p-chain', `?addresses=${pAddr}&txTypes=RewardValidatorTx`)).find((t) => t.stakingTxHash === ids.addValidator)!
    expect(add).toMatchObject({
      txType: 'AddPermissionlessValidatorTx', amountStaked: [avax(2_000n * AVAX)], startTimestamp: stakeStart, endTimestamp: validatorEnd, delegationFeePercent: '5.0000',
      nodeId: expect.stringMatching(/^NodeID-/), subnetId: PRIMARY_NETWORK_ID, rewardTxHash: reward.txHash, rewardAddresses: [bare],
      estimatedReward: expect.stringMatching(/^[1-9]\d*$/), amountL1ValidatorBalanceBurned: [],
    })
    expect(add.blsCredentials).toEqual({ publicKey: expect.stringMatching(/^0x[0-9a-f]{96}$/), proofOfPossession: expect.stringMatching(/^0x[0-9a-f]{192}$/) })
    expect((add.emittedUtxos as Json[]).filter((u) => u.staked)).toHaveLength(1)
    const emitted = reward.emittedUtxos as Json[]
    expect(emitted.map((u) => u.rewardType)).toEqual(['VALIDATOR', 'VALIDATOR_FEE'])
    expect(emitted.every((u) => u.txHash === ids.addValidator)).toBe(true)
    expect(BigInt(emitted[0]!.amount as string)).toBe(BigInt(add.estimatedReward as string))
    expect(reward).toMatchObject({ txType: 'RewardValidatorTx', consumedUtxos: [], amountBurned: [], value: [avax(emitted.reduce((s, u) => s + BigInt(u.amount as string), 0n))] })
    const delegator = await pTx(ids.addDelegator)
    expect(delegator).toMatchObject({ txType: 'AddPermissionlessDelegatorTx', subnetId: PRIMARY_NETWORK_ID, rewardAddresses: [bare], amountStaked: [avax(100n * AVAX)], rewardTxHash: expect.any(String) })
    expect(delegator.delegationFeePercent).toBeUndefined()
  })

  it('serves an ImportTx with the UTXOs it took from shared memory, and the export they came from', async () => {
    const imp = await pTx(ids.pImport)
    const consumed = imp.consumedUtxos as Json[]
    expect(imp).toMatchObject({ txType: 'ImportTx', sourceChain: network.primary.xchain.chainId })
    expect(consumed).toHaveLength(1)
    expect(consumed[0]).toMatchObject({
      createdOnChainId: network.primary.xchain.chainId, consumedOnChainId: network.primary.pchain.chainId, consumingTxHash: ids.pImport, txHash: ids.xExport,
    })
    const inAmount = BigInt(consumed[0]!.amount as string)
    const outAmount = (imp.emittedUtxos as Json[]).reduce((s, u) => s + BigInt(u.amount as string), 0n)
    expect(imp.amountBurned).toEqual([avax(inAmount - outAmount)])
    expect(imp.value).toEqual([avax(outAmount)])
    const xExport = (await allTxs('x-chain', `?addresses=${xAddr}`)).find((t) => t.txHash === ids.xExport)!
    const exported = (xExport.emittedUtxos as Json[]).find((u) => u.utxoId === consumed[0]!.utxoId)!
    expect(exported).toMatchObject({ consumedOnChainId: network.primary.pchain.chainId, consumingTxHash: ids.pImport, creationTxHash: ids.xExport })
    expect(xExport.destinationChain).toBe(network.primary.pchain.chainId)
  })

  it('serves subnet, chain and L1 fields', async () => {
    const subnet = await pTx(ids.createSubnet)
    expect(subnet).toMatchObject({ subnetId: ids.subnetId, subnetOwnershipInfo: { locktime: 0, threshold: 1, addresses: [bare] } })
    const chain = await pTx(ids.createChain)
    expect(chain).toMatchObject({ subnetId: ids.subnetId, blockchainInfo: { chainName: 'l1', vmId: expect.any(String), genesisData: { config: { chainId: 99999 }, alloc: {} } } })
    const convert = await pTx(ids.convert)
    expect(convert.l1ValidatorManagerDetails).toEqual({ blockchainId: ids.blockchainId, contractAddress: `0x${'ee'.repeat(20)}` })
    expect(convert.amountL1ValidatorBalanceBurned).toEqual([avax(2n * AVAX)])
    const details = convert.l1ValidatorDetails as Json[]
    expect(details.map((d) => d.validationId).sort()).toEqual([...validationIds].sort())
    expect(details.find((d) => d.validationId === validationIds[0])).toEqual({
      validationId: validationIds[0], validationIdHex: bytesToHex(idFromString(validationIds[0]!)), nodeId: expect.stringMatching(/^NodeID-/), subnetId: ids.subnetId,
      weight: weightOf.get(validationIds[0]!), remainingBalance: Number(AVAX), balanceChange: Number(AVAX),
      blsCredentials: { publicKey: expect.stringMatching(/^0x[0-9a-f]{96}$/), proofOfPossession: expect.stringMatching(/^0x[0-9a-f]{192}$/) },
    })
    const increase = await pTx(ids.increase)
    expect(increase.amountL1ValidatorBalanceBurned).toEqual([avax(5_000n)])
    expect(increase.l1ValidatorDetails).toEqual([expect.objectContaining({ validationId: validationIds[0], weight: weightOf.get(validationIds[0]!), remainingBalance: Number(AVAX + 5_000n), balanceChange: 5_000 })])
    const setWeight = await pTx(ids.setWeight)
    expect(setWeight.l1ValidatorDetails).toEqual([expect.objectContaining({ validationId: validationIds[1], weight: 250, remainingBalance: Number(AVAX) })])
    expect((setWeight.l1ValidatorDetails as Json[])[0]!.balanceChange).toBeUndefined()
    const disable = await pTx(ids.disable)
    const refund = (disable.emittedUtxos as Json[]).at(-1)!
    expect(disable.l1ValidatorDetails).toEqual([expect.objectContaining({ validationId: registered, weight: 50, remainingBalance: 0, balanceChange: -Number(refund.amount) })])
    expect(BigInt(refund.amount as string)).toBe(2n * AVAX)
    const register = await pTx(ids.register)
    expect(register.l1ValidatorDetails).toEqual([expect.objectContaining({ validationId: registered, weight: 50, remainingBalance: Number(2n * AVAX), balanceChange: Number(2n * AVAX) })])
  })

  it('finds L1 validator txs by validation id, filtered by type and time', async () => {
    const byId = await allTxs('p-chain', `?l1ValidationId=${validationIds[0]}&sortOrder=asc`)
    expect(byId.map((t) => t.txHash)).toEqual([ids.convert, ids.increase])
    const hexId = bytesToHex(idFromString(registered))
    expect((await allTxs('p-chain', `?l1ValidationId=${hexId}`)).map((t) => t.txHash)).toEqual([ids.disable, ids.register])
    expect((await allTxs('p-chain', `?l1ValidationId=${registered}&txTypes=DisableL1ValidatorTx`)).map((t) => t.txHash)).toEqual([ids.disable])
    const convertTime = (byId[0]!.blockTimestamp as number)
    expect((await allTxs('p-chain', `?l1ValidationId=${validationIds[0]}&endTimestamp=${convertTime - 1}`))).toEqual([])
    expect((await txs('x-chain', `?l1ValidationId=${registered}`)).body.message).toEqual([L1_VALIDATION_ID_P_ONLY])
    expect((await txs('p-chain', '?l1ValidationId=nope')).status).toBe(400)
  })

  it('filters by repeated txTypes keys and timestamps, only with addresses', async () => {
    const list = await allTxs('p-chain', `?addresses=${bare}&txTypes=ImportTx&txTypes=ExportTx&sortOrder=asc`)
    expect(list.map((t) => t.txHash)).toEqual([ids.pImport, ids.pExport])
    expect(list[1]).toMatchObject({ destinationChain: network.preset.cChainId })
    const all = await allTxs('p-chain', `?addresses=${pAddr}&sortOrder=asc`)
    const mid = all[Math.floor(all.length / 2)]!.blockTimestamp as number
    const later = await allTxs('p-chain', `?addresses=${pAddr}&startTimestamp=${mid}&sortOrder=asc`)
    expect(later).toEqual(all.filter((t) => (t.blockTimestamp as number) >= mid))
    const earlier = await allTxs('p-chain', `?addresses=${pAddr}&endTimestamp=${mid}`)
    expect(earlier.map((t) => t.txHash)).toEqual(all.filter((t) => (t.blockTimestamp as number) <= mid).map((t) => t.txHash).reverse())
    for (const qs of ['?txTypes=ImportTx', `?startTimestamp=${mid}`, `?endTimestamp=${mid}`]) {
      const r = await txs('p-chain', qs)
      expect(r.status).toBe(400)
      expect(r.body.message).toEqual([FILTERS_NEED_ADDRESSES])
    }
    expect((await txs('p-chain', `?addresses=${bare}&txTypes=Nope`)).status).toBe(400)
    expect((await txs('p-chain', '?addresses=fuji1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqr0yw0h')).status).toBe(400)
    // without filters, every tx of the chain, newest first
    const latest = await txs('p-chain', '?pageSize=100')
    const heights = latest.body.transactions!.map((t) => Number(t.blockNumber))
    expect([...heights].sort((a, b) => b - a)).toEqual(heights)
  })

  it('serves the C-chain atomic txs by 0x and bech32 address', async () => {
    const list = await allTxs('c-chain', `?addresses=${cAddr}`)
    expect(list.map((t) => t.txHash)).toEqual([ids.cExport, ids.cImport])
    const [exp, imp] = list as [Json, Json]
    expect(Object.keys(exp)).toEqual(['txHash', 'blockHeight', 'blockHash', 'timestamp', 'memo', 'amountUnlocked', 'amountCreated', 'sourceChain', 'destinationChain', 'txType', 'evmInputs', 'emittedUtxos'])
    expect(exp).toMatchObject({ txType: 'ExportTx', sourceChain: network.preset.cChainId, destinationChain: network.primary.xchain.chainId, memo: '0x' })
    const input = (exp.evmInputs as Json[])[0]!
    expect(input.fromAddress).toBe(cAddr)
    expect((input.credentials as Json[])[0]).toEqual({ signature: expect.stringMatching(/^0x[0-9a-f]{130}$/), publicKey: expect.stringMatching(/^0x0[23][0-9a-f]{64}$/) })
    expect('amount' in (exp.emittedUtxos as Json[])[0]!).toBe(false)
    expect((exp.emittedUtxos as Json[])[0]).toMatchObject({ creationTxHash: ids.cExport, consumingTxHash: ids.xImport, consumedOnChainId: network.primary.xchain.chainId })
    expect(imp).toMatchObject({ txType: 'ImportTx', sourceChain: network.primary.pchain.chainId, destinationChain: network.preset.cChainId, evmOutputs: [{ toAddress: cAddr, asset: expect.any(Object) }] })
    const consumed = (imp.consumedUtxos as Json[])[0]!
    expect(consumed).toMatchObject({ creationTxHash: ids.pExport, createdOnChainId: network.primary.pchain.chainId, consumedOnChainId: network.preset.cChainId, consumingTxHash: ids.cImport })
    expect(imp.blockHeight).toBe(Number(network.cChain.store.byNumber(BigInt(imp.blockHeight as number))!.number))
    expect((await allTxs(network.preset.cChainId, `?addresses=${xAddr}`)).map((t) => t.txHash)).toEqual([ids.cExport, ids.cImport])
  })

  it('lists X-chain UTXOs and transactions with consumed / emitted UTXOs and credentials', async () => {
    const live = await utxos('x-chain', xAddr, '?pageSize=100')
    expect(live.status).toBe(201)
    expect(live.body.chainInfo).toEqual({ chainName: 'x-chain', network: 'fuji' })
    expect(live.body.utxos!.every((u) => u.consumingTxHash === undefined)).toBe(true)
    const list = await allTxs('x-chain', `?addresses=${xAddr}`)
    expect(list.map((t) => t.txHash)).toEqual([ids.xImport, ids.xExport, ids.xSend])
    const send = list[2]!
    expect(send).toMatchObject({ txType: 'BaseTx', chainFormat: 'linear', memo: '0x' })
    const consumed = send.consumedUtxos as Json[]
    expect(consumed[0]!.consumingTxHash).toBe(ids.xSend)
    expect((consumed[0]!.credentials as Json[])[0]).toEqual({ signature: expect.stringMatching(/^0x[0-9a-f]{130}$/), publicKey: expect.stringMatching(/^0x0[23][0-9a-f]{64}$/) })
    const unlocked = consumed.reduce((s, u) => s + BigInt((u.asset as Json).amount as string), 0n)
    expect(send.amountUnlocked).toEqual([avax(unlocked)])
    expect(list[0]).toMatchObject({ txType: 'ImportTx', sourceChain: network.preset.cChainId })
    expect(((list[0]!.consumedUtxos as Json[])[0]!).creationTxHash).toBe(ids.cExport)
  })

  it('lists the atomic UTXOs exported to the C-chain', async () => {
    const { body } = await utxos('c-chain', pAddr, '?includeSpent=true')
    expect(body.chainInfo).toEqual({ chainName: 'c-chain', network: 'fuji' })
    expect(body.utxos!.map((u) => u.creationTxHash)).toEqual([ids.pExport])
    expect(body.utxos![0]).toMatchObject({ consumingTxHash: ids.cImport, consumedOnChainId: network.preset.cChainId })
    expect((await utxos('c-chain', pAddr)).body.utxos).toEqual([])
  })

  it('validates the body, pageSize and blockchainId', async () => {
    expect((await app.inject({ method: 'POST', url: '/v1/networks/local/blockchains/p-chain/utxos', payload: {} })).statusCode).toBe(400)
    expect((await utxos('p-chain', pAddr, '?pageSize=1025')).status).toBe(400)
    expect((await utxos('p-chain', pAddr, '?pageSize=1024')).status).toBe(201)
    expect((await utxos('q-chain', pAddr)).status).toBe(400)
    expect((await utxos('p-chain', 'P-notanaddress')).status).toBe(400)
    expect((await app.inject({ method: 'POST', url: '/v1/networks/mainnet/blockchains/p-chain/utxos', payload: { addresses: pAddr } })).json()).toEqual({ utxos: [], chainInfo: { chainName: 'p-chain', network: 'mainnet' } })
  })

  it('pages UTXOs by amount and keeps pages stable', async () => {
    const all = await utxos('p-chain', pAddr, '?pageSize=100&includeSpent=true&sortBy=amount&sortOrder=asc')
    const amounts = all.body.utxos!.map((u) => BigInt(u.amount as string))
    expect(amounts).toEqual([...amounts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
    const ids: unknown[] = []
    let token: string | undefined
    do {
      const { body } = await utxos('p-chain', pAddr, `?includeSpent=true&sortBy=amount&sortOrder=asc&pageSize=4${token ? `&pageToken=${token}` : ''}`)
      ids.push(...body.utxos!.map((u) => u.utxoId))
      token = body.nextPageToken
    } while (token)
    expect(ids).toEqual(all.body.utxos!.map((u) => u.utxoId))
    const first = await utxos('p-chain', pAddr, '?pageSize=2')
    expect((await utxos('p-chain', pAddr, `?pageSize=2&sortOrder=asc&pageToken=${first.body.nextPageToken}`)).status).toBe(400)
  })

  it('keeps transaction pages stable while new blocks arrive, and forgets reverted txs', async () => {
    const before = await allTxs('p-chain', `?addresses=${pAddr}`)
    const first = await txs('p-chain', `?addresses=${pAddr}&pageSize=2`)
    const snapshot = await network.snapshot()
    const w = network.wallets(0)!
    const extra = w.p.send([{ address: network.wallets(2)!.address, amount: AVAX }]).txId
    const xExtra = network.primary.xchain.issueTx(w.x.send([{ address: network.wallets(2)!.address, amount: AVAX }])).txId
    const rest: Json[] = []
    let token = first.body.nextPageToken
    while (token) {
      const page = await txs('p-chain', `?addresses=${pAddr}&pageSize=2&pageToken=${token}`)
      rest.push(...page.body.transactions!)
      token = page.body.nextPageToken
    }
    expect([...first.body.transactions!, ...rest].map((t) => t.txHash)).toEqual(before.map((t) => t.txHash))
    expect((await txs('p-chain', `?addresses=${pAddr}&pageSize=1`)).body.transactions![0]!.txHash).toBe(extra)
    expect((await txs('x-chain', `?addresses=${xAddr}&pageSize=1`)).body.transactions![0]!.txHash).toBe(xExtra)
    expect(await network.revert(snapshot)).toBe(true)
    expect(await allTxs('p-chain', `?addresses=${pAddr}`)).toEqual(before)
    expect((await txs('x-chain', `?addresses=${xAddr}&pageSize=1`)).body.transactions![0]!.txHash).toBe(ids.xImport)
    const spentBy = (await utxos('p-chain', pAddr, '?pageSize=100&includeSpent=true')).body.utxos!.map((u) => u.consumingTxHash)
    expect(spentBy).not.toContain(extra)
  })

  it('serves X-chain CreateAssetTx and OperationTx with the asset and mint outputs', async () => {
    const w = network.wallets(0)!
    const x = network.primary.xchain
    const created = x.issueTx(w.x.createAsset({ name: 'Token', symbol: 'TOK', denomination: 2, holders: [{ address: w.address, amount: 500n }], minters: [{ addresses: [w.address] }] })).txId
    const minted = x.issueTx(w.x.mint({ assetId: created, amount: 70n, to: w.address })).txId
    const [mint, create] = (await txs('x-chain', `?addresses=${xAddr}&txTypes=CreateAssetTx&txTypes=OperationTx`)).body.transactions! as [Json, Json]
    expect([mint.txHash, create.txHash]).toEqual([minted, created])
    expect(create.assetCreated).toEqual({ assetId: created, name: 'Token', symbol: 'TOK', denomination: 2, type: 'secp256k1', createdAtTimestamp: create.timestamp, cap: 'variable' })
    const emitted = create.emittedUtxos as Json[]
    expect(emitted.map((u) => u.utxoType).sort()).toEqual(['mint', 'transfer', 'transfer'])
    expect(create.amountCreated).toEqual(expect.arrayContaining([{ assetId: created, name: 'Token', symbol: 'TOK', denomination: 2, type: 'secp256k1', amount: '500' }]))
    const mintOut = emitted.find((u) => u.utxoType === 'mint')!
    expect(mintOut.consumingTxHash).toBe(minted)
    expect((mint.consumedUtxos as Json[]).map((u) => u.utxoId)).toContain(mintOut.utxoId)
    expect((mint.emittedUtxos as Json[]).filter((u) => (u.asset as Json).assetId === created).map((u) => [u.utxoType, (u.asset as Json).amount]).sort()).toEqual([['mint', '0'], ['transfer', '70']])
    const held = await utxos('x-chain', xAddr, `?assetId=${created}&sortBy=amount&sortOrder=asc`)
    expect(held.body.utxos!.map((u) => (u.asset as Json).amount)).toEqual(['0', '70', '500'])
  })
})
