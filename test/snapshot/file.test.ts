import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { deserialize, serialize } from 'node:v8'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Hex } from '../../src/core/hex.js'
import { createSeededRandom } from '../../src/core/random.js'
import { createNetwork, type Network } from '../../src/network/network.js'
import { readBlockSection } from '../../src/snapshot/codec.js'
import { inspectSnapshot, loadNetwork, saveNetwork, SnapshotFileError } from '../../src/snapshot/index.js'
import { tempDir, transfer } from './helpers.js'

const tmp = tempDir('file')
const good = `${tmp.dir}/good.l1sim`
let network: Network
let bytes: Buffer

/** A copy of the file with the checksum recomputed over what precedes it. */
function rechecksum(file: Buffer): Buffer {
  const out = Buffer.from(file)
  createHash('sha256').update(out.subarray(0, out.length - 32)).digest().copy(out, out.length - 32)
  return out
}

/** Loads `content` from a file; returns the error it throws (the test fails if it loads). */
async function loadError(name: string, content: Buffer | string): Promise<unknown> {
  const path = `${tmp.dir}/${name}`
  writeFileSync(path, content)
  const loaded = await loadNetwork(path).catch((error: unknown) => error)
  if (!(loaded instanceof Error)) {
    await (loaded as Network).close()
    throw new Error(`${name} loaded`)
  }
  return loaded
}

beforeAll(async () => {
  network = await createNetwork({ nodes: 1, node: { dataDir: `${tmp.dir}/data` } })
  for (let i = 0; i < 3; i++) await transfer(network, network.cChain, i, '0x00000000000000000000000000000000000b0b00' as Hex, 1n)
  await saveNetwork(network, good)
  bytes = readFileSync(good)
})

afterAll(async () => {
  await network?.close()
  tmp.cleanup()
})

describe('loading a bad file', () => {
  it('refuses a missing file, random bytes, a JSON file and an empty file', async () => {
    const missing = await loadNetwork(`${tmp.dir}/nothing.l1sim`).catch((e: unknown) => e)
    expect(missing).toBeInstanceOf(SnapshotFileError)
    expect((missing as Error).message).toBe(`snapshot ${tmp.dir}/nothing.l1sim: cannot be read: no such file or directory`)
    const random = Buffer.from(createSeededRandom('junk').derive('bytes'))
    expect((await loadError('random.bin', random) as Error).message).toBe(`snapshot ${tmp.dir}/random.bin: not an l1sim snapshot (it does not start with the L1SIMSNP signature)`)
    expect((await loadError('state.json', '{"chains":[]}') as Error).message).toBe(`snapshot ${tmp.dir}/state.json: not an l1sim snapshot (it does not start with the L1SIMSNP signature)`)
    expect((await loadError('empty.l1sim', '') as Error).message).toBe(`snapshot ${tmp.dir}/empty.l1sim: the file is empty`)
  })

  it('refuses a newer format version with the versions in the message', async () => {
    const newer = Buffer.from(bytes)
    newer.writeUInt32BE(4, 8)
    const error = await loadError('newer.l1sim', rechecksum(newer))
    expect(error).toBeInstanceOf(SnapshotFileError)
    expect((error as Error).message).toBe(`snapshot ${tmp.dir}/newer.l1sim: written by snapshot format version 4; this l1sim reads up to version 3`)
    await expect(inspectSnapshot(`${tmp.dir}/newer.l1sim`)).rejects.toThrow('written by snapshot format version 4')
  })

  it('names truncation and corruption', async () => {
    expect((await loadError('cut.l1sim', bytes.subarray(0, 1000)) as Error).message).toBe(`snapshot ${tmp.dir}/cut.l1sim: truncated: 1000 of ${bytes.length} bytes`)
    expect((await loadError('cut-early.l1sim', bytes.subarray(0, 5)) as Error).message).toBe(`snapshot ${tmp.dir}/cut-early.l1sim: truncated: 5 bytes, shorter than any snapshot`)
    const flipped = Buffer.from(bytes)
    flipped[bytes.length - 100]! ^= 0x10
    expect((await loadError('flipped.l1sim', flipped) as Error).message).toBe(`snapshot ${tmp.dir}/flipped.l1sim: checksum mismatch: the file is corrupt`)
    const info = await inspectSnapshot(`${tmp.dir}/flipped.l1sim`)
    expect(info.checksumOk).toBe(false)
  })

  it('fuzz: every truncation and bit flip is a SnapshotFileError', async () => {
    const random = createSeededRandom('fuzz')
    const offsets = new Set<number>([0, 1, 7, 8, 11, 12, 19, 20, 23, 24, bytes.length - 33, bytes.length - 32, bytes.length - 1])
    for (let i = 0; offsets.size < 80; i++) offsets.add(Buffer.from(random.next('offset')).readUInt32BE(0) % bytes.length)
    for (const offset of offsets) {
      const cut = await loadError(`cut-${offset}.l1sim`, bytes.subarray(0, offset))
      expect(cut, `cut at ${offset}`).toBeInstanceOf(SnapshotFileError)
      expect((cut as Error).message).toMatch(/: (the file is empty|not an l1sim snapshot|truncated: \d+)/)
      const flipped = Buffer.from(bytes)
      flipped[offset]! ^= 1 << (offset % 8)
      const flip = await loadError(`flip-${offset}.l1sim`, flipped)
      expect(flip, `flip at ${offset}`).toBeInstanceOf(SnapshotFileError)
      expect((flip as Error).message).toMatch(/: (not an l1sim snapshot|truncated: \d+ of \d+ bytes|checksum mismatch|corrupt)/)
    }
  })

  it('fuzz: a corrupt payload with a valid checksum is a SnapshotFileError or a whole network, never another error', async () => {
    const random = createSeededRandom('payload-fuzz')
    const headerEnd = 24 + bytes.readUInt32BE(20)
    let refused = 0
    for (let i = 0; i < 40; i++) {
      const offset = headerEnd + (Buffer.from(random.next('offset')).readUInt32BE(0) % (bytes.length - 32 - headerEnd))
      const flipped = Buffer.from(bytes)
      flipped[offset]! ^= 0xff
      const path = `${tmp.dir}/payload-${offset}.l1sim`
      writeFileSync(path, rechecksum(flipped))
      const result = await loadNetwork(path).catch((error: unknown) => error)
      if (result instanceof Error) {
        expect(result, `flip at ${offset}: ${result.message}`).toBeInstanceOf(SnapshotFileError)
        refused++
      } else await (result as Network).close()
    }
    expect(refused).toBeGreaterThan(0)
  })

  it('refuses a state that does not fit the network its options recreate, naming why', async () => {
    // The payload's first section is the v8-serialized state: u64 length, then its bytes.
    const headerEnd = 24 + bytes.readUInt32BE(20)
    const stateEnd = headerEnd + 8 + Number(bytes.readBigUInt64BE(headerEnd))
    const state = deserialize(bytes.subarray(headerEnd + 8, stateEnd)) as { chains: { genesisHash: string }[] }
    state.chains[0]!.genesisHash = `0x${'ab'.repeat(32)}`
    const payload = serialize(state)
    const length = Buffer.alloc(8)
    length.writeBigUInt64BE(BigInt(payload.length))
    const file = Buffer.concat([bytes.subarray(0, headerEnd), length, payload, bytes.subarray(stateEnd, bytes.length - 32), Buffer.alloc(32)])
    file.writeBigUInt64BE(BigInt(file.length), 12)
    const error = await loadError('mismatch.l1sim', rechecksum(file))
    expect(error).toBeInstanceOf(SnapshotFileError)
    expect((error as Error).message).toMatch(/^snapshot .*mismatch\.l1sim: cannot be restored \(saved by l1sim 0\.1\.0\): chain C: genesis 0x[0-9a-f]{64} recreated, 0xabab/)
  })
})

describe('older format versions', () => {
  /** The payload's sections (`u64 length` + bytes) after the header. */
  function sections(file: Buffer): Buffer[] {
    const out: Buffer[] = []
    for (let at = 24 + file.readUInt32BE(20); at < file.length - 32; ) {
      const length = Number(file.readBigUInt64BE(at))
      out.push(file.subarray(at + 8, at + 8 + length))
      at += 8 + length
    }
    return out
  }

  /** A file of format `version` with the good file's header and these payload sections, checksummed. */
  function fileOf(version: number, payload: Buffer[]): Buffer {
    const framed = payload.flatMap((section) => {
      const length = Buffer.alloc(8)
      length.writeBigUInt64BE(BigInt(section.length))
      return [length, section]
    })
    const headerEnd = 24 + bytes.readUInt32BE(20)
    const file = Buffer.concat([bytes.subarray(0, headerEnd), ...framed, Buffer.alloc(32)])
    file.writeUInt32BE(version, 8)
    file.writeBigUInt64BE(BigInt(file.length), 12)
    return rechecksum(file)
  }

  it('loads a file of format version 1 (blocks in the state, one trie section per chain)', async () => {
    // Version 1, made from the version 3 file: the state with its chains' blocks, then per chain
    // `u32 count` and its nodes, a node's value as bytes or (top bit) as its hex text.
    const [state, ...rest] = sections(bytes)
    const saved = deserialize(state!) as { chains: { blocks: unknown[]; trieNodes?: number }[] }
    const tries = saved.chains.map((chain, i) => {
      chain.blocks = readBlockSection(rest[3 * i + 1]!)
      const trie = rest[3 * i + 2]!
      const nodes: Buffer[] = []
      for (let at = 0; at < trie.length - 4; ) {
        const keyLength = trie.readUInt16BE(at)
        const length = trie.readUInt32BE(at + 2) & 0x3fffffff
        const key = trie.subarray(at + 6, at + 6 + keyLength)
        const value = trie.subarray(at + 6 + keyLength, at + 6 + keyLength + length)
        const asText = nodes.length % 2 === 1 ? Buffer.from(value.toString('hex'), 'utf8') : value
        const lengths = Buffer.alloc(6)
        lengths.writeUInt16BE(keyLength)
        lengths.writeUInt32BE((asText.length | (asText === value ? 0 : 0x80000000)) >>> 0, 2)
        nodes.push(Buffer.concat([lengths, key, asText]))
        at += 6 + keyLength + length
      }
      chain.trieNodes = nodes.length
      const count = Buffer.alloc(4)
      count.writeUInt32BE(nodes.length)
      return Buffer.concat([count, ...nodes])
    })
    const path = `${tmp.dir}/v1.l1sim`
    writeFileSync(path, fileOf(1, [serialize(saved), ...tries]))
    expect((await inspectSnapshot(path)).formatVersion).toBe(1)
    const loaded = await loadNetwork(path)
    try {
      expect(loaded.cChain.head.hash).toBe(network.cChain.head.hash)
      expect(loaded.cChain.store.byNumber(1n)!.block.hash()).toEqual(network.cChain.store.byNumber(1n)!.block.hash())
      const bob = '0x00000000000000000000000000000000000b0b00' as Hex
      expect((await loaded.cChain.getAccountFields(bob, 'latest')).balance).toBe(3n)
    } finally {
      await loaded.close()
    }
  })

  it('loads a file of format version 2 (no block index: its blocks are decoded at load)', async () => {
    // Version 2: per chain its blocks (batches of `u32 length` + `v8.serialize` of 64 records) and trie.
    const [state, ...rest] = sections(bytes)
    const v8Blocks = (section: Buffer) => {
      const records = readBlockSection(section)
      return Buffer.concat(Array.from({ length: Math.ceil(records.length / 64) }, (_, b) => {
        const batch = serialize(records.slice(b * 64, b * 64 + 64))
        const length = Buffer.alloc(4)
        length.writeUInt32BE(batch.length)
        return Buffer.concat([length, batch])
      }))
    }
    const withoutIndexes = [state!, ...rest.flatMap((section, i) => (i % 3 === 0 ? [] : i % 3 === 1 ? [v8Blocks(section)] : [section]))]
    const path = `${tmp.dir}/v2.l1sim`
    writeFileSync(path, fileOf(2, withoutIndexes))
    expect((await inspectSnapshot(path)).formatVersion).toBe(2)
    const loaded = await loadNetwork(path)
    try {
      expect(loaded.cChain.head.hash).toBe(network.cChain.head.hash)
      const first = network.cChain.store.byNumber(1n)!
      expect(loaded.cChain.store.byHash(first.hash)!.block.hash()).toEqual(first.block.hash())
      expect(loaded.cChain.store.tx(first.txs[0]!.hash)!.receipt).toEqual(first.txs[0]!.receipt)
      const bob = '0x00000000000000000000000000000000000b0b00' as Hex
      expect((await loaded.cChain.getAccountFields(bob, 'latest')).balance).toBe(3n)
    } finally {
      await loaded.close()
    }
  })

  it('refuses a version 1 file whose trie section holds fewer nodes than its state says', async () => {
    const [state, ...rest] = sections(bytes)
    const saved = deserialize(state!) as { chains: { blocks: unknown[]; trieNodes?: number }[] }
    saved.chains.forEach((chain, i) => {
      chain.blocks = readBlockSection(rest[3 * i + 1]!)
      chain.trieNodes = 1
    })
    const empty = Buffer.alloc(4)
    const error = await loadError('v1-short.l1sim', fileOf(1, [serialize(saved), ...saved.chains.map(() => empty)]))
    expect(error).toBeInstanceOf(SnapshotFileError)
    expect((error as Error).message).toMatch(/^snapshot .*v1-short\.l1sim: cannot be restored \(saved by l1sim 0\.1\.0\): chain C: 0 trie nodes read, 1 saved$/)
  })
})

describe('writing', () => {
  it('writes atomically: a failed write leaves neither a partial nor a temporary file', async () => {
    const dir = `${tmp.dir}/writes`
    mkdirSync(`${dir}/target-is-a-dir`, { recursive: true })
    const missingDir = await saveNetwork(network, `${dir}/missing/net.l1sim`).catch((e: unknown) => e)
    expect(missingDir).toBeInstanceOf(SnapshotFileError)
    expect((missingDir as Error).message).toBe(`snapshot ${dir}/missing/net.l1sim: cannot be written: no such file or directory`)
    const onDir = await saveNetwork(network, `${dir}/target-is-a-dir`).catch((e: unknown) => e)
    expect(onDir).toBeInstanceOf(SnapshotFileError)
    expect((onDir as Error).message).toMatch(/cannot be written: /)
    expect(readdirSync(dir)).toEqual(['target-is-a-dir'])
    expect(readdirSync(`${dir}/target-is-a-dir`)).toEqual([])
  })

  it('replaces an existing file whole and reports its size and sha256', async () => {
    const path = `${tmp.dir}/replace.l1sim`
    writeFileSync(path, 'old contents')
    const saved = await saveNetwork(network, path)
    const written = readFileSync(path)
    expect(saved).toEqual({ path, bytes: written.length, sha256: createHash('sha256').update(written).digest('hex') })
    expect(readdirSync(tmp.dir).filter((f) => f.includes('.tmp-'))).toEqual([])
    const loaded = await loadNetwork(path)
    expect(loaded.cChain.head.hash).toBe(network.cChain.head.hash)
    await loaded.close()
  })

  it('removes the temporary file a killed save to the same target left, never one a running process is writing', async () => {
    const dir = `${tmp.dir}/killed`
    mkdirSync(dir)
    // `kill -9` mid-save: the process is gone and no cleanup ran. A process that ran and exited stands for it.
    const dead = spawnSync(process.execPath, ['-e', '']).pid!
    const running = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e6)'], { stdio: 'ignore' })
    try {
      const left = {
        killed: `net.l1sim.tmp-${dead}-0123456789ab`,
        running: `net.l1sim.tmp-${running.pid}-0123456789ab`,
        ours: `net.l1sim.tmp-${process.pid}-0123456789ab`, // a save of this process in progress
        otherTarget: `other.l1sim.tmp-${dead}-0123456789ab`,
        notOurs: `net.l1sim.tmp-notes`,
      }
      for (const name of Object.values(left)) writeFileSync(`${dir}/${name}`, 'partial')
      await network.save(`${dir}/net.l1sim`)
      const { killed: _removed, ...kept } = left
      expect(readdirSync(dir).sort()).toEqual(['net.l1sim', ...Object.values(kept)].sort())
    } finally {
      running.kill('SIGKILL')
    }
  })

  it('Network.save writes the same snapshot as saveNetwork', async () => {
    const path = `${tmp.dir}/method.l1sim`
    const saved = await network.save(path)
    expect(saved.sha256).toBe(createHash('sha256').update(readFileSync(path)).digest('hex'))
    const { sha256: _a, path: _p, sizes: _s, ...info } = await inspectSnapshot(path)
    const { sha256: _b, path: _q, sizes: _t, ...first } = await inspectSnapshot(good)
    expect(info).toEqual(first)
  })
})
