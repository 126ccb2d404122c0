import { describe, expect, it } from 'vitest'
import { adaptSchema, createResponseValidator } from '../../../src/api/routes/data/openapi/validator.js'
import { GLACIER_SPEC, operationOfRoute, routeToOpenApiPath, SPEC_OPERATIONS } from '../../../src/api/routes/data/openapi/spec.js'

const block = {
  chainId: '43114',
  blockNumber: '1',
  blockTimestamp: 1767225600,
  blockTimestampMilliseconds: 1767225600000,
  blockMinDelayExcess: 0,
  blockHash: `0x${'ab'.repeat(32)}`,
  txCount: 0,
  baseFee: '25000000000',
  gasUsed: '0',
  gasLimit: '15000000',
  gasCost: '0',
  parentHash: `0x${'cd'.repeat(32)}`,
  feesSpent: '0',
  cumulativeTransactions: '0',
}

describe('the vendored spec', () => {
  it('holds the 17 operations of SPEC.md §4.4, in its order, then the ICM and signature aggregator operations, with their weights', () => {
    expect(SPEC_OPERATIONS.map((op) => [op.operationId, op.weight])).toEqual(Object.entries({
      supportedChains: 1,
      getChainInfo: 1,
      listTransactions: 20,
      listNativeTransactions: 20,
      listErc20Transactions: 20,
      listErc721Transactions: 20,
      listTransfers: 20,
      listErc1155Balances: 20,
      getDeploymentTransaction: 20,
      getTransaction: 20,
      getTransactionsForBlock: 20,
      getLatestBlocks: 10,
      listTokens: 20,
      getUtxosByAddressesV2: 100,
      listLatestPrimaryNetworkTransactions: 100,
      listValidators: 20,
      listL1Validators: 20,
      listIcmMessages: 20,
      getIcmMessage: 20,
      listIcmMessagesByAddress: 20,
      aggregateSignatures: 20,
      getAggregatedSignatures: 20,
    }))
    expect(GLACIER_SPEC.components.securitySchemes).toMatchObject({ apiKey: { in: 'header', name: 'x-data-api-key' } })
    expect(JSON.stringify(GLACIER_SPEC)).not.toContain('x-glacier-api-key')
  })

  it('maps fastify routes to operations, literal colons included', () => {
    expect(routeToOpenApiPath('/v1/chains/:chainId/addresses/:address/transactions::listErc20')).toBe('/v1/chains/{chainId}/addresses/{address}/transactions:listErc20')
    expect(operationOfRoute('GET', '/v1/chains/:chainId/addresses/:address/balances::listErc1155')?.operationId).toBe('listErc1155Balances')
    expect(operationOfRoute('POST', '/v1/networks/:network/blockchains/:blockchainId/utxos')?.operationId).toBe('getUtxosByAddressesV2')
    expect(operationOfRoute('GET', '/v1/networks/:network/blockchains/:blockchainId/utxos')).toBeUndefined()
  })
})

describe('createResponseValidator', () => {
  const validator = createResponseValidator()

  it('accepts a conforming body', () => {
    expect(validator.validate('getLatestBlocks', 200, { blocks: [block] })).toBeUndefined()
    expect(validator.validate('getLatestBlocks', 200, { nextPageToken: 'x', blocks: [] })).toBeUndefined()
    expect(validator.validate('getLatestBlocks', 404, { message: 'Chain 1 not found', statusCode: 404, error: 'Not Found' })).toBeUndefined()
    expect(validator.validate(undefined, 400, { message: ['bad'], statusCode: 400, error: 'Bad Request' })).toBeUndefined()
  })

  it('rejects a missing required field, a wrong type and an extra field, with their paths', () => {
    const { blockHash: _omitted, ...withoutHash } = block
    expect(validator.validate('getLatestBlocks', 200, { blocks: [withoutHash] })).toEqual(["/blocks/0 must have required property 'blockHash'"])
    expect(validator.validate('getLatestBlocks', 200, { blocks: [{ ...block, txCount: '0' }] })).toEqual(['/blocks/0/txCount must be number'])
    expect(validator.validate('getLatestBlocks', 200, { blocks: [{ ...block, miner: '0x0' }] })).toEqual(['/blocks/0 must NOT have additional properties (miner)'])
    expect(validator.validate('getLatestBlocks', 200, { blocks: [], nextPageToken: null })).toEqual(['/nextPageToken must be string'])
  })

  it('rejects error bodies of the wrong shape or that contradict the status', () => {
    expect(validator.validate(undefined, 404, { msg: 'x' })).toEqual([
      "/ must have required property 'message'",
      "/ must have required property 'statusCode'",
      "/ must have required property 'error'",
      '/ must NOT have additional properties (msg)',
    ])
    expect(validator.validate('supportedChains', 400, { message: 'x', statusCode: 404, error: 'Not Found' })).toEqual([
      '/statusCode must equal the response status 400, got 404',
      '/error must be "Bad Request" for status 400, got "Not Found"',
    ])
  })

  it('turns OpenAPI nullable into a null alternative and drops OpenAPI-only annotations', () => {
    expect(adaptSchema({ type: 'string', nullable: true, example: 'a' })).toEqual({ type: ['string', 'null'] })
    expect(adaptSchema({ nullable: true, description: 'd', allOf: [{ $ref: '#/components/schemas/Geolocation' }] })).toEqual({
      description: 'd',
      anyOf: [{ allOf: [{ $ref: 'glacier#/$defs/Geolocation' }] }, { type: 'null' }],
    })
    expect(adaptSchema({ oneOf: [{ type: 'string' }], discriminator: { propertyName: 'k' } })).toEqual({ anyOf: [{ type: 'string' }] })
    expect(adaptSchema({ type: 'object', properties: { a: { type: 'string', examples: { a: 1 } } } })).toEqual({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false })
  })

  it('explains a union by its closest variant, and accepts a body that fits several', () => {
    const chainInfo = { chainName: 'p-chain', network: 'fuji' }
    // An empty list fits both UTXO responses (P-chain and X/C-chain).
    expect(validator.validate('getUtxosByAddressesV2', 201, { utxos: [], chainInfo })).toBeUndefined()
    const errors = validator.validate('listValidators', 200, { validators: [{ validationStatus: 'completed', nodeId: 'NodeID-x' }] })!
    expect(errors.length).toBeGreaterThan(0)
    // Only the completed variant's fields are reported, not the active or pending ones'.
    expect(errors.every((line) => line.startsWith('/validators/0 '))).toBe(true)
    expect(errors).toContain("/validators/0 must have required property 'delegatorCount'")
    expect(errors).not.toContain("/validators/0 must have required property 'validatorHealth'")
  })
})
