import createDebug from 'debug'
import { isatty } from 'node:tty'

/**
 * The `debug` package asks the terminal whether to colour its output — an isatty system call —
 * every time a logger is created, and ethereumjs creates one for every trie: three per block.
 * The answer cannot change while the process runs, so it is taken once, as debug would take it
 * (an explicit DEBUG_COLORS setting still wins).
 */
const options = createDebug.inspectOpts as { colors?: boolean } | undefined
if (options && !('colors' in options)) options.colors = isatty(process.stderr.fd)
