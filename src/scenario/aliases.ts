import { isAlias, isCollection, isPair, isScalar, visit, type Alias, type Document, type LineCounter, type Node } from 'yaml'
import type { ScenarioIssue } from './errors.js'

/**
 * How many values a scenario's aliases may add once expanded. The checks and the runner read the
 * document with every alias replaced by what it names, so a few lines of nested aliases (a "billion
 * laughs") would otherwise become billions of values: minutes at full CPU before anything is
 * reported. Reusing a mapping or a list a few thousand times stays far below it.
 */
export const MAX_ALIAS_EXPANSION = 100_000

/** Each alias of the document and the node it names (null when no earlier anchor has its name). */
export type AliasTargets = Map<Alias, Node | null>

/**
 * Finds what every alias names (the last anchor of that name before it, as YAML reads it), and
 * refuses, with the alias' position, a document whose aliases would expand past
 * {@link MAX_ALIAS_EXPANSION} values or that names a value from inside itself. Sizes are computed
 * once per anchored node, so this costs the document's size, not its expansion.
 */
export function checkAliases(doc: Document, lines: LineCounter, file: string): { targets: AliasTargets; issues: ScenarioIssue[] } {
  const targets: AliasTargets = new Map()
  const anchors = new Map<string, Node>()
  visit(doc, {
    Node: (_key, node) => {
      if (isAlias(node)) targets.set(node, anchors.get(node.source) ?? null)
      else if (node.anchor) anchors.set(node.anchor, node)
    },
  })
  const issues: ScenarioIssue[] = []
  if (targets.size === 0) return { targets, issues }

  const issue = (node: Node, path: string, message: string) => {
    const { line, col } = lines.linePos(node.range?.[0] ?? 0)
    issues.push({ file, line, column: col, path, message })
  }
  // Expanded size of a node, memoized; `open` holds the nodes being measured, to find a cycle.
  const sizes = new Map<Node, number>()
  const open = new Set<Node>()
  const sizeOf = (node: Node | null): number => {
    if (node === null) return 1
    if (isAlias(node)) return sizeOf(targets.get(node) ?? null)
    const known = sizes.get(node)
    if (known !== undefined) return known
    if (open.has(node)) return Number.POSITIVE_INFINITY
    open.add(node)
    let size = 1
    if (isCollection(node))
      for (const item of node.items) size += isPair(item) ? sizeOf(item.key as Node | null) + sizeOf(item.value as Node | null) : sizeOf(item as Node)
    open.delete(node)
    sizes.set(node, size)
    return size
  }

  // Walk the document as written, each alias counting for what it expands to: the alias at which
  // the count passes the limit is the one reported.
  let added = 0
  const walk = (node: Node | null, path: string): boolean => {
    if (node === null || isScalar(node)) return true
    if (isAlias(node)) {
      const size = sizeOf(targets.get(node) ?? null)
      if (size === Number.POSITIVE_INFINITY) {
        issue(node, path, `alias *${node.source} names a value that contains it: it has no end`)
        return false
      }
      added += size - 1
      if (added > MAX_ALIAS_EXPANSION) {
        issue(node, path, `alias *${node.source} takes the document's aliases past ${MAX_ALIAS_EXPANSION} expanded values (nested aliases multiply); write the values out or reuse less`)
        return false
      }
      return true
    }
    if (!isCollection(node)) return true
    for (const [i, item] of node.items.entries()) {
      if (isPair(item)) {
        const key = item.key as Node | null
        const name = key !== null && isScalar(key) ? String(key.value) : String(i)
        if (!walk(key, path) || !walk(item.value as Node | null, path ? `${path}.${name}` : name)) return false
      } else if (!walk(item as Node, `${path}[${i}]`)) return false
    }
    return true
  }
  walk(doc.contents as Node | null, '')
  return { targets, issues }
}
