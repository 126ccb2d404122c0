import { parseLogLevel, type LogLevel } from '../../../network/logging.js'
import { objectParams, optional, str, type FieldDecoder } from '../params.js'
import { NodeArgumentError, NodeRpcError, defineNodeMethod } from '../types.js'
import type { AdminContext } from './context.js'
import { asNodeErrors } from './errors.js'
import { targetLoggers, type LoggerLevelReply } from './getLoggerLevel.js'

/**
 * `logging.Level`'s `UnmarshalJSON`: a JSON string naming a level, any case. Anything else
 * fails while params are decoded, so the caller sees only the generic invalid-argument error.
 */
export const logLevel: FieldDecoder<LogLevel> = {
  zero: () => 0,
  decode: (value) => {
    if (typeof value !== 'string') throw new NodeArgumentError(`cannot unmarshal ${value === null ? 'null' : typeof value} into a level`)
    try {
      return parseLogLevel(value)
    } catch (error) {
      throw new NodeArgumentError((error as Error).message)
    }
  },
}

/**
 * Serves `admin.setLoggerLevel`: sets the level of written logs (`logLevel`) and/or of displayed
 * logs (`displayLevel`) of one logger, or of all when `loggerName` is empty. Replies with the
 * affected loggers' levels (the code's reply; the docs say `{}`).
 * @example {"loggerName":"C","logLevel":"debug"} → {"loggerLevels":{"C":{"logLevel":"DEBUG","displayLevel":"INFO"}}}
 */
export const setLoggerLevel = defineNodeMethod(
  objectParams({ loggerName: str, logLevel: optional(logLevel), displayLevel: optional(logLevel) }),
  (params, ctx: AdminContext): LoggerLevelReply =>
    asNodeErrors(() => {
      if (params.logLevel === undefined && params.displayLevel === undefined)
        throw new NodeRpcError('need to specify either displayLevel or logLevel')
      const names = targetLoggers(ctx, params.loggerName)
      for (const name of names) {
        if (params.logLevel !== undefined) ctx.node.loggers.setLogLevel(name, params.logLevel)
        if (params.displayLevel !== undefined) ctx.node.loggers.setDisplayLevel(name, params.displayLevel)
      }
      return { loggerLevels: ctx.node.loggers.levels(names) }
    }),
)
