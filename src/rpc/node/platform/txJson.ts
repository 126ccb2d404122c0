/**
 * `json.Marshal` of a platformvm `txs.Tx` after `InitCtx` (fx ids set, owners' addresses written
 * as `P-…`), as `platform.getTx` returns it with `encoding: "json"`: field names and order from
 * the structs' json tags, embedded structs flattened, uint64/uint32 as bare numbers (bigints
 * here, which the node encoder writes bare), `types.JSONByteSlice` and signatures as hexnc, a
 * plain `[]byte` (genesis data) as base64, a `[96]byte` (RegisterL1ValidatorTx's proof of
 * possession) as an array of numbers, `message.PChainOwner` addresses as cb58 short ids.
 */
import { formatAddress, hrpForNetworkId } from '../../../core/address.js'
import { cb58Encode } from '../../../core/cb58.js'
import { idToString, nodeIdToString } from '../../../core/ids.js'
import { SECP256K1FX_ID } from '../../../platform/xchain/api.js'
import type {
  AvaxBaseTx,
  Input,
  OutputOwners,
  PChainOwner,
  PChainSignedTx,
  PChainUnsignedTx,
  Signer,
  TransferableInput,
  TransferableOutput,
  Validator,
} from '../../../platform/txs.js'
import { hexnc } from './common.js'

type Json = Record<string, unknown>

export function platformTxJson(networkId: number, signed: PChainSignedTx, txId: string): Json {
  const hrp = hrpForNetworkId(networkId)
  const addr = (a: Uint8Array) => formatAddress('P', hrp, a)
  // OutputOwners.MarshalJSON writes a map: keys sorted.
  const owners = (o: OutputOwners): Json => ({ addresses: o.addrs.map(addr), locktime: o.locktime, threshold: o.threshold })
  const transferOut = (amount: bigint, o: OutputOwners): Json => ({ addresses: o.addrs.map(addr), amount, locktime: o.locktime, threshold: o.threshold })
  const output = (out: TransferableOutput['output']): Json =>
    out.type === 'TransferOutput'
      ? transferOut(out.amount, out.owners)
      : { locktime: out.locktime, output: transferOut(out.output.amount, out.output.owners) }
  const outJson = (o: TransferableOutput): Json => ({ assetID: idToString(o.assetId), fxID: SECP256K1FX_ID, output: output(o.output) })
  const inJson = (i: TransferableInput): Json => ({
    txID: idToString(i.txId),
    outputIndex: i.outputIndex,
    assetID: idToString(i.assetId),
    fxID: SECP256K1FX_ID,
    input:
      i.input.type === 'TransferInput'
        ? { amount: i.input.amount, signatureIndices: i.input.sigIndices }
        : { locktime: i.input.locktime, input: { amount: i.input.input.amount, signatureIndices: i.input.input.sigIndices } },
  })
  const auth = (a: Input): Json => ({ signatureIndices: a.sigIndices })
  const validator = (v: Validator): Json => ({ nodeID: nodeIdToString(v.nodeId), start: v.start, end: v.end, weight: v.weight })
  const signer = (s: Signer): Json => (s.type === 'Empty' ? {} : { publicKey: hexnc(s.publicKey), proofOfPossession: hexnc(s.signature) })
  const pchainOwner = (o: PChainOwner): Json => ({ threshold: o.threshold, addresses: o.addrs.map((a) => cb58Encode(a)) })
  const base = (b: AvaxBaseTx): Json => ({
    networkID: b.networkId,
    blockchainID: idToString(b.blockchainId),
    outputs: b.outputs.map(outJson),
    inputs: b.inputs.map(inJson),
    memo: hexnc(b.memo),
  })

  return {
    unsignedTx: unsignedJson(signed.unsigned),
    credentials: signed.credentials.map((c) => ({ signatures: c.sigs.map(hexnc) })),
    id: txId,
  }

  function unsignedJson(tx: PChainUnsignedTx): Json {
    switch (tx.type) {
      case 'BaseTx':
        return base(tx.base)
      case 'AddValidatorTx':
        return { ...base(tx.base), validator: validator(tx.validator), stake: tx.stakeOuts.map(outJson), rewardsOwner: owners(tx.rewardsOwner), shares: tx.delegationShares }
      case 'AddSubnetValidatorTx':
        return { ...base(tx.base), validator: { ...validator(tx.validator), subnetID: idToString(tx.subnetId) }, subnetAuthorization: auth(tx.subnetAuth) }
      case 'AddDelegatorTx':
        return { ...base(tx.base), validator: validator(tx.validator), stake: tx.stakeOuts.map(outJson), rewardsOwner: owners(tx.rewardsOwner) }
      case 'CreateChainTx':
        return {
          ...base(tx.base),
          subnetID: idToString(tx.subnetId),
          chainName: tx.chainName,
          vmID: idToString(tx.vmId),
          fxIDs: tx.fxIds.map(idToString),
          genesisData: Buffer.from(tx.genesisData).toString('base64'),
          subnetAuthorization: auth(tx.subnetAuth),
        }
      case 'CreateSubnetTx':
        return { ...base(tx.base), owner: owners(tx.owner) }
      case 'ImportTx':
        return { ...base(tx.base), sourceChain: idToString(tx.sourceChain), importedInputs: tx.importedInputs.map(inJson) }
      case 'ExportTx':
        return { ...base(tx.base), destinationChain: idToString(tx.destinationChain), exportedOutputs: tx.exportedOutputs.map(outJson) }
      case 'AdvanceTimeTx':
        return { time: tx.time }
      case 'RewardValidatorTx':
        return { txID: idToString(tx.txId) }
      case 'RemoveSubnetValidatorTx':
        return { ...base(tx.base), nodeID: nodeIdToString(tx.nodeId), subnetID: idToString(tx.subnetId), subnetAuthorization: auth(tx.subnetAuth) }
      case 'TransformSubnetTx':
        return {
          ...base(tx.base),
          subnetID: idToString(tx.subnetId),
          assetID: idToString(tx.assetId),
          initialSupply: tx.initialSupply,
          maximumSupply: tx.maximumSupply,
          minConsumptionRate: tx.minConsumptionRate,
          maxConsumptionRate: tx.maxConsumptionRate,
          minValidatorStake: tx.minValidatorStake,
          maxValidatorStake: tx.maxValidatorStake,
          minStakeDuration: tx.minStakeDuration,
          maxStakeDuration: tx.maxStakeDuration,
          minDelegationFee: tx.minDelegationFee,
          minDelegatorStake: tx.minDelegatorStake,
          maxValidatorWeightFactor: tx.maxValidatorWeightFactor,
          uptimeRequirement: tx.uptimeRequirement,
          subnetAuthorization: auth(tx.subnetAuth),
        }
      case 'AddPermissionlessValidatorTx':
        return {
          ...base(tx.base),
          validator: validator(tx.validator),
          subnetID: idToString(tx.subnetId),
          signer: signer(tx.signer),
          stake: tx.stakeOuts.map(outJson),
          validationRewardsOwner: owners(tx.validatorRewardsOwner),
          delegationRewardsOwner: owners(tx.delegatorRewardsOwner),
          shares: tx.delegationShares,
        }
      case 'AddPermissionlessDelegatorTx':
        return { ...base(tx.base), validator: validator(tx.validator), subnetID: idToString(tx.subnetId), stake: tx.stakeOuts.map(outJson), rewardsOwner: owners(tx.delegatorRewardsOwner) }
      case 'TransferSubnetOwnershipTx':
        return { ...base(tx.base), subnetID: idToString(tx.subnetId), subnetAuthorization: auth(tx.subnetAuth), newOwner: owners(tx.owner) }
      case 'ConvertSubnetToL1Tx':
        return {
          ...base(tx.base),
          subnetID: idToString(tx.subnetId),
          chainID: idToString(tx.chainId),
          address: hexnc(tx.address),
          validators: tx.validators.map((v) => ({
            nodeID: hexnc(v.nodeId),
            weight: v.weight,
            balance: v.balance,
            signer: { publicKey: hexnc(v.signer.publicKey), proofOfPossession: hexnc(v.signer.signature) },
            remainingBalanceOwner: pchainOwner(v.remainingBalanceOwner),
            deactivationOwner: pchainOwner(v.deactivationOwner),
          })),
          subnetAuthorization: auth(tx.subnetAuth),
        }
      case 'RegisterL1ValidatorTx':
        return { ...base(tx.base), balance: tx.balance, proofOfPossession: [...tx.proofOfPossession], message: hexnc(tx.message) }
      case 'SetL1ValidatorWeightTx':
        return { ...base(tx.base), message: hexnc(tx.message) }
      case 'IncreaseL1ValidatorBalanceTx':
        return { ...base(tx.base), validationID: idToString(tx.validationId), balance: tx.balance }
      case 'DisableL1ValidatorTx':
        return { ...base(tx.base), validationID: idToString(tx.validationId), disableAuthorization: auth(tx.disableAuth) }
    }
  }
}
