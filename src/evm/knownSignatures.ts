/**
 * Signatures and sender recoveries computed before the process started: what `l1sim start`'s
 * default scenario signs and recovers (three transactions), recorded by `npm run build` from
 * libsecp256k1 itself (`scripts/bundle-cli.mjs`, `dist/scenario/default.signatures.json`). Loading
 * libsecp256k1 builds its signing and verification tables (~8 ms, about a twentieth of a cold
 * start); with these results a start that runs the default scenario answers before loading it,
 * and the first transaction after it loads it (as after `l1sim start --no-scenario`).
 *
 * Each entry is the value of a pure function (RFC 6979 signing with low s, and public key
 * recovery) at the exact inputs it lists, so answering from it is answering as libsecp256k1 or
 * noble would: any other input is computed as before. The CLI installs the table around the
 * scenario's run only (see {@link rememberSecp256k1Results}); the library never does.
 */

/** As the build writes it: hex strings without `0x`. */
export type Secp256k1Results = {
  /** The message (32 bytes), the private key, libsecp256k1's 64-byte `r ‖ s` and recovery id. */
  signatures: [message: string, privateKey: string, signature: string, recid: number][]
  /** The 64-byte `r ‖ s`, the recovery id, the message, and the uncompressed (65-byte) public key. */
  recoveries: [signature: string, recid: number, message: string, publicKey: string][]
}

type Installed = { signed: Map<string, string>; recovered: Map<string, string> }

// Process-wide, as the binding it stands in for (src/core/native.ts): results of pure functions,
// not state; installed only while the CLI runs its default scenario.
let installed: Installed | undefined

const hex = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')
// A copy with its own buffer, as the binding returns (not a view of Buffer's shared pool).
const bytes = (text: string): Uint8Array<ArrayBuffer> => Uint8Array.from(Buffer.from(text, 'hex'))

/**
 * Answers {@link knownSignature} and {@link knownRecovery} from `results` until the returned
 * function is called. Malformed entries are skipped (they would only never match).
 */
export function rememberSecp256k1Results(results: Secp256k1Results): () => void {
  const table: Installed = { signed: new Map(), recovered: new Map() }
  const isHex = (value: unknown, length: number): value is string => typeof value === 'string' && value.length === length && /^[0-9a-f]*$/.test(value)
  const isRecid = (value: unknown): value is number => value === 0 || value === 1 || value === 2 || value === 3
  const entries = (list: unknown): unknown[][] => (Array.isArray(list) ? list.filter((entry): entry is unknown[] => Array.isArray(entry)) : [])
  for (const [message, key, signature, recid] of entries(results?.signatures)) {
    if (isHex(message, 64) && isHex(key, 64) && isHex(signature, 128) && isRecid(recid)) table.signed.set(message + key, `0${recid}${signature}`)
  }
  for (const [signature, recid, message, publicKey] of entries(results?.recoveries)) {
    if (isHex(signature, 128) && isRecid(recid) && isHex(message, 64) && isHex(publicKey, 130)) table.recovered.set(`${signature}${recid}${message}`, publicKey)
  }
  installed = table
  return () => {
    if (installed === table) installed = undefined
  }
}

/** Whether a table is installed: callers skip preparing a lookup otherwise (the send path's every recovery). */
export function secp256k1ResultsInstalled(): boolean {
  return installed !== undefined
}

/** noble's `recovered` format (recovery id, then `r ‖ s`) of `message` signed by `privateKey`, when known. */
export function knownSignature(message: Uint8Array, privateKey: Uint8Array): Uint8Array<ArrayBuffer> | undefined {
  if (installed === undefined || message.length !== 32 || privateKey.length !== 32) return undefined
  const found = installed.signed.get(hex(message) + hex(privateKey))
  return found === undefined ? undefined : bytes(found)
}

/** The uncompressed public key (65 bytes, `04 ‖ x ‖ y`) that signed `message` as `signature` (`r ‖ s`) with `recid`, when known. */
export function knownRecovery(signature: Uint8Array, recid: number, message: Uint8Array): Uint8Array | undefined {
  if (installed === undefined || signature.length !== 64 || message.length !== 32) return undefined
  const found = installed.recovered.get(`${hex(signature)}${recid}${hex(message)}`)
  return found === undefined ? undefined : bytes(found)
}
