import { describe, expect, it } from 'vitest'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { createBlock } from '@ethereumjs/block'
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { createFeeMarket1559Tx } from '@ethereumjs/tx'
import { Account, bytesToHex, createAddressFromPrivateKey, createAddressFromString } from '@ethereumjs/util'
import { buildBlock, createVM } from '@ethereumjs/vm'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { installDirectCommit, SealingBlockBuilder, setBuilderExtraData, startBlock } from '../../src/evm/ethereumjsInternals.js'

describe('ethereumjs internals', () => {
  it('the last checkpoint commit writes the nodes ethereumjs writes (the same root, readable under their keys)', async () => {
    const keys = Array.from({ length: 400 }, (_, i) =>
      // Hashed keys (state tries) and short keys sharing prefixes (extension nodes, embedded nodes).
      i % 2 === 0 ? keccak_256(Uint8Array.of(i >> 8, i & 0xff)) : Uint8Array.of(0x12, 0x34, i & 0xff, i >> 8),
    )
    const value = (i: number) => (i % 5 === 0 ? Uint8Array.of(i & 0xff) : new Uint8Array(40).fill(i & 0xff))
    const plain = new MerklePatriciaTrie()
    for (const [i, key] of keys.entries()) await plain.put(key, value(i))
    installDirectCommit()
    const checkpointed = new MerklePatriciaTrie()
    checkpointed.checkpoint()
    for (const [i, key] of keys.entries()) await checkpointed.put(key, value(i))
    await checkpointed.commit()
    expect(bytesToHex(checkpointed.root())).toBe(bytesToHex(plain.root()))
    const reopened = new MerklePatriciaTrie({ db: checkpointed.database().db, root: plain.root() })
    for (const [i, key] of keys.entries()) expect(await reopened.get(key)).toEqual(value(i))
  })

  it("the sealing builder's blocks are ethereumjs' own builder's, byte for byte (header, transactions, hash)", async () => {
    const common = new Common({ chain: Mainnet, hardfork: Hardfork.Cancun })
    const key = keccak_256(Uint8Array.of(1))
    const sender = createAddressFromPrivateKey(key)
    const vm = async () => {
      const made = await createVM({ common })
      await made.stateManager.putAccount(sender, new Account(0n, 10n ** 21n))
      return made
    }
    const [ours, stock] = [await vm(), await vm()]
    let parent = createBlock({ header: { number: 0n, gasLimit: 30_000_000n, baseFeePerGas: 7n, stateRoot: await ours.stateManager.getStateRoot() } }, { common })
    for (let number = 1n; number <= 3n; number++) {
      const opts = {
        parentBlock: parent,
        headerData: { number, timestamp: 12n * number, gasLimit: 30_000_000n, coinbase: createAddressFromString('0x' + '11'.repeat(20)), extraData: Uint8Array.of(Number(number)) },
        // Unfrozen, as the miner builds blocks (BlockSharing freezes them once sealed).
        blockOpts: { putBlockIntoBlockchain: false, calcDifficultyFromHeader: parent.header, freeze: false },
      }
      const builders = [await startBlock(ours, opts), await buildBlock(stock, opts)]
      expect(builders[0]).toBeInstanceOf(SealingBlockBuilder)
      // Blocks of 0, 1 and 2 transactions.
      for (let i = 0n; i < number - 1n; i++) {
        const nonce = (number * (number - 1n)) / 2n - (number - 1n) + i
        const tx = createFeeMarket1559Tx({ nonce, to: createAddressFromString('0x' + '22'.repeat(20)), value: 1000n + i, gasLimit: 21_000n, maxFeePerGas: 100n, maxPriorityFeePerGas: 2n }, { common }).sign(key)
        for (const builder of builders) await builder.addTransaction(tx)
      }
      // The extra data known only once the transactions ran (l1sim's fee state after the block).
      for (const builder of builders) setBuilderExtraData(builder, Uint8Array.of(0xee, Number(number)))
      const [mine, theirs] = await Promise.all(builders.map(async (builder) => (await builder.build()).block))
      expect(bytesToHex(mine!.serialize())).toBe(bytesToHex(theirs!.serialize()))
      expect(bytesToHex(mine!.hash())).toBe(bytesToHex(theirs!.hash()))
      parent = theirs!
    }
  })
})
