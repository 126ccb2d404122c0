import { defineEthMethod } from '../define.js'
import { getMerkleStateProof } from '@ethereumjs/statemanager'
import { createAddressFromString } from '@ethereumjs/util'
import { address, array, blockTag, tuple } from '../../params.js'
import { storageSlot, toBlockTag } from '../shared.js'

/** Serves `eth_getProof` (EIP-1186): account and storage proofs against the block's state root. */
export const eth_getProof = defineEthMethod(
  tuple(address, array(storageSlot), blockTag),
  ([who, slots, tag], ctx) =>
    ctx.chain.withState(toBlockTag(tag), (state) => getMerkleStateProof(state, createAddressFromString(who), slots)),
)
