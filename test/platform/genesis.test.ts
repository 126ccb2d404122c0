/**
 * The network genesis as avalanchego's `genesis.FromConfig` builds it from genesis_local.json:
 * the X- and C-Chain CreateChainTxs hash to the real chain ids, the X genesis asset to the real
 * AVAX id, the P-Chain UTXOs and initial stakers are laid out as the real ones.
 */
import { describe, expect, it } from 'vitest'
import { formatAddress } from '../../src/core/address.js'
import { cb58Decode } from '../../src/core/cb58.js'
import { bytesToHex } from '../../src/core/hex.js'
import { EMPTY_ID, idToString } from '../../src/core/ids.js'
import { NETWORK_PRESETS, type NetworkPresetName } from '../../src/core/presets.js'
import { encodeSignedTx, txId } from '../../src/platform/codec.js'
import { avaxAssetIdOf, avaxGenesisAsset, avmGenesisBytes } from '../../src/platform/genesis/avm.js'
import { EWOQ_ADDRESS, EWOQ_PRIVATE_KEY, GENESIS_CONFIGS, VMRQ_ADDRESS, initialSupplyOf, withStakerCount } from '../../src/platform/genesis/config.js'
import { buildPlatformGenesis, splitAllocations, type GenesisStaker } from '../../src/platform/genesis/platform.js'
import { addressFromPrivateKey } from '../../src/platform/secp256k1fx.js'
import type { PChainSignedTx } from '../../src/platform/txs.js'
import { pubKeyToEthAddress } from '../../src/platform/xchain/bytes.js'
import { publicKeyOf } from '../../src/platform/secp256k1fx.js'

const AVAX = 1_000_000_000n
const START = 1_721_016_000 // genesis_local.json's startTime

function genesisOf(preset: NetworkPresetName, stakers: GenesisStaker[] = [], timestamp = START) {
  const { networkId, avaxAssetId } = NETWORK_PRESETS[preset]
  const config = withStakerCount(GENESIS_CONFIGS[preset], Math.max(stakers.length, 1))
  const asset = avaxGenesisAsset(networkId, config)
  const platform = buildPlatformGenesis({ networkId, avaxAssetId: cb58Decode(avaxAssetId, 32), config, stakers, timestamp, initialSupply: initialSupplyOf(config), xChainGenesis: avmGenesisBytes(asset) })
  return { asset, config, platform }
}

/** Stakers with made-up keys: the layout does not check them (avalanchejs does, in the HTTP tests). */
const stakers = (n: number): GenesisStaker[] =>
  Array.from({ length: n }, (_, i) => ({ nodeId: new Uint8Array(20).fill(i + 1), blsPublicKey: new Uint8Array(48).fill(i + 1), proofOfPossession: new Uint8Array(96).fill(i + 1) }))

describe('genesis_local.json', () => {
  it('the X-Chain genesis asset is AVAX with the real id; the X- and C-Chain CreateChainTxs hash to the real chain ids', () => {
    const { asset, platform } = genesisOf('local')
    const local = NETWORK_PRESETS.local
    expect(idToString(avaxAssetIdOf(asset))).toBe(local.avaxAssetId)
    const [x, c] = platform.chains.map((tx) => txId(encodeSignedTx('P', tx)))
    expect(x).toBe(local.xChainId)
    expect(c).toBe(local.cChainId)
    // fuji's and mainnet's C-Chain genesis texts are the real ones too.
    for (const preset of ['fuji', 'mainnet'] as const) expect(txId(encodeSignedTx('P', genesisOf(preset).platform.chains[1]!))).toBe(NETWORK_PRESETS[preset].cChainId)
  })

  it('ewoq: the key, its X/P and C addresses', () => {
    expect(bytesToHex(cb58Decode('ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN'))).toBe(bytesToHex(EWOQ_PRIVATE_KEY))
    expect(addressFromPrivateKey(EWOQ_PRIVATE_KEY)).toEqual(EWOQ_ADDRESS)
    expect(formatAddress('X', 'local', EWOQ_ADDRESS)).toBe('X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u')
    expect(bytesToHex(pubKeyToEthAddress(publicKeyOf(EWOQ_PRIVATE_KEY)))).toBe('0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc')
  })

  it('P-Chain UTXOs: ewoq\'s 20M and 10M and X-local1ur873…\'s 10M AVAX, empty tx id, outputs 0–2; locked while the genesis is before their locktime', () => {
    const { platform } = genesisOf('local', stakers(5))
    const shown = (t: number) => genesisOf('local', stakers(5), t).platform.utxos.map(({ utxo }) => [idToString(utxo.txId), utxo.outputIndex, utxo.output.type, utxo.output.type === 'StakeableLockOut' ? utxo.output.output.amount : utxo.output.type === 'TransferOutput' ? utxo.output.amount : 0n])
    expect(shown(START)).toEqual([
      [EMPTY_ID, 0, 'TransferOutput', 20_000_000n * AVAX],
      [EMPTY_ID, 1, 'TransferOutput', 10_000_000n * AVAX],
      [EMPTY_ID, 2, 'TransferOutput', 10_000_000n * AVAX],
    ])
    expect(platform.utxos[0]!.utxo.output).toMatchObject({ owners: { addrs: [EWOQ_ADDRESS] } })
    // Before 2021-10-10 the 10M amounts could only be staked.
    expect(shown(1_600_000_000).map((u) => u[2])).toEqual(['TransferOutput', 'StakeableLockOut', 'StakeableLockOut'])
    expect(initialSupplyOf(GENESIS_CONFIGS.local)).toBe(360_000_000n * AVAX)
  })

  it('initial stakers: 2,000,000 AVAX of the staked funds each, ending 5,400 s apart, listed by end time, rewards to ewoq', () => {
    const { platform } = genesisOf('local', stakers(5))
    const txs = platform.validators.map((tx) => tx.unsigned as Extract<PChainSignedTx['unsigned'], { type: 'AddPermissionlessValidatorTx' }>)
    expect(txs.map((u) => u.validator.nodeId[0])).toEqual([5, 4, 3, 2, 1])
    expect(txs.map((u) => Number(u.validator.end) - START)).toEqual([0, 1, 2, 3, 4].map((i) => 31_536_000 - (4 - i) * 5_400))
    expect(txs.map((u) => u.delegationShares)).toEqual([62_500, 125_000, 250_000, 500_000, 1_000_000])
    for (const u of txs) {
      expect(u.validator.weight).toBe(2_000_000n * AVAX)
      expect(u.stakeOuts).toEqual([{ assetId: expect.any(Uint8Array), output: { type: 'TransferOutput', amount: 2_000_000n * AVAX, owners: { locktime: 0n, threshold: 1, addrs: [VMRQ_ADDRESS] } } }])
      expect(u.validatorRewardsOwner).toEqual({ locktime: 0n, threshold: 1, addrs: [EWOQ_ADDRESS] })
      expect(u.signer.type).toBe('ProofOfPossession')
    }
  })

  it('another node count: each staker still stakes 2,000,000 AVAX, the supply follows', () => {
    for (const n of [1, 3, 7]) {
      const { config, platform } = genesisOf('local', stakers(n))
      expect(platform.validators.map((tx) => (tx.unsigned as { validator: { weight: bigint } }).validator.weight)).toEqual(Array(n).fill(2_000_000n * AVAX))
      expect(initialSupplyOf(config)).toBe(350_000_000n * AVAX + BigInt(n) * 2_000_000n * AVAX)
    }
  })

  it('splitAllocations cuts unlocks across stakers as Go does, the last taking the remainder', () => {
    const a = { ethAddr: new Uint8Array(20), avaxAddr: VMRQ_ADDRESS, initialAmount: 0n, unlockSchedule: [{ amount: 6n, locktime: 1n }, { amount: 4n, locktime: 2n }] }
    const split = (n: number) => splitAllocations([a], n).map((node) => node.flatMap((x) => x.unlockSchedule.map((u) => `${u.amount}@${u.locktime}`)))
    // A run that ends exactly at an unlock's start still takes a 0-amount piece of it (Go's loop does).
    expect(split(3)).toEqual([['3@1'], ['3@1', '0@2'], ['4@2']])
    expect(split(2)).toEqual([['5@1'], ['1@1', '4@2']])
    expect(split(1)).toEqual([['6@1', '4@2']])
  })
})
