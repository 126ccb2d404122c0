import { sha256 } from '@noble/hashes/sha2.js'
import { describe, expect, it } from 'vitest'
import { cb58Encode } from '../../src/core/cb58.js'
import { DecodeError, InvalidArgumentError } from '../../src/core/errors.js'
import { bytesToHex } from '../../src/core/hex.js'
import {
  P_TYPE_IDS,
  X_TYPE_IDS,
  decodeSignedTx,
  decodeUnsignedTx,
  encodeSignedTx,
  encodeUnsignedTx,
  txId,
  unsignedBytesOf,
} from '../../src/platform/codec.js'
import { addressFromPrivateKey, sign } from '../../src/platform/secp256k1fx.js'
import type {
  AvaxBaseTx,
  Chain,
  OutputOwners,
  PChainUnsignedTx,
  SignedTx,
  TransferableInput,
  TransferableOutput,
  UnsignedTx,
  XChainUnsignedTx,
} from '../../src/platform/txs.js'
import { expectThrows } from '../helpers/expectThrows.js'
import { ajs, ajsSignedBytes, ajsUnsignedBytes, blsFixture, bytes20, bytes32 } from './fixtures/ajs.js'

const { utils } = ajs

const hex = (b: Uint8Array) => bytesToHex(b)

const KEY1 = bytes32('key1')
const KEY2 = bytes32('key2')
const ADDR1 = addressFromPrivateKey(KEY1)
const ADDR2 = addressFromPrivateKey(KEY2)
const [LO, HI] = Buffer.compare(ADDR1, ADDR2) < 0 ? [ADDR1, ADDR2] : [ADDR2, ADDR1]
const AVAX = bytes32('avax asset')
const X_CHAIN = bytes32('x chain')
const C_CHAIN = bytes32('c chain')
const P_CHAIN = new Uint8Array(32)
const NODE = bytes20('node')
const SUBNET = bytes32('subnet')

const owners1: OutputOwners = { locktime: 0n, threshold: 1, addrs: [ADDR1] }
const owners2: OutputOwners = { locktime: 1_700_000_000n, threshold: 2, addrs: [LO, HI] }

const out = (amount: bigint, o: OutputOwners = owners1): TransferableOutput => ({
  assetId: AVAX,
  output: { type: 'TransferOutput', amount, owners: o },
})

const inp = (label: string, idx: number, amount: bigint, sigIndices = [0]): TransferableInput => ({
  txId: bytes32(label),
  outputIndex: idx,
  assetId: AVAX,
  input: { type: 'TransferInput', amount, sigIndices },
})

function base(chain: Chain, extra: Partial<AvaxBaseTx> = {}): AvaxBaseTx {
  return {
    networkId: 5,
    blockchainId: chain === 'P' ? P_CHAIN : X_CHAIN,
    outputs: [out(1_000_000n), out(42n, owners2)],
    inputs: [inp('utxo-a', 0, 2_000_000n), inp('utxo-b', 3, 5n, [0, 1])],
    memo: new TextEncoder().encode('l1sim'),
    ...extra,
  }
}

const stakeOuts: TransferableOutput[] = [
  out(2_000_000_000_000n),
  { assetId: AVAX, output: { type: 'StakeableLockOut', locktime: 1_800_000_000n, output: { type: 'TransferOutput', amount: 7n, owners: owners1 } } },
]
const validator = { nodeId: NODE, start: 1_700_000_000n, end: 1_701_209_600n, weight: 2_000_000_000_007n }
const pop = blsFixture('v1')
const pop2 = blsFixture('v2')

/** Every P-chain tx type with non-trivial values in every field. */
const P_TXS: PChainUnsignedTx[] = [
  {
    type: 'BaseTx',
    base: base('P', {
      inputs: [
        inp('utxo-a', 0, 2_000_000n),
        { txId: bytes32('locked'), outputIndex: 1, assetId: AVAX, input: { type: 'StakeableLockIn', locktime: 1_800_000_000n, input: { type: 'TransferInput', amount: 9n, sigIndices: [0] } } },
      ],
    }),
  },
  { type: 'AddValidatorTx', base: base('P'), validator, stakeOuts, rewardsOwner: owners2, delegationShares: 20_000 },
  { type: 'AddSubnetValidatorTx', base: base('P'), validator, subnetId: SUBNET, subnetAuth: { sigIndices: [0, 1] } },
  { type: 'AddDelegatorTx', base: base('P'), validator, stakeOuts, rewardsOwner: owners1 },
  {
    type: 'CreateChainTx',
    base: base('P'),
    subnetId: SUBNET,
    chainName: 'my chain',
    vmId: bytes32('vm'),
    fxIds: [bytes32('fx1'), bytes32('fx2')],
    genesisData: new TextEncoder().encode('{"config":{}}'),
    subnetAuth: { sigIndices: [0] },
  },
  { type: 'CreateSubnetTx', base: base('P'), owner: owners2 },
  { type: 'ImportTx', base: base('P', { inputs: [] }), sourceChain: X_CHAIN, importedInputs: [inp('exported', 2, 3_000_000n)] },
  { type: 'ExportTx', base: base('P'), destinationChain: C_CHAIN, exportedOutputs: [out(500n, owners2)] },
  { type: 'AdvanceTimeTx', time: 1_700_000_123n },
  { type: 'RewardValidatorTx', txId: bytes32('staker tx') },
  { type: 'RemoveSubnetValidatorTx', base: base('P'), nodeId: NODE, subnetId: SUBNET, subnetAuth: { sigIndices: [1] } },
  {
    type: 'TransformSubnetTx',
    base: base('P'),
    subnetId: SUBNET,
    assetId: bytes32('subnet asset'),
    initialSupply: 1_000n,
    maximumSupply: 2_000n,
    minConsumptionRate: 3n,
    maxConsumptionRate: 4n,
    minValidatorStake: 5n,
    maxValidatorStake: 6n,
    minStakeDuration: 7,
    maxStakeDuration: 8,
    minDelegationFee: 9,
    minDelegatorStake: 10n,
    maxValidatorWeightFactor: 11,
    uptimeRequirement: 12,
    subnetAuth: { sigIndices: [0] },
  },
  {
    type: 'AddPermissionlessValidatorTx',
    base: base('P'),
    validator,
    subnetId: P_CHAIN,
    signer: { type: 'ProofOfPossession', ...pop },
    stakeOuts,
    validatorRewardsOwner: owners1,
    delegatorRewardsOwner: owners2,
    delegationShares: 20_000,
  },
  {
    type: 'AddPermissionlessValidatorTx',
    base: base('P'),
    validator,
    subnetId: SUBNET,
    signer: { type: 'Empty' },
    stakeOuts,
    validatorRewardsOwner: owners2,
    delegatorRewardsOwner: owners1,
    delegationShares: 1_000_000,
  },
  { type: 'AddPermissionlessDelegatorTx', base: base('P'), validator, subnetId: P_CHAIN, stakeOuts, delegatorRewardsOwner: owners2 },
  { type: 'TransferSubnetOwnershipTx', base: base('P'), subnetId: SUBNET, subnetAuth: { sigIndices: [0] }, owner: owners2 },
  {
    type: 'ConvertSubnetToL1Tx',
    base: base('P'),
    subnetId: SUBNET,
    chainId: bytes32('l1 chain'),
    address: bytes20('manager'),
    validators: [
      {
        nodeId: bytes20('l1 node 1'),
        weight: 100n,
        balance: 1_000_000_000n,
        signer: pop,
        remainingBalanceOwner: { threshold: 1, addrs: [ADDR1] },
        deactivationOwner: { threshold: 2, addrs: [LO, HI] },
      },
      {
        nodeId: bytes20('l1 node 2'),
        weight: 200n,
        balance: 5n,
        signer: pop2,
        remainingBalanceOwner: { threshold: 0, addrs: [] },
        deactivationOwner: { threshold: 1, addrs: [ADDR2] },
      },
    ],
    subnetAuth: { sigIndices: [0] },
  },
  {
    type: 'RegisterL1ValidatorTx',
    base: base('P'),
    balance: 1_000_000_000n,
    proofOfPossession: pop.signature,
    message: new TextEncoder().encode('a signed warp message'),
  },
  { type: 'SetL1ValidatorWeightTx', base: base('P'), message: new TextEncoder().encode('weight message') },
  { type: 'IncreaseL1ValidatorBalanceTx', base: base('P'), validationId: bytes32('validation'), balance: 123_456n },
  { type: 'DisableL1ValidatorTx', base: base('P'), validationId: bytes32('validation'), disableAuth: { sigIndices: [0, 1] } },
]

const X_TXS: XChainUnsignedTx[] = [
  { type: 'BaseTx', base: base('X') },
  {
    type: 'CreateAssetTx',
    base: base('X'),
    name: 'Test Token',
    symbol: 'TT',
    denomination: 9,
    initialStates: [
      {
        fxIndex: 0,
        outputs: [
          { type: 'TransferOutput', amount: 1_000_000n, owners: owners1 },
          { type: 'MintOutput', owners: owners2 },
        ],
      },
    ],
  },
  { type: 'ImportTx', base: base('X', { inputs: [] }), sourceChain: P_CHAIN, importedInputs: [inp('from p', 1, 10n)] },
  { type: 'ExportTx', base: base('X'), destinationChain: P_CHAIN, exportedOutputs: [out(77n)] },
]

function signed<T extends UnsignedTx>(chain: Chain, unsigned: T): SignedTx<T> {
  const bytes = encodeUnsignedTx(chain, unsigned)
  return {
    unsigned,
    credentials: [{ sigs: [sign(bytes, KEY1)] }, { sigs: [sign(bytes, KEY1), sign(bytes, KEY2)] }],
  }
}

const label = (tx: UnsignedTx) =>
  tx.type === 'AddPermissionlessValidatorTx' ? `${tx.type} (${tx.signer.type} signer)` : tx.type

describe('P-chain codec matches @avalabs/avalanchejs 5.2.0', () => {
  for (const tx of P_TXS.filter((t) => t.type !== 'RewardValidatorTx')) {
    it(label(tx), () => {
      const unsigned = encodeUnsignedTx('P', tx)
      expect(hex(unsigned)).toBe(hex(ajsUnsignedBytes('P', tx)))
      const s = signed('P', tx)
      const bytes = encodeSignedTx('P', s)
      expect(hex(bytes)).toBe(hex(ajsSignedBytes('P', s)))
      // The tx id is sha256 of the signed bytes, in cb58.
      expect(txId(bytes)).toBe(cb58Encode(sha256(ajsSignedBytes('P', s))))
      expect(decodeSignedTx('P', bytes)).toEqual(s)
      expect(decodeUnsignedTx('P', unsigned)).toEqual(tx)
      expect(hex(unsignedBytesOf('P', bytes))).toBe(hex(unsigned))
      // avalanchejs parses our bytes to a tx that re-serializes identically.
      const parsed = utils.getManagerForVM('PVM').unpackTransaction(unsigned)
      expect(hex(utils.getManagerForVM('PVM').packCodec(parsed))).toBe(hex(unsigned))
    })
  }

  it('writes the type id registered in platformvm/txs/codec.go', () => {
    const ids = P_TXS.map((tx) => new DataView(encodeUnsignedTx('P', tx).buffer).getUint32(2))
    expect(ids).toEqual([34, 12, 13, 14, 15, 16, 17, 18, 19, 20, 23, 24, 25, 25, 26, 33, 35, 36, 37, 38, 39])
    expect(P_TYPE_IDS).toMatchObject({ TransferInput: 5, TransferOutput: 7, Credential: 9, Input: 10, OutputOwners: 11, StakeableLockIn: 21, StakeableLockOut: 22, EmptySigner: 27, ProofOfPossession: 28 })
  })

  it('RewardValidatorTx (not exported by avalanchejs 5.2.0: hand-assembled from the Go struct)', () => {
    const tx: PChainUnsignedTx = { type: 'RewardValidatorTx', txId: bytes32('staker tx') }
    const unsigned = encodeUnsignedTx('P', tx)
    expect(hex(unsigned)).toBe('0x0000' + '00000014' + hex(bytes32('staker tx')).slice(2))
    const bytes = encodeSignedTx('P', { unsigned: tx, credentials: [] })
    expect(hex(bytes)).toBe(hex(unsigned) + '00000000')
    expect(decodeSignedTx('P', bytes)).toEqual({ unsigned: tx, credentials: [] })
  })

  it('lays out a CreateSubnetTx byte by byte as the Go structs declare', () => {
    const tx: PChainUnsignedTx = {
      type: 'CreateSubnetTx',
      base: { networkId: 1, blockchainId: P_CHAIN, outputs: [], inputs: [], memo: new Uint8Array() },
      owner: { locktime: 0n, threshold: 1, addrs: [ADDR1] },
    }
    const expected =
      '0x0000' + // codec version
      '00000010' + // CreateSubnetTx
      '00000001' + '00'.repeat(32) + // network id, blockchain id
      '00000000' + '00000000' + '00000000' + // outs, ins, memo
      '0000000b' + '0000000000000000' + '00000001' + '00000001' + hex(ADDR1).slice(2) // fx.Owner
    expect(hex(encodeUnsignedTx('P', tx))).toBe(expected)
  })
})

describe('X-chain codec matches @avalabs/avalanchejs 5.2.0', () => {
  for (const tx of X_TXS) {
    it(tx.type, () => {
      const unsigned = encodeUnsignedTx('X', tx)
      expect(hex(unsigned)).toBe(hex(ajsUnsignedBytes('X', tx)))
      const s = signed('X', tx)
      const bytes = encodeSignedTx('X', s)
      expect(hex(bytes)).toBe(hex(ajsSignedBytes('X', s)))
      expect(decodeSignedTx('X', bytes)).toEqual(s)
    })
  }

  it('OperationTx (avalanchejs 5.2.0 does not export TransferableOp: it parses ours and re-serializes)', () => {
    const tx: XChainUnsignedTx = {
      type: 'OperationTx',
      base: base('X'),
      operations: [
        {
          assetId: bytes32('my asset'),
          utxoIds: [{ txId: bytes32('mint utxo'), outputIndex: 1 }],
          op: {
            type: 'MintOperation',
            mintInput: { sigIndices: [0] },
            mintOutput: { type: 'MintOutput', owners: owners1 },
            transferOutput: { type: 'TransferOutput', amount: 5_000n, owners: owners2 },
          },
        },
      ],
    }
    const s = signed('X', tx)
    const bytes = encodeSignedTx('X', s)
    const manager = utils.getManagerForVM('AVM')
    const unsigned = encodeUnsignedTx('X', tx)
    const parsed = manager.unpackTransaction(unsigned)
    expect(hex(manager.packCodec(parsed))).toBe(hex(unsigned))
    expect(decodeSignedTx('X', bytes)).toEqual(s)
    // Hand-assembled tail: ops count, asset, utxo ids, MintOperation (type 8), input, mint owners, transfer output.
    const tail =
      '00000001' + hex(bytes32('my asset')).slice(2) + '00000001' + hex(bytes32('mint utxo')).slice(2) + '00000001' +
      '00000008' + '00000001' + '00000000' +
      '0000000000000000' + '00000001' + '00000001' + hex(ADDR1).slice(2) +
      '0000000000001388' + '000000006553f100' + '00000002' + '00000002' + hex(LO).slice(2) + hex(HI).slice(2)
    expect(hex(unsigned).endsWith(tail)).toBe(true)
  })

  it('writes the avm type ids (txs 0–4, then secp256k1fx 5–9)', () => {
    const ids = X_TXS.map((tx) => new DataView(encodeUnsignedTx('X', tx).buffer).getUint32(2))
    expect(ids).toEqual([0, 1, 3, 4])
    expect(X_TYPE_IDS).toMatchObject({ OperationTx: 2, TransferInput: 5, MintOutput: 6, TransferOutput: 7, MintOperation: 8, Credential: 9 })
  })
})

describe('codec errors', () => {
  const good = encodeSignedTx('P', signed('P', P_TXS[0]!))

  it('refuses trailing bytes as Codec.Unmarshal does', () => {
    const bytes = new Uint8Array([...good, 0])
    expectThrows(() => decodeSignedTx('P', bytes), DecodeError, `trailing buffer space: read ${good.length} provided ${good.length + 1}`)
  })

  it('refuses truncated input', () => {
    expectThrows(() => decodeSignedTx('P', good.slice(0, good.length - 1)), DecodeError, 'packer has insufficient length for input')
    expectThrows(() => decodeSignedTx('P', new Uint8Array([0])), DecodeError, "couldn't unpack codec version")
  })

  it('refuses unknown codec versions and type ids', () => {
    const v1 = good.slice()
    v1[1] = 1
    expectThrows(() => decodeSignedTx('P', v1), DecodeError, 'unknown codec version')
    const t = good.slice()
    new DataView(t.buffer).setUint32(2, 6) // the skipped MintOutput slot
    expectThrows(() => decodeSignedTx('P', t), DecodeError, "couldn't unmarshal interface: unknown type ID 6")
    new DataView(t.buffer).setUint32(2, 7) // a TransferOutput where a tx is expected
    expectThrows(() => decodeSignedTx('P', t), DecodeError, "couldn't unmarshal interface: TransferOutput does not implement interface txs.UnsignedTx")
  })

  it('refuses to encode types the chain does not register and bad field sizes', () => {
    const lockOnX: XChainUnsignedTx = { type: 'BaseTx', base: base('X', { outputs: [stakeOuts[1]!] }) }
    expectThrows(() => encodeUnsignedTx('X', lockOnX), InvalidArgumentError, "can't marshal unregistered type StakeableLockOut on the X-chain")
    const badAddr: PChainUnsignedTx = { type: 'CreateSubnetTx', base: base('P'), owner: { locktime: 0n, threshold: 1, addrs: [new Uint8Array(19)] } }
    expectThrows(() => encodeUnsignedTx('P', badAddr), InvalidArgumentError, 'expected 20 bytes for an address but got 19')
    const negative: PChainUnsignedTx = { type: 'BaseTx', base: base('P', { outputs: [out(-1n)] }) }
    expectThrows(() => encodeUnsignedTx('P', negative), InvalidArgumentError, 'not a uint64: -1')
  })
})

describe("avalanchego's own test vector", () => {
  it('IncreaseL1ValidatorBalanceTx bytes from platformvm/txs/increase_l1_validator_balance_tx_test.go', () => {
    const expected =
      '0x' +
      '0000000000260000000a00000000000000000000000000000000000000000000000000000000000000000000000221e67317cbc4be2aeb00677ad6462778a8f5' +
      '2274b9d605df2591b23027a87dff000000160000000005397fb10000000700000000000000010000000000bc614e000000000000000099775577113355319977' +
      '557711335531997755771133553199775577113355310000001600000000343efcea00000007ffffffffffffffff000000000000000000000001000000014455' +
      '66778899aabb445566778899aabb4455667700000003ffeeddccbbaa9988ffeeddccbbaa9988ffeeddccbbaa9988ffeeddccbbaa99880000000121e67317cbc4' +
      'be2aeb00677ad6462778a8f52274b9d605df2591b23027a87dff00000005000000003b9aca00000000020000000200000005ffeeddccbbaa9988ffeeddccbbaa' +
      '9988ffeeddccbbaa9988ffeeddccbbaa99880000000299775577113355319977557711335531997755771133553199775577113355310000001500000000343e' +
      'fcea00000005efffffffffffffff0000000100000000ffeeddccbbaa9988ffeeddccbbaa9988ffeeddccbbaa9988ffeeddccbbaa998800000003997755771133' +
      '55319977557711335531997755771133553199775577113355310000000510000000000000000000000000000014f09f98850a77656c6c207468617427730123' +
      '45210123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdeffedcba9876543210'
    const rep = (pattern: number[], n: number) => Uint8Array.from({ length: n }, (_, i) => pattern[i % pattern.length]!)
    const avaxAssetId = Uint8Array.from(Buffer.from('21e67317cbc4be2aeb00677ad6462778a8f52274b9d605df2591b23027a87dff', 'hex'))
    const customAssetId = rep([0x99, 0x77, 0x55, 0x77, 0x11, 0x33, 0x55, 0x31], 32)
    const txIdValue = rep([0xff, 0xee, 0xdd, 0xcc, 0xbb, 0xaa, 0x99, 0x88], 32)
    const addr = rep([0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb], 20)
    const tx: PChainUnsignedTx = {
      type: 'IncreaseL1ValidatorBalanceTx',
      base: {
        networkId: 10,
        blockchainId: new Uint8Array(32),
        outputs: [
          { assetId: avaxAssetId, output: { type: 'StakeableLockOut', locktime: 87654321n, output: { type: 'TransferOutput', amount: 1n, owners: { locktime: 12345678n, threshold: 0, addrs: [] } } } },
          { assetId: customAssetId, output: { type: 'StakeableLockOut', locktime: 876543210n, output: { type: 'TransferOutput', amount: 0xffffffffffffffffn, owners: { locktime: 0n, threshold: 1, addrs: [addr] } } } },
        ],
        inputs: [
          { txId: txIdValue, outputIndex: 1, assetId: avaxAssetId, input: { type: 'TransferInput', amount: 1_000_000_000n, sigIndices: [2, 5] } },
          { txId: txIdValue, outputIndex: 2, assetId: customAssetId, input: { type: 'StakeableLockIn', locktime: 876543210n, input: { type: 'TransferInput', amount: 0xefffffffffffffffn, sigIndices: [0] } } },
          { txId: txIdValue, outputIndex: 3, assetId: customAssetId, input: { type: 'TransferInput', amount: 0x1000000000000000n, sigIndices: [] } },
        ],
        memo: new TextEncoder().encode("😅\nwell that's\x01\x23\x45!"),
      },
      validationId: rep([0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef], 32),
      balance: 0xfedcba9876543210n,
    }
    expect(hex(encodeUnsignedTx('P', tx))).toBe(expected)
    expect(decodeUnsignedTx('P', encodeUnsignedTx('P', tx))).toEqual(tx)
  })
})
