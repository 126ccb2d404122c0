import { expect } from 'vitest'
import { getContractAddress, zeroAddress, type Hex, type TransactionReceipt } from 'viem'
import { idFromString } from '../../src/core/ids.js'
import { ICM_MESSENGER_ABI, ICM_MESSENGER_BYTECODE } from '../../src/evm/icm/messenger.js'
import { ICM_MESSENGER_ADDRESS } from '../../src/evm/icm/predeploy.js'
import { createNetwork, type Network, type NetworkOptions } from '../../src/network/network.js'
import { accounts, alice, testGenesis } from './helpers.js'
import { DURANGO_LOCAL, messengerEvents, mined, side, type Side } from './icmHelpers.js'

const deployer = accounts[5]!

export type IcmNetwork = { network: Network; a: Side; b: Side; c: Side; messenger: Hex }

/**
 * L1s `a` and `b` (warp from genesis) and the C-chain, the messenger deployed at the same address
 * on the three (a fresh account's first transaction on each), the relayer serving it.
 */
export async function icmNetwork(relayer: NetworkOptions['relayer'] = {}, on: readonly ('a' | 'b' | 'c')[] = ['a', 'b', 'c']): Promise<IcmNetwork> {
  return withMessengers(await createNetwork(icmNetworkOptions(relayer)), on)
}

/** The options of {@link icmNetwork}'s network (for `startDevnet`). */
export function icmNetworkOptions(relayer: NetworkOptions['relayer'] = {}): NetworkOptions {
  const warpConfig = { blockTimestamp: DURANGO_LOCAL }
  return {
    l1s: [
      { name: 'a', genesis: testGenesis({ chainId: 11111, warpConfig }) },
      { name: 'b', genesis: testGenesis({ chainId: 22222, warpConfig }) },
    ],
    relayer: { messenger: getContractAddress({ from: deployer.address, nonce: 0n }), ...relayer },
  }
}

/** L1s `a` and `b` and the C-chain with the messenger predeployed at its canonical address (`icm: true`) and the relayer's defaults. */
export async function predeployedIcmNetwork(options: Partial<NetworkOptions> = {}): Promise<IcmNetwork> {
  const network = await createNetwork({ ...icmNetworkOptions(), relayer: {}, icm: true, ...options })
  const [la, lb] = network.l1s as [(typeof network.l1s)[0], (typeof network.l1s)[0]]
  return {
    network,
    a: side(network, la.chain, la.blockchainIdBytes),
    b: side(network, lb.chain, lb.blockchainIdBytes),
    c: side(network, network.cChain, idFromString(network.preset.cChainId)),
    messenger: ICM_MESSENGER_ADDRESS,
  }
}

/** Deploys the messenger on `a`, `b` and the C-chain of a network made with {@link icmNetworkOptions}. */
export async function withMessengers(network: Network, on: readonly ('a' | 'b' | 'c')[] = ['a', 'b', 'c']): Promise<IcmNetwork> {
  const messenger = getContractAddress({ from: deployer.address, nonce: 0n })
  const [la, lb] = network.l1s as [(typeof network.l1s)[0], (typeof network.l1s)[0]]
  const a = side(network, la.chain, la.blockchainIdBytes)
  const b = side(network, lb.chain, lb.blockchainIdBytes)
  const c = side(network, network.cChain, idFromString(network.preset.cChainId))
  for (const s of on.map((name) => ({ a, b, c })[name])) {
    const receipt = await mined(s, await s.wallet(deployer).deployContract({ abi: ICM_MESSENGER_ABI, bytecode: ICM_MESSENGER_BYTECODE }))
    expect(receipt.contractAddress).toBe(messenger.toLowerCase())
  }
  return { network, a, b, c, messenger }
}

/** Alice sends `payload` from `from` to `receiver` on `to` through the messenger; returns the receipt and the message id. */
export async function sendMessage(n: IcmNetwork, from: Side, to: Side, receiver: Hex, payload: Hex, extra: { allowedRelayerAddresses?: Hex[]; requiredGasLimit?: bigint } = {}): Promise<{ receipt: TransactionReceipt; id: Hex }> {
  const hash = await from.wallet(alice).writeContract({
    address: n.messenger,
    abi: ICM_MESSENGER_ABI,
    functionName: 'sendCrossChainMessage',
    args: [{ destinationBlockchainID: to.blockchainId, destinationAddress: receiver, feeInfo: { feeTokenAddress: zeroAddress, amount: 0n }, requiredGasLimit: extra.requiredGasLimit ?? 200_000n, allowedRelayerAddresses: extra.allowedRelayerAddresses ?? [], message: payload }],
  })
  const receipt = await mined(from, hash)
  const send = messengerEvents(receipt, n.messenger).find((e) => e.eventName === 'SendCrossChainMessage')!
  return { receipt, id: (send.args as { messageID: Hex }).messageID }
}

/** The messenger's events (names) in a delivery transaction on `s`. */
export async function deliveryEvents(n: IcmNetwork, s: Side, txHash: Hex) {
  return messengerEvents(await s.publicClient.getTransactionReceipt({ hash: txHash }), n.messenger)
}
