import { keccak_256 } from '@noble/hashes/sha3.js'
import { createKeccak, type IHasher } from 'hash-wasm'
import { nativeKeccak256 } from './native.js'

/**
 * The process's keccak256. A block hashes some thirty short inputs per transaction (trie nodes,
 * addresses, slots, headers): the `keccak` package's native sponge costs ~1.5 µs a call whatever
 * the input (four N-API calls and a Buffer finalised by the GC), hash-wasm's WebAssembly sponge
 * ~0.6 µs for the same inputs, noble's JavaScript ~4 µs. hash-wasm's module is compiled
 * asynchronously, so until it is ready (the first turns of a start) the native sponge answers,
 * and noble where that cannot load: the digests are the same.
 */
export type Keccak256 = (data: Uint8Array) => Uint8Array

let hashNow: Keccak256 = nativeKeccak256 ?? keccak_256

/** Resolves once the WebAssembly sponge answers (or it cannot: then the fallback stays). */
export const keccakReady: Promise<void> = createKeccak(256).then(
  (hasher) => {
    hashNow = wasmKeccak256(hasher)
  },
  () => {},
)

/** keccak256 of `data`: a digest of its own (a later call does not change it). */
export function keccak256(data: Uint8Array): Uint8Array {
  return hashNow(data)
}

function wasmKeccak256(hasher: IHasher): Keccak256 {
  // One hasher serves every caller: a call runs to completion synchronously.
  return (data) => hasher.init().update(data).digest('binary')
}
