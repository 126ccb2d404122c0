/** Warp / ICM messaging: codec, predicates, BLS signatures and the 0x0200…05 precompile. */
export * from './codec.js'
export * from './predicate.js'
export * from './signature.js'
export * from './precompile.js'
export { abiDecodeBytes, abiDecodeUint32, abiEncodeBytes, AbiDecodeError } from './abi.js'
