#!/usr/bin/env node
// An X → P export/import pair (issue 15), as a client runs it over HTTP on a devnet started through
// the library (port 0): avalanchejs builds and signs each tx (untimed, as the client's own work),
// then the clock runs from the issue to the tx read back accepted on its chain:
//   - the X-chain ExportTx: avm.issueTx, then avm.getTxStatus `Accepted`;
//   - the P-chain ImportTx of its UTXO: platform.issueTx, then platform.getTxStatus `Committed`
//     (only where the server has platform.issueTx: the figures say null otherwise);
//   - p50 / p99 of each side and of the pair, and pairs per second (issue to accepted, both sides).
// Figures are measured, never asserted. Runs on the built dist/ (npm run build).
// `node bench/xpAtomic.js` prints its own table; bench/run.js merges the figures into its table.
import * as avalanchejs from '@avalabs/avalanchejs'
import { fileURLToPath } from 'node:url'

const ajs = avalanchejs
const now = () => performance.now()
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b)
  return +sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(3)
}

export async function xpAtomicBench({ pairs = 300 } = {}) {
  const { startDevnet } = await import('../dist/index.js')
  const devnet = await startDevnet({ port: 0, nodes: 1 })
  const { url, network } = devnet
  let id = 1
  const call = async (path, method, params) => {
    const body = await (await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: id++, method, params }) })).json()
    if (body.error) throw new Error(`${method}: ${body.error.message}`)
    return body.result
  }
  const hex = (tx) => ajs.utils.bufferToHex(ajs.utils.addChecksum(tx.getSignedTx().toBytes()))
  try {
    const context = await ajs.Context.getContextFromURI(url)
    const avmapi = new ajs.avm.AVMApi(url)
    const pvmapi = new ajs.pvm.PVMApi(url)
    const key = ajs.utils.hexToBuffer(network.devAccounts[0].privateKey)
    const addr = ajs.secp256k1.publicKeyBytesToAddress(ajs.secp256k1.getPublicKey(key))
    const [x, p] = [ajs.utils.format('X', context.hrp, addr), ajs.utils.format('P', context.hrp, addr)]
    // Whether the P-chain takes signed txs: an empty one is refused by the method, not by routing.
    const probe = await (await fetch(`${url}/ext/bc/P`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'platform.issueTx', params: { tx: '' } }) })).json()
    const pIssues = !/can't find method/.test(probe.error?.message ?? '')

    const exportMs = []
    const importMs = []
    const pairMs = []
    let total = 0
    for (let i = 0; i < pairs; i++) {
      const { utxos } = await avmapi.getUTXOs({ addresses: [x] })
      const exp = ajs.avm.newExportTx(context, context.pBlockchainID, [addr], utxos, [ajs.TransferableOutput.fromNative(context.avaxAssetID, 10_000_000n, [addr])])
      await ajs.addTxSignatures({ unsignedTx: exp, privateKeys: [key] })
      let t = now()
      const { txID } = await call('/ext/bc/X', 'avm.issueTx', { tx: hex(exp), encoding: 'hex' })
      if ((await call('/ext/bc/X', 'avm.getTxStatus', { txID })).status !== 'Accepted') throw new Error(`export ${txID} not accepted`)
      const xSide = now() - t
      exportMs.push(xSide)
      if (!pIssues) {
        total += xSide
        continue
      }
      // The P-chain's gas capacity refills with time (ACP-103): as a client waits between bursts, the
      // network clock moves 10 s every 100 pairs, untimed.
      if (i > 0 && i % 100 === 0) await call('/ext/sim', 'sim.advanceTime', { seconds: 10 })
      const feeState = await pvmapi.getFeeState()
      const { utxos: atomic } = await pvmapi.getUTXOs({ sourceChain: 'X', addresses: [p] })
      const imp = ajs.pvm.newImportTx({ feeState, fromAddressesBytes: [addr], sourceChainId: context.xBlockchainID, toAddressesBytes: [addr], utxos: atomic }, context)
      await ajs.addTxSignatures({ unsignedTx: imp, privateKeys: [key] })
      t = now()
      const { txID: importId } = await call('/ext/bc/P', 'platform.issueTx', { tx: hex(imp), encoding: 'hex' })
      if ((await call('/ext/bc/P', 'platform.getTxStatus', { txID: importId })).status !== 'Committed') throw new Error(`import ${importId} not committed`)
      const pSide = now() - t
      importMs.push(pSide)
      pairMs.push(xSide + pSide)
      total += xSide + pSide
    }
    return {
      xp_xExportIssueToAcceptedMsP50: percentile(exportMs, 50),
      xp_xExportIssueToAcceptedMsP99: percentile(exportMs, 99),
      xp_pImportIssueToCommittedMsP50: pIssues ? percentile(importMs, 50) : null,
      xp_pImportIssueToCommittedMsP99: pIssues ? percentile(importMs, 99) : null,
      xp_pairMsP50: pIssues ? percentile(pairMs, 50) : null,
      xp_pairMsP99: pIssues ? percentile(pairMs, 99) : null,
      xp_pairsPerSec: pIssues ? +((pairs * 1000) / total).toFixed(1) : null,
      xp_xExportsPerSec: +((pairs * 1000) / exportMs.reduce((a, b) => a + b, 0)).toFixed(1),
    }
  } finally {
    await devnet.close()
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const results = await xpAtomicBench()
  console.table(Object.entries(results).map(([metric, value]) => ({ metric, value })))
}
