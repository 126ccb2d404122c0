import { idFromString } from '../../../core/ids.js'
import { BaseError } from '../../../core/errors.js'
import { InvalidParamsError } from '../../errors.js'
import { createParser, jsonKind, UnmarshalTypeError } from '../../params.js'

/** avalanchego's `ids.ID` in JSON: a quoted cb58 string. */
export const cb58Id = createParser('ids.ID', (raw) => {
  if (typeof raw !== 'string') throw new UnmarshalTypeError(jsonKind(raw), 'ids.ID', true)
  try {
    return idFromString(raw)
  } catch (error) {
    throw new InvalidParamsError(error instanceof BaseError ? error.shortMessage : String(error))
  }
})
