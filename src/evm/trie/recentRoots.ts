import type { TrieNode } from './nodes.js'

/** How many recent roots are kept: a block's account and storage roots, a few blocks back. */
const RECENT_ROOTS = 64

/**
 * The last roots hashed by a trie and its copies (its storage tries), by database key: setting a
 * trie's root to one of them (a snapshot's revert, a storage trie made again after a revert)
 * takes the decoded nodes back instead of reading each one from the database again. Only roots
 * whose nodes reached the database are added. Nodes never change, so a root found here is
 * exactly the version its hash names.
 */
export class RecentRoots {
  readonly #roots = new Map<string, TrieNode>()

  get(key: string): TrieNode | undefined {
    return this.#roots.get(key)
  }

  add(key: string, node: TrieNode): void {
    this.#roots.delete(key)
    this.#roots.set(key, node)
    if (this.#roots.size > RECENT_ROOTS) this.#roots.delete(this.#roots.keys().next().value!)
  }
}
