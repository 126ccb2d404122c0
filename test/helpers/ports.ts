import { createServer, type AddressInfo, type Server } from 'node:net'

/**
 * A free port whose next node's port (+2: node i listens on port + 2i) is held by a plain server,
 * so a start there binds node 0 and fails on node 1. Pairs where either port is someone else's
 * are skipped. The caller closes `blocker`.
 */
export async function portWithNextNodeTaken(): Promise<{ port: number; blocker: Server }> {
  const listen = (port: number) =>
    new Promise<Server | undefined>((resolve) => {
      const server = createServer()
      server.once('error', () => resolve(undefined))
      server.listen(port, '127.0.0.1', () => resolve(server))
    })
  for (;;) {
    const blocker = (await listen(0))!
    const port = (blocker.address() as AddressInfo).port - 2
    const probe = port > 0 ? await listen(port) : undefined
    if (probe) {
      await new Promise((resolve) => probe.close(resolve))
      return { port, blocker }
    }
    blocker.close()
  }
}
