import Fastify, { type FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { dataRoutes, type DataRoutesOptions, type DataSource, type V1Routes } from '../../../src/api/routes/data/index.js'

const source: DataSource = { networkId: 12345, chains: () => [], listBlocks: () => ({ items: [] }) }

/** Routes that answer like operations, with bodies the schemas refuse. */
const badRoutes: V1Routes = (app) => {
  app.get('/chains/:chainId/tokens/:address/transfers', async () => ({ transfers: [{ blockNumber: 1 }] }))
  app.get('/networks/:network/l1Validators', async (_request, reply) => reply.code(400).send({ msg: 'no' }))
  app.get('/chains/:chainId/nfts/collections/:address/tokens', async () => ({ tokens: [] }))
}

let app: FastifyInstance | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
  vi.unstubAllEnvs()
})

async function build(options: Partial<DataRoutesOptions> = {}) {
  const logged: unknown[] = []
  app = Fastify({ logger: { level: 'error', stream: { write: (line: string) => logged.push(JSON.parse(line)) } } })
  app.register(dataRoutes, { source, routes: [badRoutes], ...options })
  await app.ready()
  return { app, logged }
}

describe('response validation (the onSend hook)', () => {
  it('turns a 2xx body that breaks its schema into a 500 naming the operation and the errors, and logs it', async () => {
    const { app, logged } = await build({ validateResponses: true })
    const res = await app.inject('/v1/chains/43112/tokens/0x00/transfers')
    expect(res.statusCode).toBe(500)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    const body = res.json() as { message: string[]; statusCode: number; error: string }
    expect(body.statusCode).toBe(500)
    expect(body.error).toBe('Internal Server Error')
    expect(body.message[0]).toBe('The response of listTransfers (status 200) does not match the Glacier schema')
    expect(body.message).toContain('/transfers/0/blockNumber must be string')
    expect(body.message).toContain("/transfers/0 must have required property 'blockHash'")
    expect(logged).toEqual([expect.objectContaining({ msg: 'data API response does not match its schema', operationId: 'listTransfers', statusCode: 200 })])
  })

  it('checks error bodies against the error schema', async () => {
    const { app } = await build({ validateResponses: true })
    const res = await app.inject('/v1/networks/fuji/l1Validators')
    expect(res.statusCode).toBe(500)
    expect(res.json()).toEqual({
      message: [
        'The response of listL1Validators (status 400) does not match the Glacier schema',
        "/ must have required property 'message'",
        "/ must have required property 'statusCode'",
        "/ must have required property 'error'",
        '/ must NOT have additional properties (msg)',
      ],
      statusCode: 500,
      error: 'Internal Server Error',
    })
  })

  it('passes conforming bodies and the framework errors unchanged', async () => {
    const { app } = await build({ validateResponses: true })
    expect((await app.inject('/v1/chains/1/nfts/collections/0x00/tokens')).json()).toEqual({ tokens: [] })
    expect((await app.inject('/v1/chains')).json()).toEqual({ chains: [] })
    const miss = await app.inject('/v1/nowhere')
    expect(miss.statusCode).toBe(404)
    expect(miss.json()).toEqual({ message: 'Cannot GET /v1/nowhere', statusCode: 404, error: 'Not Found' })
    expect((await app.inject('/v1/chains?network=nowhere')).statusCode).toBe(400)
  })

  it('is off when told, and follows L1SIM_VALIDATE_RESPONSES otherwise', async () => {
    let built = await build({ validateResponses: false })
    expect((await built.app.inject('/v1/chains/1/tokens/0x00/transfers')).statusCode).toBe(200)
    await built.app.close()

    vi.stubEnv('L1SIM_VALIDATE_RESPONSES', '1')
    built = await build()
    expect((await built.app.inject('/v1/chains/1/tokens/0x00/transfers')).statusCode).toBe(500)
    await built.app.close()

    vi.stubEnv('L1SIM_VALIDATE_RESPONSES', '')
    built = await build()
    expect((await built.app.inject('/v1/chains/1/tokens/0x00/transfers')).statusCode).toBe(200)
    await built.app.close()

    // A network's dataApi.validateResponses wins over the environment.
    vi.stubEnv('L1SIM_VALIDATE_RESPONSES', '1')
    built = await build({ network: { clock: { nowMs: () => 0 }, dataApi: { validateResponses: false } } })
    expect((await built.app.inject('/v1/chains/1/tokens/0x00/transfers')).statusCode).toBe(200)
  })

  it('is on in this test suite (vitest.config.ts sets the environment)', () => {
    expect(process.env['L1SIM_VALIDATE_RESPONSES']).toBe('1')
  })
})
