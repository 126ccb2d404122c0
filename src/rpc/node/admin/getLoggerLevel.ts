import type { LoggerLevels } from '../../../network/logging.js'
import { objectParams, str } from '../params.js'
import { defineNodeMethod } from '../types.js'
import type { AdminContext } from './context.js'
import { asNodeErrors } from './errors.js'

export type LoggerLevelReply = { loggerLevels: Record<string, LoggerLevels> }

/** `getLoggerNames`: one logger, or every logger for an empty name. */
export function targetLoggers(ctx: AdminContext, loggerName: string): string[] {
  return loggerName.length === 0 ? ctx.node.loggers.names() : [loggerName]
}

/**
 * Serves `admin.getLoggerLevel`: the log and display levels of one logger, or of all of them
 * when `loggerName` is empty or absent.
 * @example {"loggerName":"C"} → {"loggerLevels":{"C":{"logLevel":"INFO","displayLevel":"INFO"}}}
 */
export const getLoggerLevel = defineNodeMethod(
  objectParams({ loggerName: str }),
  (params, ctx: AdminContext): LoggerLevelReply =>
    asNodeErrors(() => ({ loggerLevels: ctx.node.loggers.levels(targetLoggers(ctx, params.loggerName)) })),
)
