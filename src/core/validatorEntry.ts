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
}
