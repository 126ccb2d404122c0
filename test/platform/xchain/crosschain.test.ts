import { describe, expect, it } from 'vitest'
import { formatAddress } from '../../../src/core/address.js'
import { idFromString, idToString } from '../../../src/core/ids.js'
import { encodeUtxo } from '../../../src/platform/codec.js'
import type { Utxo } from '../../../src/platform/txs.js'
import { getUTXOs } from '../../../src/platform/xchain/api.js'
import { inputId } from '../../../src/platform/xchain/bytes.js'
import { decodeCSignedTx, encodeCSignedTx, signCTx } from '../../../src/platform/xchain/cAtomicCodec.js'
import { X2C_RATE, atomicGasUsed, calculateDynamicFee } from '../../../src/platform/xchain/cAtomicVerify.js'
import { CChainAtomic } from '../../../src/platform/xchain/cchainAtomic.js'
import { XChainTxError } from '../../../src/platform/xchain/errors.js'
import { AVAX, C_CHAIN, DEV_FUNDS, FakeEvm, FakePChain, P_CHAIN, X_CHAIN, ethAddr, setup } from './helpers.js'

const xAddr = (a: Uint8Array) => formatAddress('X', 'local', a)

function errorOf(f: () => unknown): XChainTxError {
  try {
    f()
  } catch (e) {
    if (e instanceof XChainTxError) return e
    throw e
  }
  throw new Error('expected a refusal')
}

describe('X → P → X through shared memory', () => {
  it('exports, imports on P, exports back and imports on X with consistent balances', () => {
    const { x, addrs, wallets, sharedMemory } = setup()
    const p = new FakePChain(sharedMemory)
    const amount = 10_000_000_000n

    const exp = wallets[0]!.export({ destinationChain: P_CHAIN, to: addrs[0]!, amount })
    const { txId, height } = x.issueTx(exp)
    expect(x.balanceOf(addrs[0]!)).toBe(DEV_FUNDS - amount - x.txFee)
    // the exported UTXO is in X → P shared memory at index len(outs), owned by the recipient
    const key = inputId(idFromString(txId), exp.unsigned.base.outputs.length)
    expect(sharedMemory.has(X_CHAIN, P_CHAIN, key)).toBe(true)
    const hist = x.state.findUtxo(key)!
    expect(hist.exportedTo).toBe(P_CHAIN)
    expect(hist.created).toMatchObject({ chainId: X_CHAIN, txId, height })

    const imported = p.importFrom(X_CHAIN, addrs[0]!)
    expect(imported).toHaveLength(1)
    expect(p.balance(addrs[0]!)).toBe(amount)
    expect(sharedMemory.has(X_CHAIN, P_CHAIN, key)).toBe(false)

    // P exports back to X; X sees it with getUTXOs sourceChain=P
    const back = p.exportTo(X_CHAIN, addrs[0]!, amount - 1_000_000n)
    const atomic = getUTXOs(x, { addresses: [xAddr(addrs[0]!)], sourceChain: 'P' })
    expect(atomic.numFetched).toBe('1')
    expect(atomic.utxos[0]!.slice(0, -8)).toBe('0x' + Buffer.from(encodeUtxo('X', back)).toString('hex'))
    expect(atomic.endIndex).toEqual({ address: xAddr(addrs[0]!), utxo: idToString(inputId(back.txId, 0)) })

    const imp = wallets[0]!.import({ sourceChain: P_CHAIN })
    const r = x.issueTx(imp)
    expect(x.balanceOf(addrs[0]!)).toBe(DEV_FUNDS - amount - x.txFee + (amount - 1_000_000n) - x.txFee)
    expect(sharedMemory.list(P_CHAIN, X_CHAIN)).toHaveLength(0)
    expect(x.state.findUtxo(inputId(back.txId, 0))).toMatchObject({ importedFrom: P_CHAIN, consumed: { txId: r.txId, height: r.height } })
    // importing the same UTXO again: it is gone from shared memory
    const again = { ...imp, unsigned: { ...imp.unsigned, base: { ...imp.unsigned.base, memo: new Uint8Array([1]) } } }
    const before = x.serialize()
    expect(errorOf(() => x.issueTx(again)).message).toBe('not found')
    expect(x.serialize()).toBe(before)
  })

  it('refuses to import an asset the X-chain does not know', () => {
    const { x, addrs, sharedMemory, keychains } = setup()
    const bogus = new Uint8Array(32).fill(7)
    const txId = new Uint8Array(32).fill(3)
    const utxo: Utxo = { txId, outputIndex: 0, assetId: bogus, output: { type: 'TransferOutput', amount: 5n, owners: { locktime: 0n, threshold: 1, addrs: [addrs[0]!] } } }
    sharedMemory.put(P_CHAIN, X_CHAIN, [{ key: inputId(txId, 0), value: encodeUtxo('P', utxo), traits: [addrs[0]!] }])
    // import it with the fee paid from X-chain AVAX
    const { XWallet } = require_wallet()
    const w = new XWallet(x, keychains[0]!)
    const tx = w.import({ sourceChain: P_CHAIN })
    const before = x.serialize()
    // the BaseTx part is checked first: the output of the unknown asset has no CreateAssetTx
    expect(errorOf(() => x.issueTx(tx)).message).toBe('failed to verify fx usage: not found')
    // without that output, the imported input itself is refused
    tx.unsigned.base.outputs = tx.unsigned.base.outputs.filter((o) => idToString(o.assetId) === AVAX)
    const { signXTx } = require_wallet()
    const retry = signXTx(tx.unsigned, tx.unsigned.base.inputs.map(() => [keychains[0]!.get(addrs[0]!)!]).concat([[keychains[0]!.get(addrs[0]!)!]]))
    expect(errorOf(() => x.issueTx(retry)).message).toBe('not found')
    expect(x.serialize()).toBe(before)
    expect(sharedMemory.has(P_CHAIN, X_CHAIN, inputId(txId, 0))).toBe(true)
  })

  it('refuses exports to the X-chain itself and to unknown chains', () => {
    const { x, addrs, wallets } = setup()
    const self = wallets[0]!.export({ destinationChain: X_CHAIN, to: addrs[0]!, amount: 1n })
    expect(errorOf(() => x.issueTx(self)).message).toBe('same chainID')
    const other = '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm'
    const unknown = wallets[0]!.export({ destinationChain: other, to: addrs[0]!, amount: 1n })
    expect(errorOf(() => x.issueTx(unknown)).message).toBe(
      `failed to get subnet of "${other}": problem retrieving blockchain "${other}": not found`,
    )
  })
})

describe('X → C → X (coreth atomic txs)', () => {
  it('imports into the EVM at 1e9 wei per nAVAX minus the dynamic fee, and exports back with the nonce', () => {
    const { x, addrs, wallets, sharedMemory, clock, keychains, accounts } = setup()
    const evm = new FakeEvm()
    const c = new CChainAtomic({ sharedMemory, evm, clock })
    const amount = 50_000_000_000n // 50 AVAX
    x.issueTx(wallets[0]!.export({ destinationChain: C_CHAIN, to: addrs[0]!, amount }))
    expect(sharedMemory.list(X_CHAIN, C_CHAIN)).toHaveLength(1)

    const evmAddr = ethAddr(accounts[0]!.address)
    const imp = c.buildImportTx({ sourceChain: X_CHAIN, to: evmAddr, keychain: keychains[0]! })
    const fee = calculateDynamicFee(atomicGasUsed(imp.unsigned), evm.fee)
    expect(fee).toBe(((atomicGasUsed(imp.unsigned) * evm.fee) + X2C_RATE - 1n) / X2C_RATE)
    const accepted = c.issueTx(imp)
    expect(accepted.burned).toBe(fee)
    expect(evm.getBalance(evmAddr)).toBe((amount - fee) * X2C_RATE)
    expect(sharedMemory.list(X_CHAIN, C_CHAIN)).toHaveLength(0)
    // bytes round-trip and the id is sha256 of the signed bytes
    expect(decodeCSignedTx(encodeCSignedTx(imp))).toEqual(imp)
    expect(c.getTx(accepted.txId)?.tx).toEqual(imp)

    // export 20 AVAX back to X (to account 1)
    const exp = c.buildExportTx({ destinationChain: X_CHAIN, to: addrs[1]!, amount: 20_000_000_000n, privateKey: Buffer.from(accounts[0]!.privateKey.slice(2), 'hex') })
    const expFee = calculateDynamicFee(atomicGasUsed(exp.unsigned), evm.fee)
    expect(exp.unsigned.type === 'ExportTx' && exp.unsigned.ins[0]!.amount).toBe(20_000_000_000n + expFee)
    const accepted2 = c.issueTx(exp)
    expect(evm.getNonce(evmAddr)).toBe(1n)
    expect(evm.getBalance(evmAddr)).toBe((amount - fee - 20_000_000_000n - expFee) * X2C_RATE)
    // the C-chain's exported UTXO is index 0 of the export tx
    expect(sharedMemory.has(C_CHAIN, X_CHAIN, inputId(idFromString(accepted2.txId), 0))).toBe(true)

    const pending = getUTXOs(x, { addresses: [xAddr(addrs[1]!)], sourceChain: 'C' })
    expect(pending.numFetched).toBe('1')
    expect(pending.endIndex.utxo).toBe(idToString(inputId(idFromString(accepted2.txId), 0)))
    x.issueTx(wallets[1]!.import({ sourceChain: C_CHAIN }))
    expect(getUTXOs(x, { addresses: [xAddr(addrs[1]!)], sourceChain: C_CHAIN }).numFetched).toBe('0')
    expect(x.balanceOf(addrs[1]!)).toBe(DEV_FUNDS + 20_000_000_000n - x.txFee)
    // replaying the export: the nonce is now stale (state unchanged)
    const snap = evm.snapshot()
    expect(errorOf(() => c.verify(exp)).message).toBe('invalid nonce')
    expect(evm.snapshot()).toBe(snap)
  })

  it('refuses invalid atomic txs with coreth messages and changes nothing', () => {
    const { x, addrs, wallets, sharedMemory, clock, keychains, accounts } = setup()
    const evm = new FakeEvm()
    const c = new CChainAtomic({ sharedMemory, evm, clock })
    x.issueTx(wallets[0]!.export({ destinationChain: C_CHAIN, to: addrs[0]!, amount: 1_000_000_000n }))
    const evmAddr = ethAddr(accounts[0]!.address)
    const imp = c.buildImportTx({ sourceChain: X_CHAIN, to: evmAddr, keychain: keychains[0]! })
    const smBefore = sharedMemory.serialize()
    const evmBefore = evm.snapshot()
    const check = (tx: typeof imp, msg: string | RegExp) => {
      const e = errorOf(() => c.issueTx(tx))
      if (typeof msg === 'string') expect(e.message).toBe(msg)
      else expect(e.message).toMatch(msg)
      expect(sharedMemory.serialize()).toBe(smBefore)
      expect(evm.snapshot()).toBe(evmBefore)
    }
    if (imp.unsigned.type !== 'ImportTx') throw new Error('unreachable')
    // claims more than imported minus fee
    const greedy = signCTx({ ...imp.unsigned, outs: [{ ...imp.unsigned.outs[0]!, amount: 1_000_000_000n }] }, [[keychains[0]!.get(addrs[0]!)!]])
    check(greedy, 'import tx flow check failed due to: insufficient funds')
    // signed by the wrong key
    const forged = signCTx(imp.unsigned, [[keychains[1]!.get(addrs[1]!)!]])
    check(forged, /^import tx transfer failed verification: wrong signature: expected signature from/)
    // no credentials
    check({ unsigned: imp.unsigned, credentials: [] }, 'incorrect number of credentials: (1 vs. 0)')
    // from a chain that exported nothing
    const fromP = signCTx({ ...imp.unsigned, sourceChain: idFromString(P_CHAIN) }, [[keychains[0]!.get(addrs[0]!)!]])
    check(fromP, `failed to fetch import UTXOs from ${P_CHAIN} due to: not found`)
    // non-AVAX output
    const nonAvax = signCTx({ ...imp.unsigned, outs: [{ ...imp.unsigned.outs[0]!, assetId: new Uint8Array(32).fill(1) }] }, [[keychains[0]!.get(addrs[0]!)!]])
    check(nonAvax, 'import output cannot contain non-AVAX in Banff')
    // wrong network
    check(signCTx({ ...imp.unsigned, networkId: 5 }, [[keychains[0]!.get(addrs[0]!)!]]), 'tx was issued with a different network ID')
    // the valid one still goes through afterwards
    c.issueTx(imp)
    expect(evm.getBalance(evmAddr) > 0n).toBe(true)

    // export more than the balance
    const key = Buffer.from(accounts[0]!.privateKey.slice(2), 'hex')
    expect(() => c.buildExportTx({ destinationChain: X_CHAIN, to: addrs[0]!, amount: 10n ** 12n, privateKey: key })).toThrow('insufficient funds')
    const exp = c.buildExportTx({ destinationChain: X_CHAIN, to: addrs[0]!, amount: 1_000_000n, privateKey: key })
    if (exp.unsigned.type !== 'ExportTx') throw new Error('unreachable')
    const stolen = signCTx(exp.unsigned, [[keychains[1]!.get(addrs[1]!)!]])
    const e1 = errorOf(() => c.issueTx(stolen))
    expect(e1.message).toBe("signature doesn't match public key")
    const tooMuch = signCTx({ ...exp.unsigned, ins: [{ ...exp.unsigned.ins[0]!, amount: 10n ** 15n }] }, [[key]])
    expect(errorOf(() => c.issueTx(tooMuch)).message).toBe('insufficient funds')
    const underpaid = signCTx({ ...exp.unsigned, ins: [{ ...exp.unsigned.ins[0]!, amount: 1_000_000n }] }, [[key]])
    expect(errorOf(() => c.issueTx(underpaid)).message).toBe('export tx flow check failed due to: insufficient funds')
    expect(idToString(exp.unsigned.exportedOutputs[0]!.assetId)).toBe(AVAX)
  })
})

import * as walletModule from '../../../src/platform/xchain/wallet.js'
function require_wallet() {
  return walletModule
}
