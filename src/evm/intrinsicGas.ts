/**
 * Intrinsic gas of a message (Istanbul calldata pricing, Shanghai initcode words, Berlin
 * access lists): what a call is charged before its first opcode. Used to give eth_call the same
 * execution gas a transaction with that gas limit would have.
 */
export function intrinsicGas(options: {
  data: Uint8Array
  isCreate: boolean
  accessList?: { address: unknown; storageKeys: unknown[] }[]
}): bigint {
  let gas = 21_000n
  let zero = 0n
  for (const b of options.data) if (b === 0) zero++
  gas += zero * 4n + (BigInt(options.data.length) - zero) * 16n
  if (options.isCreate) gas += 32_000n + 2n * ((BigInt(options.data.length) + 31n) / 32n)
  for (const entry of options.accessList ?? []) gas += 2_400n + 1_900n * BigInt(entry.storageKeys.length)
  return gas
}
