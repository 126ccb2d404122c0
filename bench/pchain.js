#!/usr/bin/env node
// The P-chain benchmark (issue 5): a PChain with 10,000 primary validators (plus 2,000 delegators)
// and 100,000 UTXOs, then
//   - a "block" of 100 BaseTx transfers: the P-chain puts every tx in its own standard block
//     (PChain.issueTx), so this is 100 issueTx calls, reported per 100 and per tx;
//   - building what platform.getCurrentValidators answers for the primary network (every current
//     validator with its fields, delegator count and weight), and the pushed validator set
//     (PChain.validatorSets, what validators.getCurrentValidators reads through the registry);
//   - utxosOf one address, a time advance with every staker in place, a snapshot/tx/restore cycle;
//   - platform.issueTx over HTTP with 100,000 UTXOs in a devnet's P-chain (pchainIssueBench below).
// Signatures: the tests' fake authenticator (tx id = sha256 of the canonical JSON of the unsigned
// tx, signers read from the "signature" bytes), not secp256k1 recovery: the figures are the state
// machine's. Figures are measured, never asserted. Runs on the built dist/ (npm run build).
// `node bench/pchain.js` prints its own table; bench/run.js merges the figures into its table.
import { sha256 } from '@noble/hashes/sha2.js'
import { fileURLToPath } from 'node:url'

const now = () => performance.now()

export async function pchainBench({ validators = 10_000, delegators = 2_000, utxos = 100_000, snapshotCycles = 10, log = () => {} } = {}) {
  const { PChain, pchainConfig, canonicalJson, utxoKey } = await import('../dist/platform/pchain/index.js')
  const { idToString, idFromString, PRIMARY_NETWORK_ID } = await import('../dist/core/ids.js')
  const { ValidatorRegistry } = await import('../dist/network/validators.js')

  const T0 = 1_767_225_600
  const DAY = 86_400
  const AVAX = 1_000_000_000n
  const AVAX_ID = idToString(sha256(new TextEncoder().encode('avax')))
  const avax = idFromString(AVAX_ID)
  const GENESIS_TX = sha256(new TextEncoder().encode('genesis'))
  const ADDRESSES = 1000
  const addr = (n) => { const a = new Uint8Array(20); a[0] = 0x11; a[1] = n >> 8; a[2] = n & 0xff; return a }
  const nodeId = (n) => { const b = new Uint8Array(20); b[0] = 0xaa; b[1] = n >> 16; b[2] = (n >> 8) & 0xff; b[3] = n & 0xff; return b }
  const owners = (a) => ({ locktime: 0n, threshold: 1, addrs: [a] })
  const sig = (a) => { const s = new Uint8Array(65); s.set(a); return s }
  const fakeAuth = (tx) => ({ txId: sha256(new TextEncoder().encode(canonicalJson(tx.unsigned))), signers: tx.credentials.map((c) => c.sigs.map((s) => s.slice(0, 20))) })
  const atomic = { get: () => { throw new Error('not found') }, consume() {}, export() {} }

  const UTXO_AMOUNT = 10_000n * AVAX
  const t0 = now()
  const chain = new PChain({
    // Dynamic fees on, with room for 12,000 staking txs at one timestamp and a flat price.
    config: pchainConfig('local', { avaxAssetId: AVAX_ID, dynamicFee: { maxCapacity: 1n << 60n, excessConversionConstant: 1n << 60n } }),
    genesisTimestamp: T0,
    initialSupply: 360_000_000n * AVAX,
    genesis: { utxos: Array.from({ length: utxos }, (_, i) => ({ txId: GENESIS_TX, outputIndex: i, assetId: avax, output: { type: 'TransferOutput', amount: UTXO_AMOUNT, owners: owners(addr(i % ADDRESSES)) } })) },
    authenticate: fakeAuth,
    atomic,
  })
  const base = (i, change, owner) => ({
    networkId: 12345, blockchainId: new Uint8Array(32), memo: new Uint8Array(),
    inputs: [{ txId: GENESIS_TX, outputIndex: i, assetId: avax, input: { type: 'TransferInput', amount: UTXO_AMOUNT, sigIndices: [0] } }],
    outputs: change > 0n ? [{ assetId: avax, output: { type: 'TransferOutput', amount: change, owners: owners(owner) } }] : [],
  })
  // Spends genesis UTXO i, burning `burn` + the fee.
  const spend = (i, burn, make) => {
    const owner = addr(i % ADDRESSES)
    const fee = chain.fee(make(base(i, 1n, owner)))
    return { unsigned: make(base(i, UTXO_AMOUNT - burn - fee, owner)), credentials: [{ sigs: [sig(owner)] }] }
  }
  const stake = 2_000n * AVAX
  const stakeOuts = (a, amount) => [{ assetId: avax, output: { type: 'TransferOutput', amount, owners: owners(a) } }]
  for (let i = 0; i < validators; i++) {
    const a = addr(i % ADDRESSES)
    const pk = new Uint8Array(48); pk.set(nodeId(i))
    chain.issueTx(spend(i, stake, (b) => ({
      type: 'AddPermissionlessValidatorTx', base: b,
      validator: { nodeId: nodeId(i), start: 0n, end: BigInt(T0 + 30 * DAY + i), weight: stake },
      subnetId: new Uint8Array(32), signer: { type: 'ProofOfPossession', publicKey: pk, signature: new Uint8Array(96) },
      stakeOuts: stakeOuts(a, stake), validatorRewardsOwner: owners(a), delegatorRewardsOwner: owners(a), delegationShares: 100_000,
    })))
  }
  const dStake = 25n * AVAX
  for (let k = 0; k < delegators; k++) {
    const i = validators + k
    const a = addr(i % ADDRESSES)
    chain.issueTx(spend(i, dStake, (b) => ({
      type: 'AddPermissionlessDelegatorTx', base: b,
      validator: { nodeId: nodeId((k * 5) % validators), start: 0n, end: BigInt(T0 + 20 * DAY + k), weight: dStake },
      subnetId: new Uint8Array(32), stakeOuts: stakeOuts(a, dStake), delegatorRewardsOwner: owners(a),
    })))
  }
  const setupMs = now() - t0
  // The network listens to validator-set changes: attach the real registry (first push of every set).
  const registry = new ValidatorRegistry()
  let t = now()
  chain.setListener(registry)
  const firstPushMs = now() - t
  log(`setup: ${validators} validators + ${delegators} delegators + ${utxos} genesis UTXOs in ${setupMs.toFixed(0)} ms; first push ${firstPushMs.toFixed(1)} ms; ${chain.state.d.utxos.size} UTXOs`)

  const results = {}
  results.pchain_setupValidatorsAndUtxosMs = +setupMs.toFixed(0)
  results.pchain_utxoCount = chain.state.d.utxos.size
  results.pchain_currentValidatorCount = registry.get(PRIMARY_NETWORK_ID).length

  // 100 BaseTx transfers (each its own standard block, as the real P-chain builder would with one tx
  // per block), best of 3 rounds.
  let next = validators + delegators
  const transfer = (i) => spend(i, AVAX, (b) => ({ type: 'BaseTx', base: { ...b, outputs: [{ assetId: avax, output: { type: 'TransferOutput', amount: AVAX, owners: owners(addr(7)) } }, ...b.outputs] } }))
  let best = Infinity
  for (let round = 0; round < 4; round++) {
    const txs = Array.from({ length: 100 }, () => transfer(next++))
    t = now()
    for (const tx of txs) chain.issueTx(tx)
    const ms = now() - t
    if (round > 0) best = Math.min(best, ms) // round 0 warms up
  }
  results.pchain_100TxsMs = +best.toFixed(2)
  results.pchain_perTxMs = +(best / 100).toFixed(3)

  // platform.getCurrentValidators (primary network): every current validator with its fields.
  const st = chain.state
  const currentValidators = () => {
    const list = typeof st.currentValidatorsOf === 'function' ? st.currentValidatorsOf(PRIMARY_NETWORK_ID) : [...st.d.currentValidators.values()].filter((v) => v.subnetId === PRIMARY_NETWORK_ID)
    return list.map((v) => {
      const dels = st.delegatorsOf(v.subnetId, v.nodeId, 'current')
      let delegatorWeight = 0n
      for (const d of dels) delegatorWeight += d.weight
      return {
        txID: v.txId, startTime: String(v.startTime), endTime: String(v.endTime), weight: String(v.weight), nodeID: v.nodeId,
        stakeAmount: String(v.weight), potentialReward: String(v.potentialReward), delegationFee: String((v.delegationShares ?? 0) / 10_000),
        accruedDelegateeReward: String(st.getDelegateeReward(v.subnetId, v.nodeId)),
        signer: v.blsPublicKey ? { publicKey: v.blsPublicKey } : undefined,
        validationRewardOwner: v.rewardsOwner ? { locktime: String(v.rewardsOwner.locktime), threshold: String(v.rewardsOwner.threshold), addresses: v.rewardsOwner.addrs.length } : undefined,
        delegatorCount: String(dels.length), delegatorWeight: String(delegatorWeight),
      }
    })
  }
  const timeIt = (fn, reps) => {
    fn()
    let b = Infinity
    for (let r = 0; r < reps; r++) { const s = now(); fn(); b = Math.min(b, now() - s) }
    return b
  }
  let n = 0
  results.pchain_getCurrentValidatorsMs = +timeIt(() => { n = currentValidators().length }, 5).toFixed(2)
  results.pchain_getCurrentValidatorsCount = n
  // The real handler (src/rpc/node/platform/getCurrentValidators.ts), before JSON encoding.
  const { platformService } = await import('../dist/rpc/node/platform/index.js')
  const method = platformService.getCurrentValidators
  const apiContext = { pchain: chain, uptime: () => ({ uptime: 1, connected: true }) }
  const args = method.params(undefined)
  let listed = 0
  const apiMs = []
  for (let r = 0; r < (process.env.PROFILE_GCV ? 60 : 6); r++) {
    const s = now()
    listed = (await method.handler(args, apiContext)).validators.length
    apiMs.push(now() - s)
  }
  results.pchain_getCurrentValidatorsApiMs = +Math.min(...apiMs.slice(1)).toFixed(2)
  results.pchain_getCurrentValidatorsApiCount = listed
  results.pchain_validatorSetsMs = +timeIt(() => chain.validatorSets().get(PRIMARY_NETWORK_ID).length, 5).toFixed(2)
  results.pchain_utxosOfMs = +timeIt(() => chain.utxosOf(addr(3)).length, 5).toFixed(3)

  // A time advance of one hour (blocks the builder cuts; nobody's end time is due).
  t = now()
  chain.advanceTo(st.timestamp + 3600)
  results.pchain_advanceHourMs = +(now() - t).toFixed(2)

  // snapshot + one transfer + restore.
  {
    const cycles = snapshotCycles
    const txs = Array.from({ length: cycles }, () => transfer(next++))
    t = now()
    for (const tx of txs) {
      const snap = chain.snapshot()
      chain.issueTx(tx)
      chain.restore(snap)
    }
    results.pchain_snapshotTxRestoreMs = +((now() - t) / cycles).toFixed(2)
  }
  Object.assign(results, await pchainIssueBench({ utxos, log }))
  return results
}

/**
 * platform.issueTx over HTTP (issue 15): a devnet (in this process, on port 0) whose P-chain holds
 * `utxos` extra UTXOs of dev account 0 (100,000 as above), and BaseTxs spending them one each,
 * signed with the account's real secp256k1 key beforehand (signing is the client's time):
 *   - latency: issueTx, then getTxStatus until `Committed`, one tx at a time (p50 / p99);
 *   - throughput: `concurrency` issueTx requests in flight, txs per second of wall time.
 * The P-chain's gas capacity (1M, refilled at 100,000 gas per second of network time) holds ~280
 * BaseTxs: every 200 txs the bench advances network time 10 s (sim.advanceTime), outside the
 * latency samples and inside the throughput's wall time.
 */
export async function pchainIssueBench({ utxos = 100_000, latencyTxs = 1_000, throughputTxs = 2_000, concurrency = 16, log = () => {} } = {}) {
  const { startDevnet } = await import('../dist/index.js')
  const { produceUtxo } = await import('../dist/platform/pchain/executor.js')
  const { signPChainTx } = await import('../dist/platform/pchain/wallet.js')
  const { encodeSignedTx } = await import('../dist/platform/codec.js')
  const { addressFromPrivateKey } = await import('../dist/platform/secp256k1fx.js')
  const { idFromString, idToString } = await import('../dist/core/ids.js')
  const { keepAliveAgent, request } = await import('./http.js')
  const hexToBytes = (h) => Uint8Array.from(Buffer.from(h.replace(/^0x/, ''), 'hex'))
  const withChecksum = (b) => `0x${Buffer.concat([b, sha256(b).subarray(28)]).toString('hex')}`

  const devnet = await startDevnet({ port: 0, nodes: 1 })
  try {
    const pchain = devnet.network.primary.pchain
    const key = hexToBytes(devnet.network.devAccounts[0].privateKey)
    const addr = addressFromPrivateKey(key)
    const avax = idFromString(pchain.config.avaxAssetId)
    const source = sha256(new TextEncoder().encode('bench/issue-utxos'))
    const AMOUNT = 1_000_000_000n
    const FEE = 1_000_000n // well above the dynamic fee of a 1-in 1-out BaseTx at any price the bench reaches
    const owners = { locktime: 0n, threshold: 1, addrs: [addr] }
    let t = now()
    for (let i = 0; i < utxos; i++) produceUtxo({ state: pchain.state }, { txId: source, outputIndex: i, assetId: avax, output: { type: 'TransferOutput', amount: AMOUNT, owners } }, { chain: pchain.chainId, txId: idToString(source), height: 0 })
    log(`issue bench: ${utxos} UTXOs added in ${(now() - t).toFixed(0)} ms; ${pchain.state.d.utxos.size} in the state`)
    const txHex = (i) => withChecksum(encodeSignedTx('P', signPChainTx({
      type: 'BaseTx',
      base: {
        networkId: pchain.config.networkId, blockchainId: idFromString(pchain.chainId), memo: new Uint8Array(),
        inputs: [{ txId: source, outputIndex: i, assetId: avax, input: { type: 'TransferInput', amount: AMOUNT, sigIndices: [0] } }],
        outputs: [{ assetId: avax, output: { type: 'TransferOutput', amount: AMOUNT - FEE, owners } }],
      },
    }, [[key]])))
    t = now()
    const all = Array.from({ length: latencyTxs + throughputTxs }, (_, i) => txHex(i))
    log(`issue bench: ${all.length} BaseTxs signed in ${(now() - t).toFixed(0)} ms`)

    const agent = keepAliveAgent(concurrency)
    let id = 1
    const rpc = async (path, method, params) => {
      const { body } = await request(agent, `${devnet.url}${path}`, 'POST', JSON.stringify({ jsonrpc: '2.0', id: id++, method, params }))
      const json = JSON.parse(body)
      if (json.error) throw new Error(`${method}: ${json.error.message}`)
      return json.result
    }
    const refill = () => rpc('/ext/sim', 'sim.advanceTime', { seconds: 10 })
    const issueToCommitted = async (hex) => {
      const { txID } = await rpc('/ext/bc/P', 'platform.issueTx', { tx: hex, encoding: 'hex' })
      while ((await rpc('/ext/bc/P', 'platform.getTxStatus', { txID })).status !== 'Committed') { /* Processing: ask again */ }
    }

    // warm-up, then one tx at a time
    for (let i = 0; i < 50; i++) await issueToCommitted(all[i])
    await refill()
    const samples = []
    for (let i = 50; i < latencyTxs; i++) {
      if (i % 200 === 0) await refill()
      const s = now()
      await issueToCommitted(all[i])
      samples.push(now() - s)
    }
    samples.sort((a, b) => a - b)
    const pct = (p) => samples[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))]
    const results = { pchain_issueToCommittedP50Ms: +pct(50).toFixed(3), pchain_issueToCommittedP99Ms: +pct(99).toFixed(3) }

    await refill()
    const queue = all.slice(latencyTxs)
    let next = 0
    let sinceRefill = 0
    t = now()
    const worker = async () => {
      while (next < queue.length) {
        const hex = queue[next++]
        if (++sinceRefill >= 200) { sinceRefill = 0; await refill() }
        await rpc('/ext/bc/P', 'platform.issueTx', { tx: hex, encoding: 'hex' })
      }
    }
    await Promise.all(Array.from({ length: concurrency }, worker))
    const seconds = (now() - t) / 1000
    results.pchain_issueTxPerSec = +(queue.length / seconds).toFixed(0)
    results.pchain_issueUtxoCount = pchain.state.d.utxos.size
    agent.destroy()
    return results
  } finally {
    await devnet.close()
  }
}

export const pchainTargets = {
  pchain_100TxsMs: ['<', 50],
  pchain_getCurrentValidatorsMs: ['<', 20],
  pchain_getCurrentValidatorsApiMs: ['<', 20],
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const results = await pchainBench({ log: (m) => console.log(m) })
  console.table(Object.entries(results).map(([metric, value]) => {
    const tg = pchainTargets[metric]
    return { metric, value, target: tg ? `${tg[0]} ${tg[1]}` : '', met: tg ? ((tg[0] === '<' ? value < tg[1] : value >= tg[1]) ? 'yes' : 'NO') : '' }
  }))
}
