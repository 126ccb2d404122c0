/** keccak256 of the empty RLP string: the root of an empty trie (an account without storage). */
const EMPTY_ROOT = '56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421'
/** keccak256 of nothing: the code hash of an account without code. */
const EMPTY_CODE = 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470'
/** ethereumjs keeps code under `c` + its hash in the trie's database. */
const CODE_PREFIX = '63'

type Db = ReadonlyMap<string, string | Uint8Array>

/**
 * The part of a trie database that the given state roots reach: their account tries, the storage
 * tries and code of their accounts, each node yielded once with its key as the database has it.
 * Nodes are shared between versions of the state, so each is visited once however many roots
 * reach it. A root the database does not hold adds nothing.
 *
 * The walk runs in the network's own heap, where whatever outlives a young-generation collection
 * adds to the next full collection of all of it. So nodes are read in place (RLP items located by
 * offset in one reused buffer, never decoded into arrays), yielded as they are found (for the
 * caller to write out) rather than collected, and remembered by the database's own value objects
 * (a trie node's key is the hash of its value), never by new key strings.
 */
export function* reachableNodes(db: Db, roots: Iterable<string>): Generator<[string, string | Uint8Array]> {
  const seen = new Set<string | Uint8Array>()
  const seenCode = new Set<string | Uint8Array>()
  // Found but not yet read for children: their values, and whether they are in an account trie.
  const pending: (string | Uint8Array)[] = []
  const pendingAccounts: boolean[] = []
  const found: [string, string | Uint8Array][] = []
  const visit = (key: string, accounts: boolean) => {
    const value = db.get(key)
    if (value === undefined || seen.has(value)) return
    seen.add(value)
    pending.push(value)
    pendingAccounts.push(accounts)
    found.push([key, value])
  }
  let scratch = Buffer.allocUnsafe(4096)
  // The item at `at`: its payload's start and length, whether it is a list, and where it ends.
  let start = 0
  let length = 0
  let list = false
  let end = 0
  const item = (b: Buffer, at: number): number => {
    const p = b[at]!
    if (p < 0x80) {
      start = at
      length = 1
      list = false
    } else if (p <= 0xb7) {
      start = at + 1
      length = p - 0x80
      list = false
    } else if (p <= 0xbf) {
      start = at + 1 + (p - 0xb7)
      length = b.readUIntBE(at + 1, p - 0xb7)
      list = false
    } else if (p <= 0xf7) {
      start = at + 1
      length = p - 0xc0
      list = true
    } else {
      start = at + 1 + (p - 0xf7)
      length = b.readUIntBE(at + 1, p - 0xf7)
      list = true
    }
    if (at >= end || start + length > end) throw new RangeError('a trie node is cut short')
    return start + length
  }
  const account = (b: Buffer, at: number) => {
    item(b, at)
    let i = start
    const last = start + length
    for (let field = 0; field < 4 && i < last; field++) {
      i = item(b, i)
      if (length !== 32) continue
      if (field === 2) {
        const root = b.toString('hex', start, start + 32)
        if (root !== EMPTY_ROOT) visit(root, false)
      } else if (field === 3) {
        const code = b.toString('hex', start, start + 32)
        const key = CODE_PREFIX + code
        const value = code === EMPTY_CODE ? undefined : db.get(key)
        if (value !== undefined && !seenCode.has(value)) {
          seenCode.add(value)
          found.push([key, value])
        }
      }
    }
  }
  const child = (b: Buffer, accounts: boolean) => {
    if (list) node(b, start, start + length, accounts)
    else if (length === 32) visit(b.toString('hex', start, start + 32), accounts)
  }
  const node = (b: Buffer, from: number, last: number, accounts: boolean) => {
    let count = 0
    for (let i = from; i < last; count++) i = item(b, i)
    let i = from
    if (count === 17) {
      for (let n = 0; n < 16; n++) {
        i = item(b, i)
        const next = i
        child(b, accounts)
        i = next
      }
      item(b, i)
      if (accounts && !list && length > 0) account(b, start)
    } else if (count === 2) {
      i = item(b, i)
      const isLeaf = length > 0 && b[start]! >> 4 >= 2
      item(b, i)
      if (!isLeaf) child(b, accounts)
      else if (accounts && !list) account(b, start)
    }
  }
  for (const root of roots) if (root !== EMPTY_ROOT) visit(root, true)
  while (pending.length > 0) {
    for (const entry of found) yield entry
    found.length = 0
    const value = pending.pop()!
    const accounts = pendingAccounts.pop()!
    let b: Buffer
    if (typeof value === 'string') {
      if (scratch.length < value.length >>> 1) scratch = Buffer.allocUnsafe(value.length)
      end = scratch.write(value, 0, 'hex')
      b = scratch
    } else {
      b = Buffer.from(value.buffer, value.byteOffset, value.byteLength)
      end = b.length
    }
    item(b, 0)
    if (list) node(b, start, start + length, accounts)
  }
  for (const entry of found) yield entry
}
