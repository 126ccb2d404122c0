/**
 * The network-control service (`/ext/sim`, `sim.*`): the emulator's own controls in the node's
 * dialect — faults to inject and lift, network time, a forced health run, and primary-network
 * operations signed with the dev accounts' keys (validators, delegators, subnets, chains, L1
 * conversion and L1 validators, transfers between P, X and C, assets), each returning its tx id
 * and block height; and the network's state as a whole: snapshot, revert, reset, save to a
 * snapshot file. Every node serves it; faults and snapshots are network-wide state, so any node
 * can be asked.
 */
import { addValidator } from './addValidator.js'
import { addDelegator } from './addDelegator.js'
import { createSubnet } from './createSubnet.js'
import { createChain } from './createChain.js'
import { convertSubnetToL1 } from './convertSubnetToL1.js'
import { registerL1Validator } from './registerL1Validator.js'
import { setL1ValidatorWeight } from './setL1ValidatorWeight.js'
import { increaseL1ValidatorBalance } from './increaseL1ValidatorBalance.js'
import { disableL1Validator } from './disableL1Validator.js'
import { createAsset } from './createAsset.js'
import { transfer } from './transfer.js'
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
import { snapshot } from './snapshot.js'
import { revert } from './revert.js'
import { reset } from './reset.js'
import { saveSnapshot } from './saveSnapshot.js'
import { withholdWarpSignatures } from './withholdWarpSignatures.js'
import { withholdWarpStake } from './withholdWarpStake.js'
import { resumeWarpSignatures } from './resumeWarpSignatures.js'
import { getRelayer } from './getRelayer.js'
import { setRelayerMode } from './setRelayerMode.js'
import { relayMessages } from './relayMessages.js'
import { relayerFault } from './relayerFault.js'

export type { SimContext } from './context.js'

export const simService = {
  addValidator,
  addDelegator,
  createSubnet,
  createChain,
  convertSubnetToL1,
  registerL1Validator,
  setL1ValidatorWeight,
  increaseL1ValidatorBalance,
  disableL1Validator,
  createAsset,
  transfer,
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
  snapshot,
  revert,
  reset,
  saveSnapshot,
  withholdWarpSignatures,
  withholdWarpStake,
  resumeWarpSignatures,
  getRelayer,
  setRelayerMode,
  relayMessages,
  relayerFault,
}
