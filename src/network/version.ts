/**
 * What the simulated nodes say they run. l1sim imitates avalanchego 1.14.2 (the source its node
 * APIs were read from, `version/constants.go`), so clients that parse `info.getNodeVersion` or a
 * peer's version (`avalanchego/<major>.<minor>.<patch>`) see the release they were written for.
 * The one field that names the emulator is `gitCommit`: a real node puts the commit it was built
 * from there (or `""`); l1sim puts `l1sim/<package version>`, which no real build can produce.
 */

/** `version.Current`: name and semantic version of the imitated node. */
export const NODE_APPLICATION = { name: 'avalanchego', major: 1, minor: 14, patch: 2 } as const

/** `version.Current.String()`: the node version of `info.getNodeVersion` and of every peer. */
export const NODE_VERSION = `${NODE_APPLICATION.name}/${NODE_APPLICATION.major}.${NODE_APPLICATION.minor}.${NODE_APPLICATION.patch}`

/** `version.Current.Semantic()`: what coreth and subnet-evm report as their VM version. */
export const NODE_SEMANTIC_VERSION = `v${NODE_APPLICATION.major}.${NODE_APPLICATION.minor}.${NODE_APPLICATION.patch}`

/** `version.CurrentDatabase`. */
export const DATABASE_VERSION = 'v1.4.5'

/** `version.RPCChainVMProtocol`: the rpcchainvm protocol plugins must speak. */
export const RPC_CHAIN_VM_PROTOCOL = 45

/** l1sim's own version (package.json `version`; a test keeps the two equal). */
export const L1SIM_VERSION = '0.1.0'

/** `info.getNodeVersion`'s `gitCommit`: the emulator and its version instead of a commit hash. */
export const GIT_COMMIT = `l1sim/${L1SIM_VERSION}`

/** VM ids (`ids.ID` of the ASCII name, zero-padded): `constants.PlatformVMID`, `AVMID`, `EVMID`, subnet-evm's. */
export const PLATFORM_VM_ID = 'rWhpuQPF1kb72esV2momhMuTYGkEb1oL29pt2EBXWmSy4kxnT'
export const AVM_ID = 'jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq'
export const EVM_ID = 'mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6'
export const SUBNET_EVM_ID = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy'

/**
 * The version a VM reports (`VM.Version`), which `info.getNodeVersion` lists: platformvm and avm
 * return `version.Current.String()` (`avalanchego/1.14.2`), coreth and subnet-evm (grafted into
 * avalanchego) `version.Current.Semantic()` (`v1.14.2`). Any other VM (a loaded plugin) is given
 * the semantic version too.
 */
export function vmVersion(vmId: string): string {
  return vmId === PLATFORM_VM_ID || vmId === AVM_ID ? NODE_VERSION : NODE_SEMANTIC_VERSION
}

/** A VM a node has registered: its id, its aliases (primary first; may include the id itself) and the version it reports. */
export type SimVm = { id: string; aliases: readonly string[]; version: string }

/**
 * The built-in VMs of a simulated node with their aliases (primary first, then the id, as
 * `genesis.VMAliases` and `RegisterFactory` give them; subnet-evm is built in here, aliased
 * `subnetevm`, as src/network/vmRegistry.ts registers it) and versions. A node's VM registry
 * (with loaded plugins) is the real source; this is the default and what tests use.
 */
export function simulatedVms(): SimVm[] {
  return [
    { id: PLATFORM_VM_ID, aliases: ['platform', PLATFORM_VM_ID], version: vmVersion(PLATFORM_VM_ID) },
    { id: AVM_ID, aliases: ['avm', AVM_ID], version: vmVersion(AVM_ID) },
    { id: EVM_ID, aliases: ['evm', EVM_ID], version: vmVersion(EVM_ID) },
    { id: SUBNET_EVM_ID, aliases: ['subnetevm', SUBNET_EVM_ID], version: vmVersion(SUBNET_EVM_ID) },
  ]
}
