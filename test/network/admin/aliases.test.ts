import { describe, expect, it } from 'vitest'
import { InvalidStateError, NotFoundError } from '../../../src/core/errors.js'
import {
  AliasInUseError,
  AliasNotFoundError,
  Aliaser,
  RouteConflictError,
  createNodeAliases,
  goPathJoin,
} from '../../../src/network/aliases.js'
import { NETWORK_PRESETS } from '../../../src/network/presets.js'
import { expectThrows } from '../../helpers/expectThrows.js'

const local = NETWORK_PRESETS.local
const P = local.pChainId
const X = local.xChainId
const C = local.cChainId
const L1 = '2Z36RnQuk1hvsnFeGWzfZUfXNr7w1SjzmDQ78YxfTVNAkDq3nZ'

function makeAliases() {
  return createNodeAliases({ pChainId: P, xChainId: X, cChainId: C, l1s: [{ name: 'dexalot', blockchainId: L1 }] })
}

describe('Aliaser (ids/aliases.go)', () => {
  it('looks up, aliases in insertion order and refuses a taken alias', () => {
    const aliaser = new Aliaser()
    aliaser.alias('id1', 'a')
    aliaser.alias('id1', 'b')
    aliaser.alias('id2', 'c')
    expect(aliaser.lookup('b')).toBe('id1')
    expect(aliaser.aliases('id1')).toEqual(['a', 'b'])
    expect(aliaser.aliases('nope')).toBeNull()
    expect(aliaser.primaryAlias('id2')).toBe('c')
    expect(aliaser.primaryAliasOrDefault('nope')).toBe('nope')
    expectThrows(() => aliaser.alias('id2', 'a'), AliasInUseError, 'alias already mapped to an ID: a')
    expectThrows(() => aliaser.lookup('zz'), AliasNotFoundError, 'there is no ID with alias: zz')
    expectThrows(() => aliaser.lookup(''), NotFoundError, 'there is no ID with alias: ')
    expectThrows(() => aliaser.primaryAlias('nope'), AliasNotFoundError, 'there is no alias for ID: nope')
    aliaser.removeAliases('id1')
    expect(aliaser.aliases('id1')).toBeNull()
    expectThrows(() => aliaser.lookup('a'), AliasNotFoundError, 'there is no ID with alias: a')
    expect(aliaser.ids()).toEqual(['id2'])
  })
})

describe('goPathJoin', () => {
  it('cleans as Go path.Join does', () => {
    expect(goPathJoin('bc', 'X')).toBe('bc/X')
    expect(goPathJoin('bc', '')).toBe('bc')
    expect(goPathJoin('bc', '../info')).toBe('info')
    expect(goPathJoin('bc', 'a//b/')).toBe('bc/a/b')
    expect(goPathJoin('bc', '/')).toBe('bc')
    expect(goPathJoin('bc', '..')).toBe('.')
    expect(goPathJoin('', '')).toBe('')
  })
})

describe('NodeAliases: initial state', () => {
  it('has the genesis chain aliases, each chain aliased to its own id last', () => {
    const aliases = makeAliases()
    expect(aliases.chains.aliases(P)).toEqual(['P', 'platform', P])
    expect(aliases.chains.aliases(X)).toEqual(['X', 'avm', X])
    expect(aliases.chains.aliases(C)).toEqual(['C', 'evm', C])
    expect(aliases.chains.aliases(L1)).toEqual(['dexalot', L1])
    expect(aliases.chains.lookup('evm')).toBe(C)
    expect(aliases.chains.lookup(X)).toBe(X)
    expect(aliases.chains.primaryAlias(L1)).toBe('dexalot')
  })

  it('routes the genesis HTTP aliases to the chain routes', () => {
    const aliases = makeAliases()
    expect(aliases.lookupRoute(`bc/${P}`)).toBe(`bc/${P}`)
    for (const path of ['P', 'platform', 'bc/P', 'bc/platform']) expect(aliases.lookupRoute(path)).toBe(`bc/${P}`)
    for (const path of ['X/wallet', 'avm/wallet', 'bc/X/wallet']) expect(aliases.lookupRoute(path)).toBe(`bc/${X}/wallet`)
    for (const path of ['bc/C/rpc', 'C/rpc', 'evm/rpc', 'bc/evm/rpc']) expect(aliases.lookupRoute(path)).toBe(`bc/${C}/rpc`)
    expect(aliases.lookupRoute('bc/C/ws')).toBe(`bc/${C}/ws`)
    expect(aliases.lookupRoute('bc/C/avax')).toBe(`bc/${C}/avax`)
    expect(aliases.lookupRoute('bc/dexalot/rpc')).toBe(`bc/${L1}/rpc`)
    expect(aliases.lookupRoute('bc/dexalot/validators')).toBe(`bc/${L1}/validators`)
    // avalanchego gives an L1 (config) alias no /ext/<alias> form, only /ext/bc/<alias>
    expect(aliases.lookupRoute('dexalot/rpc')).toBeUndefined()
    expect(aliases.lookupRoute('info')).toBe('info')
    expect(aliases.lookupRoute('health/readiness')).toBe('health/readiness')
    // exact match only: no trailing slash, no C-chain root, no admin unless enabled
    expect(aliases.lookupRoute('info/')).toBeUndefined()
    expect(aliases.lookupRoute('bc/C')).toBeUndefined()
    expect(aliases.lookupRoute('admin')).toBeUndefined()
    expect(aliases.resolveRoute('nowhere/rpc')).toBe('nowhere/rpc')
    expect(aliases.resolveRoute('C/rpc')).toBe(`bc/${C}/rpc`)
  })

  it('routes /ext/admin only when enabled', () => {
    const enabled = createNodeAliases({ pChainId: P, xChainId: X, cChainId: C, apiAdminEnabled: true })
    expect(enabled.lookupRoute('admin')).toBe('admin')
  })

  it('adds an L1 later, with its routes and aliases', () => {
    const aliases = makeAliases()
    const other = '2u8vG7c3dgpC3UnrwkGmhTabZ1hu5yx5APMBF3UUB1CeCdMFr2'
    aliases.addL1({ name: 'beam', blockchainId: other })
    expect(aliases.chains.aliases(other)).toEqual(['beam', other])
    expect(aliases.resolveRoute('bc/beam/ws')).toBe(`bc/${other}/ws`)
    expectThrows(() => aliases.addL1({ name: 'beam', blockchainId: L1 }), AliasInUseError, 'alias already mapped to an ID: beam')
  })
})

describe('NodeAliases: admin.alias (router.go)', () => {
  it('routes /ext/<alias> to the endpoint, original path kept', () => {
    const aliases = makeAliases()
    aliases.aliasEndpoint('bc/X', 'myAlias')
    expect(aliases.resolveRoute('myAlias')).toBe(`bc/${X}`)
    expect(aliases.resolveRoute('myAlias/wallet')).toBe(`bc/${X}/wallet`)
    expect(aliases.resolveRoute('bc/X')).toBe(`bc/${X}`)
    aliases.aliasEndpoint('bc/C', 'cc')
    expect(aliases.resolveRoute('cc/rpc')).toBe(`bc/${C}/rpc`)
  })

  it('refuses an alias that is already reserved', () => {
    const aliases = makeAliases()
    aliases.aliasEndpoint('bc/X', 'myAlias')
    expectThrows(
      () => aliases.aliasEndpoint('bc/C', 'myAlias'),
      RouteConflictError,
      'route is either already aliased or already maps to a handle: /ext/myAlias',
    )
    expectThrows(
      () => aliases.aliasEndpoint('info', 'bc/P'),
      RouteConflictError,
      'route is either already aliased or already maps to a handle: /ext/bc/P',
    )
    expect(aliases.resolveRoute('myAlias')).toBe(`bc/${X}`)
  })

  it('fails on a base route and keeps the reservation', () => {
    const aliases = makeAliases()
    expectThrows(() => aliases.aliasEndpoint('bc/P', 'info'), RouteConflictError, 'failed to create endpoint as /ext/info already exists')
    expect(aliases.resolveRoute('info')).toBe('info')
    expectThrows(
      () => aliases.aliasEndpoint('bc/C', 'info'),
      InvalidStateError,
      'route is either already aliased or already maps to a handle: /ext/info',
    )
  })

  it('copies the endpoints that do not collide (X has "" and /wallet; /ext/health has "")', () => {
    const aliases = makeAliases()
    expectThrows(() => aliases.aliasEndpoint('bc/X', 'health'), RouteConflictError, 'failed to create endpoint as /ext/health already exists')
    expect(aliases.resolveRoute('health')).toBe('health')
    expect(aliases.lookupRoute('health/wallet')).toBe(`bc/${X}/wallet`)
  })

  it('accepts any endpoint and applies the alias when a route appears there', () => {
    const aliases = makeAliases()
    aliases.aliasEndpoint('nothing/here', 'later')
    expect(aliases.lookupRoute('later')).toBeUndefined()
    aliases.addRoute('nothing/here', '/x')
    expect(aliases.lookupRoute('later/x')).toBe('nothing/here/x')
    // an alias of an alias follows too
    aliases.aliasEndpoint('later', 'later2')
    expect(aliases.lookupRoute('later2/x')).toBe('nothing/here/x')
    aliases.addRoute('nothing/here', '/y')
    expect(aliases.lookupRoute('later2/y')).toBe('nothing/here/y')
  })

  it('refuses a route on a reserved base and a route that exists', () => {
    const aliases = makeAliases()
    aliases.aliasEndpoint('bc/X', 'myAlias')
    expectThrows(() => aliases.addRoute('myAlias'), RouteConflictError, 'route is either already aliased or already maps to a handle: /ext/myAlias')
    expectThrows(() => aliases.addRoute('info'), RouteConflictError, 'failed to create endpoint as /ext/info already exists')
  })

  it('keeps the first registration of an URL (mux matches the first route)', () => {
    const aliases = makeAliases()
    aliases.aliasEndpoint('info', 'bc/X/wallet')
    expect(aliases.resolveRoute('bc/X/wallet')).toBe(`bc/${X}/wallet`)
  })
})

describe('NodeAliases: admin.aliasChain', () => {
  it('aliases by alias or id and routes /ext/bc/<alias>', () => {
    const aliases = makeAliases()
    aliases.aliasChain('C', 'cchain')
    aliases.aliasChain(X, 'exchange')
    expect(aliases.chains.aliases(C)).toEqual(['C', 'evm', C, 'cchain'])
    expect(aliases.chains.lookup('exchange')).toBe(X)
    expect(aliases.resolveRoute('bc/cchain/rpc')).toBe(`bc/${C}/rpc`)
    expect(aliases.resolveRoute('bc/exchange/wallet')).toBe(`bc/${X}/wallet`)
    expect(aliases.lookupRoute('cchain/rpc')).toBeUndefined()
    aliases.aliasChain('cchain', 'c2')
    expect(aliases.resolveRoute('bc/c2/ws')).toBe(`bc/${C}/ws`)
  })

  it('reports unknown chains and taken aliases', () => {
    const aliases = makeAliases()
    expectThrows(() => aliases.aliasChain('nope', 'x'), AliasNotFoundError, 'there is no ID with alias: nope')
    expectThrows(() => aliases.aliasChain('', 'x'), AliasNotFoundError, 'there is no ID with alias: ')
    expectThrows(() => aliases.aliasChain('C', 'X'), AliasInUseError, 'alias already mapped to an ID: X')
  })

  it('keeps the chain alias when the HTTP alias fails', () => {
    const aliases = makeAliases()
    aliases.aliasEndpoint('bc/P', 'bc/taken')
    expectThrows(
      () => aliases.aliasChain('C', 'taken'),
      RouteConflictError,
      'route is either already aliased or already maps to a handle: /ext/bc/taken',
    )
    expect(aliases.chains.lookup('taken')).toBe(C)
    expect(aliases.resolveRoute('bc/taken')).toBe(`bc/${P}`)
    // path.Join("bc", "../info") is "info": a base route
    expectThrows(() => aliases.aliasChain('P', '../info'), RouteConflictError, 'failed to create endpoint as /ext/info already exists')
    expect(aliases.chains.lookup('../info')).toBe(P)
    // the C-chain has no "" endpoint, so nothing collides: /ext/info/rpc becomes the C-chain's
    aliases.aliasChain('C', '../metrics')
    expect(aliases.resolveRoute('metrics/rpc')).toBe(`bc/${C}/rpc`)
    expect(aliases.resolveRoute('metrics')).toBe('metrics')
  })

  it('is per node', () => {
    const a = makeAliases()
    const b = makeAliases()
    a.aliasChain('C', 'mine')
    a.aliasEndpoint('bc/X', 'xx')
    expect(a.resolveRoute('bc/mine/rpc')).toBe(`bc/${C}/rpc`)
    expect(b.lookupRoute('bc/mine/rpc')).toBeUndefined()
    expect(b.lookupRoute('xx')).toBeUndefined()
    expectThrows(() => b.chains.lookup('mine'), AliasNotFoundError, 'there is no ID with alias: mine')
    b.aliasChain('X', 'mine')
    expect(b.chains.lookup('mine')).toBe(X)
  })
})
