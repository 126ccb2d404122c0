/**
 * The network-control service (`/ext/sim`, `sim.*`): the emulator's own controls in the node's
 * dialect — faults to inject and lift, network time, a forced health run. Every node serves it;
 * faults are network-wide state, so any node can be asked.
 */
import { advanceTime } from './advanceTime.js'
import { clearDisk } from './clearDisk.js'
import { clearFaults } from './clearFaults.js'
import { closeDatabase } from './closeDatabase.js'
import { connectNode } from './connectNode.js'
import { delayBootstrap } from './delayBootstrap.js'
import { disconnectNode } from './disconnectNode.js'
import { disconnectStake } from './disconnectStake.js'
import { fillDisk } from './fillDisk.js'
import { getFaults } from './getFaults.js'
import { openDatabase } from './openDatabase.js'
import { resumeChain } from './resumeChain.js'
import { runHealthChecks } from './runHealthChecks.js'
import { stallChain } from './stallChain.js'

export type { SimContext } from './context.js'

export const simService = {
  advanceTime,
  clearDisk,
  clearFaults,
  closeDatabase,
  connectNode,
  delayBootstrap,
  disconnectNode,
  disconnectStake,
  fillDisk,
  getFaults,
  openDatabase,
  resumeChain,
  runHealthChecks,
  stallChain,
}
