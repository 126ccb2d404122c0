import type { Dimensions } from './config.js'
import type { AvaxBaseTx, Input, OutputOwners, PChainUnsignedTx, Signer, TransferableInput, TransferableOutput } from '../txs.js'
import { parseMessage, bitSetCount } from '../../evm/warp/codec.js'

/**
 * Etna's dynamic fee (vms/platformvm/txs/fee/complexity.go + dynamic_calculator.go): a tx's
 * complexity in four dimensions (bandwidth, db reads, db writes, compute), computed from its
 * structure, dotted with the network's weights to give gas, times the gas price derived from
 * the fee state's excess.
 */
type Dim = [bigint, bigint, bigint, bigint]
const add = (...ds: Dim[]): Dim => ds.reduce((a, d) => [a[0] + d[0], a[1] + d[1], a[2] + d[2], a[3] + d[3]], [0n, 0n, 0n, 0n] as Dim)

const ID = 32n, NODE_ID = 20n, SHORT = 20n, LONG = 8n, INT = 4n, SHORT_LEN = 2n, VERSION = 2n
const SIG_LEN = 65n, BLS_PK = 48n, BLS_SIG = 96n
const validatorBw = NODE_ID + LONG + LONG + LONG
const outputBw = ID + INT
const lockedOutBw = LONG + INT
const ownersBw = LONG + INT + INT
const secpOutBw = LONG + ownersBw
const inputBw = ID + INT + ID + INT + INT
const lockedInBw = LONG + INT
const secpInBw = INT + INT
const secpTransferInBw = LONG + secpInBw
const sigBw = INT + SIG_LEN
const sigCompute = 200n
const convertValidatorBw = INT + LONG + LONG + INT + INT + INT + INT
const blsAggregate = 5n, blsVerify = 1000n, blsPkValidation = 50n
const popVerify = blsPkValidation + blsVerify
const warpDbReads = 23n
const popBw = BLS_PK + BLS_SIG

const baseIntrinsic: Dim = [VERSION + INT + INT + ID + INT + INT + INT + INT, 0n, 0n, 0n]

const intrinsic: Partial<Record<PChainUnsignedTx['type'], Dim>> = {
  AddSubnetValidatorTx: [baseIntrinsic[0] + validatorBw + ID + INT + INT, 3n, 3n, 0n],
  CreateChainTx: [baseIntrinsic[0] + ID + SHORT_LEN + ID + INT + INT + INT + INT, 3n, 1n, 0n],
  CreateSubnetTx: [baseIntrinsic[0] + INT, 0n, 1n, 0n],
  ImportTx: [baseIntrinsic[0] + ID + INT, 0n, 0n, 0n],
  ExportTx: [baseIntrinsic[0] + ID + INT, 0n, 0n, 0n],
  RemoveSubnetValidatorTx: [baseIntrinsic[0] + NODE_ID + ID + INT + INT, 1n, 3n, 0n],
  AddPermissionlessValidatorTx: [baseIntrinsic[0] + validatorBw + ID + INT * 5n, 1n, 3n, 0n],
  AddPermissionlessDelegatorTx: [baseIntrinsic[0] + validatorBw + ID + INT + INT, 1n, 2n, 0n],
  TransferSubnetOwnershipTx: [baseIntrinsic[0] + ID + INT * 3n, 1n, 1n, 0n],
  BaseTx: baseIntrinsic,
  ConvertSubnetToL1Tx: [baseIntrinsic[0] + ID + ID + INT * 4n, 3n, 2n, 0n],
  RegisterL1ValidatorTx: [baseIntrinsic[0] + LONG + BLS_SIG + INT, 5n, 6n, popVerify],
  SetL1ValidatorWeightTx: [baseIntrinsic[0] + INT, 3n, 5n, 0n],
  IncreaseL1ValidatorBalanceTx: [baseIntrinsic[0] + ID + LONG, 1n, 5n, 0n],
  DisableL1ValidatorTx: [baseIntrinsic[0] + ID + INT + INT, 1n, 6n, 0n],
}

function outputsC(outs: TransferableOutput[]): Dim {
  return add(...outs.map((o): Dim => {
    let bw = outputBw + secpOutBw
    let inner = o.output
    if (inner.type === 'StakeableLockOut') { bw += lockedOutBw; inner = inner.output }
    return [bw + BigInt(inner.owners.addrs.length) * SHORT, 0n, 1n, 0n]
  }))
}
function inputsC(ins: TransferableInput[]): Dim {
  return add(...ins.map((i): Dim => {
    let bw = inputBw + secpTransferInBw
    let inner = i.input
    if (inner.type === 'StakeableLockIn') { bw += lockedInBw; inner = inner.input }
    const n = BigInt(inner.sigIndices.length)
    return [bw + n * sigBw, 1n, 1n, n * sigCompute]
  }))
}
const ownerC = (o: { addrs: unknown[] }): Dim => [BigInt(o.addrs.length) * SHORT + ownersBw, 0n, 0n, 0n]
const authC = (a: Input): Dim => [BigInt(a.sigIndices.length) * sigBw + secpInBw, 0n, 0n, BigInt(a.sigIndices.length) * sigCompute]
const signerC = (s: Signer): Dim => (s.type === 'Empty' ? [0n, 0n, 0n, 0n] : [popBw, 0n, 0n, popVerify])
function warpC(message: Uint8Array): Dim {
  let signers = 0n
  try { signers = BigInt(bitSetCount(parseMessage(message).signature.signers)) } catch { /* unparsable: the executor refuses it */ }
  return [BigInt(message.length), warpDbReads, 0n, signers * blsAggregate + blsVerify]
}
const baseC = (b: AvaxBaseTx): Dim => add(outputsC(b.outputs), inputsC(b.inputs), [BigInt(b.memo.length), 0n, 0n, 0n])

/** `fee.TxComplexity`; undefined for txs without a dynamic fee (AddValidator/AddDelegator/reward/transform). */
export function txComplexity(tx: PChainUnsignedTx): Dim | undefined {
  const base = intrinsic[tx.type]
  if (!base) return undefined
  const b = 'base' in tx ? baseC(tx.base) : ([0n, 0n, 0n, 0n] as Dim)
  switch (tx.type) {
    case 'AddSubnetValidatorTx': case 'RemoveSubnetValidatorTx': return add(base, b, authC(tx.subnetAuth))
    case 'CreateChainTx': return add(base, b, authC(tx.subnetAuth), [BigInt(tx.fxIds.length) * ID + BigInt(new TextEncoder().encode(tx.chainName).length) + BigInt(tx.genesisData.length), 0n, 0n, 0n])
    case 'CreateSubnetTx': return add(base, b, ownerC(tx.owner))
    case 'ImportTx': return add(base, b, inputsC(tx.importedInputs))
    case 'ExportTx': return add(base, b, outputsC(tx.exportedOutputs))
    case 'AddPermissionlessValidatorTx': return add(base, b, signerC(tx.signer), outputsC(tx.stakeOuts), ownerC(tx.validatorRewardsOwner), ownerC(tx.delegatorRewardsOwner))
    case 'AddPermissionlessDelegatorTx': return add(base, b, ownerC(tx.delegatorRewardsOwner), outputsC(tx.stakeOuts))
    case 'TransferSubnetOwnershipTx': return add(base, b, authC(tx.subnetAuth), ownerC(tx.owner))
    case 'BaseTx': return add(base, b)
    case 'ConvertSubnetToL1Tx':
      return add(base, b, authC(tx.subnetAuth), [BigInt(tx.address.length), 0n, 0n, 0n], ...tx.validators.map((v): Dim =>
        add([convertValidatorBw + BigInt(v.nodeId.length) + BigInt(v.remainingBalanceOwner.addrs.length + v.deactivationOwner.addrs.length) * SHORT, 0n, 4n, 0n], [popBw, 0n, 0n, popVerify])))
    case 'RegisterL1ValidatorTx': case 'SetL1ValidatorWeightTx': return add(base, b, warpC(tx.message))
    case 'IncreaseL1ValidatorBalanceTx': return add(base, b)
    case 'DisableL1ValidatorTx': return add(base, b, authC(tx.disableAuth))
    default: return undefined
  }
}

/** `Dimensions.ToGas(weights)`. */
export function toGas(c: Dim, w: Dimensions): bigint {
  return c[0] * w[0] + c[1] * w[1] + c[2] * w[2] + c[3] * w[3]
}

export type { OutputOwners }
