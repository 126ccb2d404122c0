// A P-chain transaction from @avalabs/avalanchejs, exactly as its own examples issue one (the
// README's "The primary network" example): the context and fee state from the node, the sender's
// UTXOs, `pvm.newBaseTx`, `addTxSignatures`, `issueSignedTx`, then the status and balances.
// Run by test/examples.test.ts, so this file stays true.
import * as avalanchejs from '@avalabs/avalanchejs'
import { startDevnet } from '../src/index.js'

// avalanchejs 5.2.0's typings use extensionless imports that `moduleResolution: NodeNext` cannot
// follow; with `bundler` resolution `import { Context, pvm, … } from '@avalabs/avalanchejs'` works.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const { Context, TransferableOutput, addTxSignatures, pvm, secp256k1, utils } = avalanchejs as any

export async function main(): Promise<{ status: string; sent: bigint; received: bigint }> {
  const devnet = await startDevnet({ port: 0 })
  try {
    const url = devnet.url
    // Dev account 0's key holds AVAX on P (and X and C); account 1 receives.
    const [from, to] = [0, 1].map((i) => utils.hexToBuffer(devnet.network.devAccounts[i]!.privateKey))
    const context = await Context.getContextFromURI(url)
    const pvmApi = new pvm.PVMApi(url)
    const address = (key: Uint8Array) => secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(key))
    const balance = async (key: Uint8Array) => BigInt((await pvmApi.getBalance({ addresses: [utils.format('P', context.hrp, address(key))] })).balance)
    const before = [await balance(from), await balance(to)]

    const feeState = await pvmApi.getFeeState()
    const { utxos } = await pvmApi.getUTXOs({ addresses: [utils.format('P', context.hrp, address(from))] })
    const tx = pvm.newBaseTx(
      { feeState, fromAddressesBytes: [address(from)], utxos, outputs: [TransferableOutput.fromNative(context.avaxAssetID, 1_000_000_000n, [address(to)])] },
      context,
    )
    await addTxSignatures({ unsignedTx: tx, privateKeys: [from] })
    const { txID } = await pvmApi.issueSignedTx(tx.getSignedTx())
    // Built into a block at once: Committed when issueSignedTx returns.
    const { status } = await pvmApi.getTxStatus({ txID })
    return { status, sent: before[0]! - (await balance(from)), received: (await balance(to)) - before[1]! }
  } finally {
    await devnet.close()
  }
}
