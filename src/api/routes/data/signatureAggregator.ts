/**
 * The data API's signature aggregator, `POST /v1/signatureAggregator/{network}/aggregateSignatures`
 * (operation `aggregateSignatures`): the hosted service fronts an icm-services aggregator, so the
 * body is `SignatureAggregatorRequest` in camelCase and the answer 201 `{signedMessage}` (hex, no
 * `0x`); the aggregator's refusals keep its words, in the data API's error body (400 a request it
 * cannot read, 500 an aggregation that failed). A hosted network name that is not this network's
 * has an aggregator that knows none of this network's chains.
 */
import type { FastifyInstance } from 'fastify'
import { AggregationError, type AggregateSignaturesRequest } from '../../../network/aggregator.js'
import type { Network } from '../../../network/network.js'
import { badRequest, DataApiError } from './errors.js'
import type { V1Routes } from './index.js'
import { acceptedNetworkNames, namesNetwork } from './networks.js'

export type SignatureAggregationResponse = { signedMessage: string }

const STRING_FIELDS = ['message', 'justification', 'signingSubnetId'] as const
const NUMBER_FIELDS = ['quorumPercentage', 'quorumPercentageBuffer', 'pChainHeight'] as const

/** Operation `aggregateSignatures` on `network`. */
export function signatureAggregatorDataRoutes(network: Network): V1Routes {
  return (app: FastifyInstance) => {
    app.post<{ Params: { network: string } }>('/signatureAggregator/:network/aggregateSignatures', async (request, reply): Promise<SignatureAggregationResponse> => {
      const errors: string[] = []
      const accepted = acceptedNetworkNames(network.preset.networkId)
      if (!accepted.includes(request.params.network)) errors.push(`network must be one of the following values: ${accepted.join(', ')}`)
      const body = (request.body ?? {}) as Record<string, unknown>
      if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('request body must be an object')
      for (const name of STRING_FIELDS) if (body[name] !== undefined && typeof body[name] !== 'string') errors.push(`${name} must be a string`)
      for (const name of NUMBER_FIELDS)
        if (body[name] !== undefined && (typeof body[name] !== 'number' || !Number.isFinite(body[name])))
          errors.push(`${name} must be a number conforming to the specified constraints`)
      if (errors.length > 0) throw badRequest(errors)
      const aggregation: AggregateSignaturesRequest = {
        message: (body.message as string | undefined) ?? '',
        justification: (body.justification as string | undefined) ?? '',
        quorumPercentage: (body.quorumPercentage as number | undefined) ?? 0,
      }
      if (body.signingSubnetId) aggregation.signingSubnetId = body.signingSubnetId as string
      try {
        // Another network's aggregator reads the request as every one does, then knows none of this network's chains.
        const signed = network.signatureAggregator.aggregate(aggregation, namesNetwork(request.params.network, network.preset.networkId) ? {} : { subnetOf: () => undefined })
        reply.code(201)
        return { signedMessage: Buffer.from(signed).toString('hex') }
      } catch (error) {
        if (error instanceof AggregationError) throw error.status === 400 ? badRequest(error.shortMessage) : new DataApiError(500, error.shortMessage)
        throw error
      }
    })
  }
}

