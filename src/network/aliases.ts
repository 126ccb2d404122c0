import { posix } from 'node:path'
import { InvalidStateError, NotFoundError } from '../core/errors.js'

/**
 * A node's two alias tables, kept apart as avalanchego keeps them:
 *
 * - the chain aliaser (`ids/aliases.go`), which names chains (`X`, `avm`, an L1's name, the id
 *   itself) for `info.getBlockchainID`, `admin.getChainAliases` and loggers;
 * - the HTTP router (`api/server/router.go`), which maps `/ext/<alias>` to the handlers of
 *   another route, so `/ext/bc/C/rpc` and `/ext/C/rpc` serve what `/ext/bc/<C id>/rpc` serves.
 *
 * Every node owns one {@link NodeAliases}; an alias given on one node does not exist on the others.
 * Paths in this API are what follows `/ext/` (`bc/X`, `info`, `myAlias/rpc`), as in the admin API.
 */

/** `ids.ErrNoIDWithAlias` and friends, with avalanchego's texts (`"%w: %s"`). */
export class AliasNotFoundError extends NotFoundError {
  override name = 'AliasNotFoundError'
}

export class AliasInUseError extends InvalidStateError {
  override name = 'AliasInUseError'
}

/** A route could not be added or aliased (`router.go`); the message is the node's. */
export class RouteConflictError extends InvalidStateError {
  override name = 'RouteConflictError'
}

/**
 * `ids.Aliaser` (chains and VMs alike): an id has any number of aliases, an alias names one id. Ids are cb58 strings
 * (one string per 32 bytes, so they key a Map as `ids.ID` keys a Go map).
 */
export class Aliaser {
  private readonly byAlias = new Map<string, string>()
  private readonly byId = new Map<string, string[]>()

  /** `Lookup`: the id named by an alias; every chain is aliased to its own id string too. */
  lookup(alias: string): string {
    const id = this.byAlias.get(alias)
    if (id === undefined) throw new AliasNotFoundError(`there is no ID with alias: ${alias}`)
    return id
  }

  /** `Alias`: appends `alias` to the id's aliases; an alias already taken (by any id) is refused. */
  alias(id: string, alias: string): void {
    if (this.byAlias.has(alias)) throw new AliasInUseError(`alias already mapped to an ID: ${alias}`)
    this.byAlias.set(alias, id)
    const list = this.byId.get(id)
    if (list) list.push(alias)
    else this.byId.set(id, [alias])
  }

  /** `Aliases`: in insertion order, or `null` for an id without aliases (Go's nil slice → JSON `null`). */
  aliases(id: string): string[] | null {
    const list = this.byId.get(id)
    return list ? [...list] : null
  }

  /** `PrimaryAlias`: the first alias. */
  primaryAlias(id: string): string {
    const first = this.byId.get(id)?.[0]
    if (first === undefined) throw new AliasNotFoundError(`there is no alias for ID: ${id}`)
    return first
  }

  /** `PrimaryAliasOrDefault`: the first alias, or the id itself. */
  primaryAliasOrDefault(id: string): string {
    return this.byId.get(id)?.[0] ?? id
  }

  /** `RemoveAliases`. */
  removeAliases(id: string): void {
    for (const alias of this.byId.get(id) ?? []) this.byAlias.delete(alias)
    this.byId.delete(id)
  }

  /** Every id with at least one alias, in the order they got their first. */
  ids(): string[] {
    return [...this.byId.keys()]
  }
}

/** Where avalanchego mounts every API (`api/server/server.go` `baseURL`). */
const BASE_URL = '/ext'

/**
 * The router's alias bookkeeping (`api/server/router.go`), without handlers: a route is a base
 * (`/ext/bc/<id>`, `/ext/info`) plus an endpoint (`/rpc`, `''`), and what it serves is named by
 * its *target*, the path of the route that was first registered (`bc/<id>/rpc`). An alias base
 * gets a copy of each endpoint of its base, now and whenever a route appears there later.
 *
 * Reproduced on purpose: aliases are reserved before routes are copied and stay reserved when a
 * copy fails; base routes are not reserved, so aliasing onto `info` fails only when the copy
 * finds the endpoint taken; an URL registered twice keeps serving the first registration (mux
 * matches the first route).
 */
export class HttpRouter {
  private readonly reserved = new Set<string>()
  private readonly aliasesOf = new Map<string, string[]>()
  private readonly routes = new Map<string, Map<string, string>>()
  private readonly byUrl = new Map<string, string>()

  /** `AddRouter`, as `server.AddRoute(handler, base, endpoint)` calls it: `base` after `/ext/`. */
  addRoute(base: string, endpoint: string): void {
    const url = `${BASE_URL}/${base}`
    if (this.reserved.has(url))
      throw new RouteConflictError(`route is either already aliased or already maps to a handle: ${url}`)
    const error = this.forceAdd(url, endpoint, `${base}${endpoint}`)
    if (error) throw new RouteConflictError(error)
  }

  /** `server.AddAliases(endpoint, ...aliases)`: both after `/ext/`, not validated or cleaned. */
  addAliases(base: string, ...aliases: string[]): void {
    const baseUrl = `${BASE_URL}/${base}`
    const aliasUrls = aliases.map((alias) => `${BASE_URL}/${alias}`)
    for (const url of aliasUrls)
      if (this.reserved.has(url))
        throw new RouteConflictError(`route is either already aliased or already maps to a handle: ${url}`)
    for (const url of aliasUrls) this.reserved.add(url)
    this.aliasesOf.set(baseUrl, [...(this.aliasesOf.get(baseUrl) ?? []), ...aliasUrls])

    let error: string | undefined
    for (const [endpoint, target] of this.routes.get(baseUrl) ?? [])
      for (const url of aliasUrls) {
        const inner = this.forceAdd(url, endpoint, target)
        error ??= inner
      }
    if (error) throw new RouteConflictError(error)
  }

  /** Every `addAliases` so far as `[base, aliases]` (both after `/ext/`), in order: what a file snapshot keeps. */
  aliasList(): [string, string[]][] {
    const strip = (url: string) => url.slice(BASE_URL.length + 1)
    return [...this.aliasesOf].map(([base, aliases]) => [strip(base), aliases.map(strip)])
  }

  /** What serves `/ext/<path>` (exact match, as gorilla/mux without strict slash), by its target. */
  lookup(path: string): string | undefined {
    return this.byUrl.get(`${BASE_URL}/${path}`)
  }

  /** `forceAddRouter`: returns the first error instead of throwing, as the Go code collects it. */
  private forceAdd(baseUrl: string, endpoint: string, target: string): string | undefined {
    let endpoints = this.routes.get(baseUrl)
    const url = baseUrl + endpoint
    if (endpoints?.has(endpoint)) return `failed to create endpoint as ${url} already exists`
    if (!endpoints) this.routes.set(baseUrl, (endpoints = new Map()))
    endpoints.set(endpoint, target)
    if (!this.byUrl.has(url)) this.byUrl.set(url, target)

    let error: string | undefined
    for (const alias of this.aliasesOf.get(baseUrl) ?? []) {
      const inner = this.forceAdd(alias, endpoint, target)
      error ??= inner
    }
    return error
  }
}

/** `constants.ChainAliasPrefix`. */
export const CHAIN_ALIAS_PREFIX = 'bc'

/** Go's `path.Join`: joins, cleans, and drops a trailing slash (node's join keeps it). */
export function goPathJoin(...parts: string[]): string {
  const joined = parts.filter((part) => part !== '').join('/')
  if (joined === '') return ''
  const cleaned = posix.normalize(joined)
  return cleaned.length > 1 && cleaned.endsWith('/') ? cleaned.slice(0, -1) : cleaned
}

/** Endpoints each kind of chain serves under `/ext/bc/<id>` (the VMs' `CreateHandlers`). */
export const CHAIN_ENDPOINTS = {
  platform: [''],
  avm: ['', '/wallet'],
  evm: ['/rpc', '/ws', '/avax'],
  subnetevm: ['/rpc', '/ws', '/validators'],
} as const satisfies Record<string, readonly string[]>

/** Routes a node serves outside chains (`node.go` `init*API`); `admin` only when enabled. */
export const NODE_BASE_ROUTES: readonly { base: string; endpoint: string }[] = [
  { base: 'info', endpoint: '' },
  { base: 'health', endpoint: '' },
  { base: 'health', endpoint: '/health' },
  { base: 'health', endpoint: '/readiness' },
  { base: 'health', endpoint: '/liveness' },
  { base: 'metrics', endpoint: '' },
]

/** A chain as the node registers it. */
export type ChainRegistration = {
  /** cb58 blockchain id. */
  id: string
  /** Chain aliases before the id itself (which is appended last, as `chains/manager.go` does). */
  aliases: readonly string[]
  /** HTTP aliases of `bc/<id>` (`P`, `platform`, `bc/P`, `bc/platform` for the P-chain). */
  httpAliases: readonly string[]
  /** Endpoints under `/ext/bc/<id>`: `''`, `/rpc`, `/ws`… */
  endpoints: readonly string[]
}

export type NodeAliasesOptions = {
  /** The primary network's chain ids (a network preset has them). */
  pChainId: string
  xChainId: string
  cChainId: string
  /** L1 chains: chain aliases `[name, id]`, and `/ext/bc/<name>` as an HTTP alias. */
  l1s?: readonly { name: string; blockchainId: string }[]
  /** Whether `/ext/admin` is routed (`--api-admin-enabled`). */
  apiAdminEnabled?: boolean
  /** Replaces {@link NODE_BASE_ROUTES}. */
  baseRoutes?: readonly { base: string; endpoint: string }[]
}

/**
 * One node's aliases: the chain aliaser, the HTTP router, and the two admin operations on them.
 *
 * Initial state, as a node has it after `initChainAliases`, `initAPIAliases` and chain creation:
 * P → `["P","platform",id]`, X → `["X","avm",id]`, C → `["C","evm",id]`, each L1 →
 * `[name, id]`; HTTP aliases of `bc/<id>`: `P, platform, bc/P, bc/platform` (likewise X, C), and
 * `bc/<name>` for an L1. The L1 HTTP alias is the emulator's: avalanchego gives chain aliases from
 * its aliases file no HTTP alias, but `/ext/bc/<name>/rpc` is how this emulator names an L1.
 */
export class NodeAliases {
  readonly chains = new Aliaser()
  readonly router = new HttpRouter()

  constructor(options: NodeAliasesOptions) {
    for (const route of options.baseRoutes ?? NODE_BASE_ROUTES) this.router.addRoute(route.base, route.endpoint)
    if (options.apiAdminEnabled) this.router.addRoute('admin', '')
    const genesis = [
      { id: options.pChainId, aliases: ['P', 'platform'], endpoints: CHAIN_ENDPOINTS.platform },
      { id: options.xChainId, aliases: ['X', 'avm'], endpoints: CHAIN_ENDPOINTS.avm },
      { id: options.cChainId, aliases: ['C', 'evm'], endpoints: CHAIN_ENDPOINTS.evm },
    ]
    for (const chain of genesis)
      this.addChain({
        ...chain,
        httpAliases: [...chain.aliases, ...chain.aliases.map((alias) => goPathJoin(CHAIN_ALIAS_PREFIX, alias))],
      })
    for (const l1 of options.l1s ?? []) this.addL1(l1)
  }

  /**
   * Registers a chain: its aliases then its own id (the node's order: genesis/config aliases at
   * init, the self-alias when the chain is created), HTTP aliases before routes, so the alias
   * routes appear with the chain's routes.
   */
  addChain(chain: ChainRegistration): void {
    for (const alias of chain.aliases) this.chains.alias(chain.id, alias)
    this.chains.alias(chain.id, chain.id)
    const base = goPathJoin(CHAIN_ALIAS_PREFIX, chain.id)
    if (chain.httpAliases.length > 0) this.router.addAliases(base, ...chain.httpAliases)
    for (const endpoint of chain.endpoints) this.router.addRoute(base, endpoint)
  }

  /** An L1's subnet-EVM chain: aliases `[name, id]`, `/ext/bc/<name>` → `/ext/bc/<id>`. */
  addL1(l1: { name: string; blockchainId: string }): void {
    this.addChain({
      id: l1.blockchainId,
      aliases: [l1.name],
      httpAliases: [goPathJoin(CHAIN_ALIAS_PREFIX, l1.name)],
      endpoints: CHAIN_ENDPOINTS.subnetevm,
    })
  }

  /** A route the node serves outside chains (`AddRoute`); aliases of `base` get it too. */
  addRoute(base: string, endpoint = ''): void {
    this.router.addRoute(base, endpoint)
  }

  /** What `admin.alias` does (after its length check): `/ext/<alias>` serves `/ext/<endpoint>`. */
  aliasEndpoint(endpoint: string, alias: string): void {
    this.router.addAliases(endpoint, alias)
  }

  /**
   * What `admin.aliasChain` does (after its length check): looks the chain up (alias or id),
   * aliases it, then routes `/ext/bc/<alias>`. A failure of the HTTP step leaves the chain alias.
   */
  aliasChain(chain: string, alias: string): void {
    const id = this.chains.lookup(chain)
    this.chains.alias(id, alias)
    this.router.addAliases(goPathJoin(CHAIN_ALIAS_PREFIX, id), goPathJoin(CHAIN_ALIAS_PREFIX, alias))
  }

  /**
   * The canonical path of what serves `/ext/<path>` (`path` without `/ext/` and without a query),
   * or `undefined` when nothing does (a 404). `myAlias/rpc` → `bc/<id>/rpc`, `bc/C/rpc` →
   * `bc/<C id>/rpc`, `P` → `bc/11111111111111111111111111111111LpoYY`, `info` → `info`.
   */
  lookupRoute(path: string): string | undefined {
    return this.router.lookup(path)
  }

  /** {@link lookupRoute}, or `path` unchanged when no route matches. */
  resolveRoute(path: string): string {
    return this.router.lookup(path) ?? path
  }
}

export function createNodeAliases(options: NodeAliasesOptions): NodeAliases {
  return new NodeAliases(options)
}
