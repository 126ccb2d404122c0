/**
 * A node's own APIs, each a gorilla JSON-RPC endpoint (`nodeRpc.ts`): the P-chain's `platform`, the
 * X-chain's `avm` and the C-chain's atomic `avax` services, `/ext/admin` (only with
 * `apiAdminEnabled`), `/ext/info`, `/ext/health` (GET reports, other methods JSON-RPC) with
 * `/ext/health/{health,readiness,liveness}`, `/ext/bc/<L1>/validators`, and the emulator's
 * network-control service `/ext/sim` (unless the server turns it off). Every route reads the node
 * it is served by.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { HEALTH_GET_ROUTES, healthGet } from '../../network/health.js'
import type { Network } from '../../network/network.js'
import type { SimNode } from '../../network/node.js'
import { simulatedVms } from '../../network/version.js'
import { adminService, type AdminContext } from '../../rpc/node/admin/index.js'
import { createNodeDispatcher } from '../../rpc/node/dispatcher.js'
import { healthService } from '../../rpc/node/health/index.js'
import { infoService, type InfoContext, type InfoNodeView } from '../../rpc/node/info/index.js'
import { simService, type SimContext } from '../../rpc/node/sim/index.js'
import { platformService, type PlatformContext } from '../../rpc/node/platform/index.js'
import { avmService, type AvmContext } from '../../rpc/node/avm/index.js'
import { avaxService, type AvaxContext } from '../../rpc/node/avax/index.js'
import { validatorsService, type ValidatorsContext } from '../../rpc/node/validators/index.js'
import { readBody, sendGoError } from './evm.js'
import { NODE_RPC_MAX_REQUEST_BYTES, nodeRpcRefusal, nodeRpcRoute, sendNodeRpcRefusal, serveNodeRpc } from './nodeRpc.js'

export type NodeRoutesOptions = {
  network: Network
  node: SimNode
  /** Whether `/ext/sim` is served (default true). */
  apiSimEnabled?: boolean
  /** The absolute directory `sim.saveSnapshot` writes in. */
  snapshotDir: string
}

export const nodeRoutes: FastifyPluginAsync<NodeRoutesOptions> = async (app, { network, node, apiSimEnabled = true, snapshotDir }) => {
  const infoView = (n: SimNode): InfoNodeView => ({
    index: n.index,
    nodeId: n.nodeId,
    identity: n.identity,
    stakingPort: n.stakingPort,
    uptime: n.uptime(),
  })
  const vmVersions = new Map(simulatedVms().map((vm) => [vm.id, vm.version]))
  const infoContext: InfoContext = {
    network,
    node: {
      ...infoView(node),
      get stakingPort() {
        return node.stakingPort
      },
      isConnected: (peer) => node.isConnected(peer),
      lookupChain: (alias) => node.lookupChain(alias),
      isBootstrapped: () => !node.bootstrapping,
      vms: () => node.vms.entries().map((vm) => ({ ...vm, ...(vmVersions.has(vm.id) ? { version: vmVersions.get(vm.id)! } : {}) })),
    },
    peer: (index) => infoView(network.nodes[index]!),
  }
  const adminContext: AdminContext = {
    node: { aliases: node.aliases, loggers: node.loggers, profiler: node.profiler, vms: node.vms, config: node.config, dataDir: node.config.dataDir },
  }
  const simContext: SimContext = { network, node, snapshotDir }
  const platformContext: PlatformContext = {
    pchain: network.primary.pchain,
    uptime: (nodeId, startTime) => ({
      uptime: node.uptime().uptimeFraction(nodeId, network.clock.now(), startTime) ?? 1,
      connected: node.isConnectedTo(nodeId) || !network.node(nodeId),
    }),
    lookupChain: (alias) => node.lookupChain(alias),
    now: () => network.clock.now(),
    sharedMemory: network.primary.sharedMemory,
    issue: (signed) => network.issuePChainTx(signed),
  }
  const avmContext: AvmContext = { xchain: network.primary.xchain, lookupChain: (alias) => node.lookupChain(alias) }
  // The P- and X-chain APIs live at their chains' paths; `/ext/P`, `/ext/bc/platform`… reach them through the node's aliases.
  const platform = createNodeDispatcher<PlatformContext>({ services: { platform: platformService } })
  app.register(nodeRpcRoute({ url: `/ext/bc/${network.preset.pChainId}`, dispatcher: platform, context: () => platformContext }))
  const avm = createNodeDispatcher<AvmContext>({ services: { avm: avmService } })
  app.register(nodeRpcRoute({ url: `/ext/bc/${network.preset.xChainId}`, dispatcher: avm, context: () => avmContext }))
  // coreth's atomic API beside the C-chain's EVM endpoints (`/ext/bc/C/avax` through the aliases).
  const avaxContext: AvaxContext = {
    cAtomic: network.primary.cAtomic,
    issue: (bytes) => network.primary.issueCAtomicTx(bytes),
    lookupChain: (alias) => node.lookupChain(alias),
  }
  const avax = createNodeDispatcher<AvaxContext>({ services: { avax: avaxService } })
  app.register(nodeRpcRoute({ url: `/ext/bc/${network.preset.cChainId}/avax`, dispatcher: avax, context: () => avaxContext }))

  if (node.config.apiAdminEnabled) {
    const admin = createNodeDispatcher<AdminContext>({ services: { admin: adminService } })
    app.register(nodeRpcRoute({ url: '/ext/admin', dispatcher: admin, context: () => adminContext }))
  }
  const info = createNodeDispatcher<InfoContext>({ services: { info: infoService } })
  app.register(nodeRpcRoute({ url: '/ext/info', dispatcher: info, context: () => infoContext }))
  if (apiSimEnabled) {
    const sim = createNodeDispatcher<SimContext>({ services: { sim: simService } })
    app.register(nodeRpcRoute({ url: '/ext/sim', dispatcher: sim, context: () => simContext }))
  }

  const validators = createNodeDispatcher<ValidatorsContext>({ services: { validators: validatorsService } })
  app.register(
    nodeRpcRoute({
      url: '/ext/bc/:chain/validators',
      dispatcher: validators,
      context: (request) => request.validatorsContext!,
    }),
  )
  // Only subnet-EVM chains serve a validators API; the C-chain (coreth) has none.
  app.decorateRequest('validatorsContext', null)
  app.addHook('onRequest', async (request, reply) => {
    const match = /^\/ext\/bc\/([^/?]+)\/validators(?:\?|$)/.exec(request.url)
    if (!match) return undefined
    const l1 = network.l1(match[1]!)
    if (!l1) return sendGoError(reply, 404, '404 page not found\n')
    request.validatorsContext = {
      subnetId: l1.subnetId,
      validators: network.validators,
      clock: network.clock,
      uptime: node.uptime(l1.subnetId),
      isConnected: (nodeId) => node.isConnectedTo(nodeId),
    }
    return undefined
  })

  // Health: GET reports on every path; `/ext/health` takes JSON-RPC for any other method.
  const health = createNodeDispatcher<{ health: SimNode['health'] }>({ services: { health: healthService } })
  const healthContext = { health: node.health }
  const report = (request: FastifyRequest, reply: FastifyReply, worker: 'health' | 'readiness' | 'liveness') => {
    const { status, body } = healthGet(node.health.worker(worker), tagsOf(request.url))
    // Go's `w.Header().Set("Content-Type", "application/json")`, bare: a Buffer keeps fastify from adding `; charset=utf-8`.
    return reply.code(status).header('content-type', 'application/json').send(Buffer.from(body, 'utf8'))
  }
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', (_request, payload, done) => {
      readBody(payload, NODE_RPC_MAX_REQUEST_BYTES).then((body) => done(null, body), done)
    })
    for (const [url, worker] of Object.entries(HEALTH_GET_ROUTES)) {
      if (url === '/ext/health') {
        scope.route({
          method: scope.supportedMethods,
          url,
          exposeHeadRoute: false,
          onRequest: async (request, reply) => {
            if (request.method === 'GET') return undefined
            const refusal = nodeRpcRefusal(request.method, request.headers['content-type'])
            return refusal ? sendNodeRpcRefusal(reply, refusal) : undefined
          },
          handler: (request, reply) => (request.method === 'GET' ? report(request, reply, worker) : serveNodeRpc(request, reply, health, healthContext)),
        })
      } else {
        scope.route({ method: scope.supportedMethods, url, exposeHeadRoute: false, handler: (request, reply) => report(request, reply, worker) })
      }
    }
  })
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The validators API's context for the L1 the URL names. */
    validatorsContext: ValidatorsContext | null
  }
}

/** Go's `r.URL.Query()["tag"]`: every `tag` value, in order. */
function tagsOf(url: string): string[] {
  const q = url.indexOf('?')
  return q < 0 ? [] : new URLSearchParams(url.slice(q + 1)).getAll('tag')
}
