/**
 * What `l1sim start` prints before its ready line: the network, where it came from (a scenario or
 * a snapshot file), the URLs, the nodes and the dev accounts with their keys — read from the
 * running network, so a scenario's or a snapshot's settings show as they are.
 */
import { DEFAULT_DERIVATION_PATH, DEFAULT_MNEMONIC } from '../core/keys.js'
import type { Devnet } from '../devnet.js'
import type { RelayerMode } from '../network/relayer.js'

export type BannerSource = { scenario?: string; snapshot?: string }

export async function banner(devnet: Devnet, version: string, source: BannerSource): Promise<string> {
  const { network } = devnet
  const { preset } = network
  const rule = '=================='
  const field = (name: string, value: string | number) => `${`${name}:`.padEnd(19)}${value}`
  const mining = network.cChain.mining
  const balances = await Promise.all(network.devAccounts.map((a) => network.cChain.getAccountFields(a.address, 'latest')))
  const run = devnet.scenario
  const lines = [
    `l1sim ${version}`,
    '',
    'Network',
    rule,
    field('Preset', `${network.presetName} (network id ${preset.networkId})`),
    ...(source.scenario === undefined
      ? []
      : [field('Scenario', `${source.scenario}${run ? ` (${run.passed} assertions passed, ${run.failures.length} failed)` : ''}`)]),
    ...(source.snapshot === undefined ? [] : [field('Snapshot', source.snapshot)]),
    field('Nodes', network.nodes.length),
    field('P-Chain', preset.pChainId),
    field('X-Chain', preset.xChainId),
    field('C-Chain', `${preset.cChainId} (EVM chain id ${preset.evmChainId})`),
    field('Mining', mining.mode === 'interval' ? `a block every ${mining.interval} s` : mining.mode === 'manual' ? 'manual (evm_mine)' : 'automine (a block per transaction)'),
    ...network.l1s.map((l1) => field(`L1 ${l1.name}`, `${l1.blockchainId} (EVM chain id ${l1.chain.chainId}, subnet ${l1.subnetId})`)),
    '',
    'Endpoints',
    rule,
    field('HTTP', devnet.rpcUrl()),
    field('WebSocket', devnet.wsUrl()),
    field('Data API', `${devnet.dataApiUrl ?? devnet.url}/v1 (docs: /v1/docs)`),
    field('Sig. aggregator', `${devnet.signatureAggregatorUrl ?? devnet.url}/aggregate-signatures`),
    field('ICM relayer', `${devnet.relayerUrl ?? `${devnet.url}/icm-relayer`}/relay (${relayerModeText(network.relayer.mode)}, from ${network.relayer.address})`),
    ...network.l1s.flatMap((l1) => [field(`HTTP (${l1.name})`, devnet.rpcUrl(l1.name)), field(`WebSocket (${l1.name})`, devnet.wsUrl(l1.name))]),
    '',
    'Nodes',
    rule,
    ...devnet.nodes.map((n) => `(${n.index}) ${n.nodeId} ${n.url}`),
    field('Admin API', network.nodes[0]?.config.apiAdminEnabled ? 'enabled (/ext/admin)' : 'disabled (--api-admin-enabled=true to serve /ext/admin)'),
    field(
      'Network control',
      devnet.server.access.apiSimEnabled
        ? `/ext/sim (sim.*: faults, time, snapshot, revert, reset, saveSnapshot to ${devnet.server.access.snapshotDir})`
        : 'disabled (--api-sim-enabled=true to serve /ext/sim)',
    ),
    '',
    'Available Accounts',
    rule,
    ...network.devAccounts.map((a, i) => `(${i}) ${a.address} (${avax(balances[i]!.balance)} AVAX)`),
    '',
    'Private Keys',
    rule,
    ...network.devAccounts.map((a, i) => `(${i}) ${a.privateKey}`),
    '',
    'Wallet',
    rule,
    field('Mnemonic', network.options.mnemonic ?? DEFAULT_MNEMONIC),
    field('Derivation path', `${DEFAULT_DERIVATION_PATH}/`),
    '',
  ]
  return `${lines.join('\n')}\n`
}

/** Wei as decimal AVAX, without trailing zeros. */
function avax(wei: bigint): string {
  const whole = wei / 10n ** 18n
  const fraction = wei % 10n ** 18n
  return fraction === 0n ? `${whole}` : `${whole}.${fraction.toString().padStart(18, '0').replace(/0+$/, '')}`
}

function relayerModeText(mode: RelayerMode): string {
  if (mode.mode !== 'delay') return mode.mode
  return `delay ${[mode.seconds !== undefined ? `${mode.seconds} s` : '', mode.blocks !== undefined ? `${mode.blocks} blocks` : ''].filter(Boolean).join(' and ')}`
}
