/**
 * Network names of the data API (data-api.md §5 `Network`): `mainnet`, `fuji`, and `testnet`,
 * which is `fuji`.
 *
 * README note — what a local network answers to. An emulated network answers to
 *   - its avalanchego name: `mainnet` (network id 1), `fuji` (5), `local` (12345; the default
 *     preset), or `network-<id>` for any other id;
 *   - `testnet` when it is Fuji (id 5);
 *   - its network id in decimal (`12345`).
 * So the default local network answers to `local` and `12345`. The hosted names that do not name
 * this network (`mainnet`, `fuji`, `testnet` on a local network) are still valid input: they
 * select nothing (an empty `/v1/chains` list); any other value is a 400 listing the accepted names.
 * `@avalabs/glacier-sdk` types `network` as the hosted enum but does not validate it at run time,
 * so `'local'` can be passed to it with a cast.
 */

export const HOSTED_NETWORK_NAMES = ['mainnet', 'fuji', 'testnet'] as const
export type HostedNetworkName = (typeof HOSTED_NETWORK_NAMES)[number]

export const MAINNET_ID = 1
export const FUJI_ID = 5
export const LOCAL_ID = 12345

/** avalanchego's `constants.NetworkName` for the ids the emulator presets use. */
export function avalanchegoNetworkName(networkId: number): string {
  if (networkId === MAINNET_ID) return 'mainnet'
  if (networkId === FUJI_ID) return 'fuji'
  if (networkId === LOCAL_ID) return 'local'
  return `network-${networkId}`
}

/** Every name the network with this id answers to. */
export function networkNames(networkId: number): string[] {
  const names = [avalanchegoNetworkName(networkId)]
  if (networkId === FUJI_ID) names.push('testnet')
  names.push(String(networkId))
  return names
}

/** The values the `network` parameter accepts on this network: the hosted enum, then its own names. */
export function acceptedNetworkNames(networkId: number): string[] {
  return [...new Set<string>([...HOSTED_NETWORK_NAMES, ...networkNames(networkId)])]
}

/** Whether `name` (already validated against {@link acceptedNetworkNames}) designates this network. */
export function namesNetwork(name: string, networkId: number): boolean {
  return networkNames(networkId).includes(name)
}
