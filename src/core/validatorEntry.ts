/** One validator of a subnet or L1, as warp verification and the validators API read it. */
export type ValidatorEntry = {
  nodeId: string
  weight: bigint
  /** Compressed G1 BLS public key (48 bytes); undefined for a validator registered without one. */
  blsPublicKey: Uint8Array | undefined
  /** Unix seconds at which it started validating. */
  startTime: bigint
  /** `validationID` of an L1 validator (cb58); undefined for a subnet / primary validator. */
  validationId?: string
  /**
   * `false` for an L1 validator whose balance ran out (ACP-77 "inactive"): still a current
   * validator with its weight, which the P-chain's and subnet-EVM's APIs list (`isActive: false`),
   * but outside the set that signs and is counted for connected stake. Absent means active.
   */
  isActive?: false
}
