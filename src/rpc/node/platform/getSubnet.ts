import { EMPTY_ID, PRIMARY_NETWORK_ID } from '../../../core/ids.js'
import { cb58Id, objectParams } from '../params.js'
import { NodeRpcError, defineNodeMethod } from '../types.js'
import { formatLocal, hexnc } from './common.js'
import type { PlatformContext } from './context.js'

/** `GetSubnetResponse`, in Go's field order. */
export type GetSubnetResult = {
  isPermissioned: boolean
  controlKeys: string[]
  threshold: string
  locktime: string
  subnetTransformationTxID: string
  conversionID: string
  managerChainID: string
  /** hexnc of the manager address; null before conversion. */
  managerAddress: string | null
}

/**
 * `platform.getSubnet({subnetID})`: owner (control keys, threshold, locktime), and the L1
 * conversion once converted (then `isPermissioned` is false). The primary network fails
 * `the primary network isn't a subnet`; an unknown subnet `not found`.
 */
export const getSubnet = defineNodeMethod(objectParams({ subnetID: cb58Id }), ({ subnetID }, ctx: PlatformContext): GetSubnetResult => {
  if (subnetID === PRIMARY_NETWORK_ID) throw new NodeRpcError("the primary network isn't a subnet")
  const subnet = ctx.pchain.state.getSubnet(subnetID)
  if (!subnet) throw new NodeRpcError('not found')
  const conversion = subnet.conversion
  return {
    isPermissioned: conversion === undefined,
    controlKeys: subnet.owner.addrs.map((a) => formatLocal(ctx, a)),
    threshold: String(subnet.owner.threshold),
    locktime: String(subnet.owner.locktime),
    subnetTransformationTxID: EMPTY_ID,
    conversionID: conversion?.conversionId ?? EMPTY_ID,
    managerChainID: conversion?.chainId ?? EMPTY_ID,
    managerAddress: conversion ? hexnc(addressBytes(conversion.address)) : null,
  }
})

/** The stored manager address: hex (0x…) of its bytes. */
function addressBytes(address: string): Uint8Array {
  return Uint8Array.from(Buffer.from(address.replace(/^0x/, ''), 'hex'))
}
