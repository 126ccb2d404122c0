import { describe, expect, it } from 'vitest'
import { DecodeError } from '../../src/core/errors.js'
import { bytesToHex } from '../../src/core/hex.js'
import { idToString } from '../../src/core/ids.js'
import { decodeUtxo, encodeUtxo, utxoId } from '../../src/platform/codec.js'
import type { ExportTx, OutputOwners, UnsignedTx, Utxo } from '../../src/platform/txs.js'
import { exportedUtxos, formatUtxoId, producedUtxos, rewardUtxoIndex, stakeUtxos, utxoKey } from '../../src/platform/utxo.js'
import { expectThrows } from '../helpers/expectThrows.js'
import { ajs, ajsUtxoBytes, bytes20, bytes32 } from './fixtures/ajs.js'

const { avaxSerial } = ajs

const hex = (b: Uint8Array) => bytesToHex(b)
const A1 = bytes20('a1')
const A2 = bytes20('a2')
const owners: OutputOwners = { locktime: 0n, threshold: 1, addrs: [A1] }
const owners2: OutputOwners = { locktime: 99n, threshold: 2, addrs: [A1, A2].sort(Buffer.compare) }
const AVAX = bytes32('avax')
const TX = bytes32('tx')

const transferUtxo: Utxo = {
  txId: TX,
  outputIndex: 7,
  assetId: AVAX,
  output: { type: 'TransferOutput', amount: 1_234_567_890n, owners: owners2 },
}

describe('utxoBytes match @avalabs/avalanchejs 5.2.0', () => {
  it('a TransferOutput UTXO on the P- and X-chain', () => {
    for (const chain of ['P', 'X'] as const) {
      const bytes = encodeUtxo(chain, transferUtxo)
      expect(hex(bytes)).toBe(hex(ajsUtxoBytes(chain, transferUtxo)))
      expect(decodeUtxo(chain, bytes)).toEqual(transferUtxo)
    }
  })

  it('is laid out as codec version, UTXOID, asset, type id 7, amount, owners', () => {
    expect(hex(encodeUtxo('P', transferUtxo))).toBe(
      '0x0000' + hex(TX).slice(2) + '00000007' + hex(AVAX).slice(2) + '00000007' + '00000000499602d2' +
        '0000000000000063' + '00000002' + '00000002' + owners2.addrs.map((a) => hex(a).slice(2)).join(''),
    )
  })

  it('a stakeable locked output (P-chain type id 22 wrapping a TransferOutput)', () => {
    const utxo: Utxo = {
      txId: TX,
      outputIndex: 0,
      assetId: AVAX,
      output: { type: 'StakeableLockOut', locktime: 1_900_000_000n, output: { type: 'TransferOutput', amount: 5n, owners } },
    }
    const bytes = encodeUtxo('P', utxo)
    expect(hex(bytes)).toBe(hex(ajsUtxoBytes('P', utxo)))
    expect(new DataView(bytes.buffer).getUint32(2 + 32 + 4 + 32)).toBe(22)
    expect(decodeUtxo('P', bytes)).toEqual(utxo)
  })

  it('a MintOutput UTXO on the X-chain', () => {
    const utxo: Utxo = { txId: TX, outputIndex: 1, assetId: bytes32('asset'), output: { type: 'MintOutput', owners } }
    const bytes = encodeUtxo('X', utxo)
    expect(hex(bytes)).toBe(hex(ajsUtxoBytes('X', utxo)))
    expect(decodeUtxo('X', bytes)).toEqual(utxo)
  })

  it('refuses outputs the chain does not register', () => {
    const mint = encodeUtxo('X', { ...transferUtxo, output: { type: 'MintOutput', owners } })
    expectThrows(() => decodeUtxo('P', mint), DecodeError, "couldn't unmarshal interface: unknown type ID 6")
    const lock = encodeUtxo('P', { ...transferUtxo, output: { type: 'StakeableLockOut', locktime: 1n, output: transferUtxo.output as never } })
    expectThrows(() => decodeUtxo('X', lock), DecodeError, "couldn't unmarshal interface: unknown type ID 22")
  })
})

describe('utxo ids', () => {
  it('InputID = sha256(u64 outputIndex ‖ txID), as avalanchejs UTXOID.ID()', () => {
    for (const index of [0, 1, 7, 0xffffffff]) {
      const expected = avaxSerial.UTXOID.fromNative(idToString(TX), index).ID()
      expect(idToString(utxoId(TX, index))).toBe(expected)
      expect(idToString(utxoKey({ txId: TX, outputIndex: index }))).toBe(expected)
    }
    expect(idToString(utxoId(new Uint8Array(32), 3))).toBe('Zda4gsqTjRaX6XVZekVNi3ovMFPHDRQiGbzYuAb7Nwqy1rGBc')
    expect(formatUtxoId(new Uint8Array(32), 3)).toBe('11111111111111111111111111111111LpoYY:3')
  })
})

describe('which UTXOs a tx produces', () => {
  const base = {
    networkId: 1,
    blockchainId: new Uint8Array(32),
    outputs: [{ assetId: AVAX, output: { type: 'TransferOutput' as const, amount: 1n, owners } }],
    inputs: [],
    memo: new Uint8Array(),
  }

  it('numbers CreateAssetTx initial states after Outs with the tx id as asset', () => {
    const tx: UnsignedTx = {
      type: 'CreateAssetTx',
      base,
      name: 'n',
      symbol: 'S',
      denomination: 0,
      initialStates: [{ fxIndex: 0, outputs: [{ type: 'TransferOutput', amount: 5n, owners }, { type: 'MintOutput', owners }] }],
    }
    const utxos = producedUtxos(TX, tx)
    expect(utxos.map((u) => [u.outputIndex, hex(u.assetId), u.output.type])).toEqual([
      [0, hex(AVAX), 'TransferOutput'],
      [1, hex(TX), 'TransferOutput'],
      [2, hex(TX), 'MintOutput'],
    ])
  })

  it('numbers exported outputs after Outs, and stake / reward after Outs', () => {
    const exp: ExportTx = { type: 'ExportTx', base, destinationChain: bytes32('c'), exportedOutputs: [base.outputs[0]!, base.outputs[0]!] }
    expect(exportedUtxos(TX, exp).map((u) => u.outputIndex)).toEqual([1, 2])
    expect(producedUtxos(TX, exp).map((u) => u.outputIndex)).toEqual([0])
    const staker = {
      type: 'AddPermissionlessDelegatorTx' as const,
      base,
      validator: { nodeId: A1, start: 0n, end: 1n, weight: 1n },
      subnetId: new Uint8Array(32),
      stakeOuts: [base.outputs[0]!, base.outputs[0]!],
      delegatorRewardsOwner: owners,
    }
    expect(stakeUtxos(TX, staker).map((u) => u.outputIndex)).toEqual([1, 2])
    expect(rewardUtxoIndex(staker)).toBe(3)
  })
})
