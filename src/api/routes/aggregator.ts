/**
 * `/aggregate-signatures`, the API of ava-labs' signature-aggregator (icm-services
 * `signature-aggregator/api`): a JSON body `{message, justification, signing-subnet-id,
 * quorum-percentage}` answered `{"signed-message": "<hex, no 0x>"}`, or `{"error": …}` with 400
 * for a request it cannot read and 500 for an aggregation that failed. Like Go's `http.Handle`, any
 * method is served. Served on every node's server (so the Host filter and CORS apply).
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify'
import { AggregationError, type AggregateSignaturesRequest } from '../../network/aggregator.js'
import type { Network } from '../../network/network.js'
import { readBody } from './evm.js'

export const AGGREGATE_SIGNATURES_PATH = '/aggregate-signatures'
const MAX_BODY_BYTES = 16 * 1024 * 1024

/** The request's fields by their JSON names (Go matches names case-insensitively). */
const FIELDS = ['message', 'justification', 'signing-subnet-id', 'quorum-percentage', 'pchain-height'] as const
type Field = (typeof FIELDS)[number]

export const aggregatorRoutes: FastifyPluginAsync<{ network: Network }> = async (app, { network }) => {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', (_request, payload, done) => {
    readBody(payload, MAX_BODY_BYTES).then((body) => done(null, body), done)
  })
  app.route({
    method: app.supportedMethods,
    url: AGGREGATE_SIGNATURES_PATH,
    exposeHeadRoute: false,
    handler: (request, reply) => {
      try {
        const signed = network.aggregateSignatures(parseRequest(typeof request.body === 'string' ? request.body : ''))
        return sendJson(reply, 200, { 'signed-message': Buffer.from(signed).toString('hex') })
      } catch (error) {
        if (error instanceof AggregationError) return sendJson(reply, error.status, { error: error.shortMessage })
        throw error
      }
    },
  })
}

/** Go's `json.Decoder.Decode` into `AggregateSignatureRequest`, then the handler's hex decoding. */
export function parseRequest(body: string): AggregateSignaturesRequest {
  const bad = (message: string) => new AggregationError(message, 400)
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch {
    throw bad('Could not decode request body')
  }
  if (json !== null && (typeof json !== 'object' || Array.isArray(json))) throw bad('Could not decode request body')
  const fields: Partial<Record<Field, unknown>> = {}
  for (const [key, value] of Object.entries(json ?? {})) {
    const field = FIELDS.find((f) => f === key.toLowerCase())
    if (field !== undefined && value !== null) fields[field] = value
  }
  for (const name of ['message', 'justification', 'signing-subnet-id'] as const)
    if (fields[name] !== undefined && typeof fields[name] !== 'string') throw bad('Could not decode request body')
  for (const name of ['quorum-percentage', 'pchain-height'] as const) {
    const value = fields[name]
    if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value >= 2 ** 64)) throw bad('Could not decode request body')
  }
  const request: AggregateSignaturesRequest = {
    message: (fields.message as string | undefined) ?? '',
    justification: (fields.justification as string | undefined) ?? '',
    quorumPercentage: (fields['quorum-percentage'] as number | undefined) ?? 0,
  }
  const subnet = fields['signing-subnet-id'] as string | undefined
  if (subnet) request.signingSubnetId = subnet
  return request
}

/** Go's `w.Header().Set("Content-Type", "application/json")` and `json.Marshal`'s bytes. */
function sendJson(reply: FastifyReply, status: number, body: object): FastifyReply {
  return reply.code(status).header('content-type', 'application/json').send(Buffer.from(JSON.stringify(body), 'utf8'))
}
