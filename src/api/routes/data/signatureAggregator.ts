/**
 * The data API's signature aggregator, `POST /v1/signatureAggregator/{network}/aggregateSignatures`
 * (operation `aggregateSignatures`): the hosted service fronts an icm-services aggregator, so the
 * body is `SignatureAggregatorRequest` in camelCase and the answer 201 `{signedMessage}` (hex, no
 * `0x`); the aggregator's refusals keep its words, in the data API's error body (400 a request it
 * cannot read, 500 an aggregation that failed). A hosted network name that is not this network's
 * has an aggregator that knows none of this network's chains.
 *
 * `GET …/aggregateSignatures/{txHash}` (operation `getAggregatedSignatures`) has the same
 * aggregator sign the warp message a transaction gave rise to (`network/txWarpMessages.ts`: a
 * P-chain tx's ACP-77 message, or an EVM tx's `sendWarpMessage`): 404 for a transaction the
 * network does not have, 400 for one that made no warp message, then the aggregator's answers.
 */
import type { FastifyInstance } from 'fastify'
import { AggregationError, type AggregateSignaturesRequest } from '../../../network/aggregator.js'
import type { Network } from '../../../network/network.js'
import { TxWarpMessageError, warpRequestOfTx } from '../../../network/txWarpMessages.js'
import { badRequest, DataApiError } from './errors.js'
import type { V1Routes } from './index.js'
import { acceptedNetworkNames, namesNetwork } from './networks.js'

export type SignatureAggregationResponse = { signedMessage: string }

const STRING_FIELDS = ['message', 'justification', 'signingSubnetId'] as const
const NUMBER_FIELDS = ['quorumPercentage', 'quorumPercentageBuffer', 'pChainHeight'] as const

/** Operations `aggregateSignatures` and `getAggregatedSignatures` on `network`. */
export function signatureAggregatorDataRoutes(network: Network): V1Routes {
  const accepted = acceptedNetworkNames(network.preset.networkId)
  const networkError = (name: string) => (accepted.includes(name) ? [] : [`network must be one of the following values: ${accepted.join(', ')}`])
  /** The one aggregation path: the network's aggregator, its refusals in the data API's error body. */
  const aggregate = (name: string, aggregation: AggregateSignaturesRequest): SignatureAggregationResponse => {
    try {
      // Another network's aggregator reads the request as every one does, then knows none of this network's chains.
      const signed = network.signatureAggregator.aggregate(aggregation, namesNetwork(name, network.preset.networkId) ? {} : { subnetOf: () => undefined })
      return { signedMessage: Buffer.from(signed).toString('hex') }
    } catch (error) {
      if (error instanceof AggregationError) throw error.status === 400 ? badRequest(error.shortMessage) : new DataApiError(500, error.shortMessage)
      throw error
    }
  }

  return (app: FastifyInstance) => {
    app.post<{ Params: { network: string } }>('/signatureAggregator/:network/aggregateSignatures', async (request, reply): Promise<SignatureAggregationResponse> => {
      const errors = networkError(request.params.network)
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
      const answer = aggregate(request.params.network, aggregation)
      reply.code(201)
      return answer
    })

    app.get<{ Params: { network: string; txHash: string } }>('/signatureAggregator/:network/aggregateSignatures/:txHash', async (request, reply): Promise<SignatureAggregationResponse> => {
      const errors = networkError(request.params.network)
      if (errors.length > 0) throw badRequest(errors)
      const { txHash } = request.params
      // Another network's data API has none of this network's transactions.
      if (!namesNetwork(request.params.network, network.preset.networkId)) throw new DataApiError(404, `Transaction ${txHash} not found`)
      let aggregation: AggregateSignaturesRequest
      try {
        aggregation = warpRequestOfTx(network, txHash)
      } catch (error) {
        if (error instanceof TxWarpMessageError) throw error.status === 400 ? badRequest(error.shortMessage) : new DataApiError(404, error.shortMessage)
        throw error
      }
      const answer = aggregate(request.params.network, aggregation)
      reply.code(201)
      return answer
    })
  }
}
