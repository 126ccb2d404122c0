import type { NodeService } from '../types.js'
import { getCurrentValidators, type ValidatorsContext } from './getCurrentValidators.js'

export type { CurrentValidator, ValidatorsContext } from './getCurrentValidators.js'

/** The `validators` service at `/ext/bc/<L1 chain>/validators` (subnet-evm; the C-chain has none). */
export const validatorsService = {
  getCurrentValidators,
} satisfies NodeService<ValidatorsContext>
