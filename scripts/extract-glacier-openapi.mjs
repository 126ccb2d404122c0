// Vendors the part of the hosted data API's OpenAPI document (Glacier, spec A of
// ../shared/reference/data-api.md) that l1sim emulates: the 17 operations of SPEC.md §4.4, the Interchain Messaging
// operations and the signature aggregator's, and the component schemas they reference, transitively. Writes src/api/routes/data/openapi/glacier.json,
// which the server reads at run time (response validation, /v1/openapi.json, /v1/docs).
//
//     node scripts/extract-glacier-openapi.mjs [path to glacier-openapi.json]
//
// Changes to the source: the API key header is `x-data-api-key` (SPEC.md §5) instead of
// `x-glacier-api-key`; `x-codeSamples` (curl and SDK snippets against the hosted service) are dropped.
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** SPEC.md §4.4, in its order. */
const OPERATION_IDS = [
  'supportedChains',
  'getChainInfo',
  'listTransactions',
  'listNativeTransactions',
  'listErc20Transactions',
  'listErc721Transactions',
  'listTransfers',
  'listErc1155Balances',
  'getDeploymentTransaction',
  'getTransaction',
  'getTransactionsForBlock',
  'getLatestBlocks',
  'listTokens',
  'getUtxosByAddressesV2',
  'listLatestPrimaryNetworkTransactions',
  'listValidators',
  'listL1Validators',
  'listIcmMessages',
  'getIcmMessage',
  'listIcmMessagesByAddress',
  'aggregateSignatures',
  'getAggregatedSignatures',
]

const source = process.argv[2] ?? fileURLToPath(new URL('../../shared/reference/glacier-openapi.json', import.meta.url))
const target = fileURLToPath(new URL('../src/api/routes/data/openapi/glacier.json', import.meta.url))
const spec = JSON.parse(readFileSync(source, 'utf8'))

const SCHEMA_REF = /^#\/components\/schemas\/(.+)$/
const paths = {}
const found = new Set()
// In the order of SPEC.md §4.4, so the served document and the docs page read in that order.
for (const id of OPERATION_IDS) {
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (operation?.operationId !== id) continue
      const { 'x-codeSamples': _samples, ...kept } = operation
      paths[path] = { ...paths[path], [method]: kept }
      found.add(id)
    }
  }
}
const missing = OPERATION_IDS.filter((id) => !found.has(id))
if (missing.length > 0) throw new Error(`operations missing from ${source}: ${missing.join(', ')}`)

// Every schema reachable from the operations.
const schemas = {}
const pending = []
const collectRefs = (value) => {
  if (Array.isArray(value)) return value.forEach(collectRefs)
  if (value === null || typeof value !== 'object') return
  for (const [key, inner] of Object.entries(value)) {
    if (key === '$ref' && typeof inner === 'string') {
      const match = SCHEMA_REF.exec(inner)
      if (!match) throw new Error(`unsupported $ref ${inner}`)
      if (!(match[1] in schemas)) {
        const schema = spec.components.schemas[match[1]]
        if (schema === undefined) throw new Error(`dangling $ref ${inner}`)
        schemas[match[1]] = schema
        pending.push(schema)
      }
    } else collectRefs(inner)
  }
}
collectRefs(paths)
while (pending.length > 0) collectRefs(pending.pop())

const usedTags = new Set(Object.values(paths).flatMap((item) => Object.values(item).flatMap((op) => op.tags ?? [])))
const sortedSchemas = Object.fromEntries(Object.keys(schemas).sort().map((name) => [name, schemas[name]]))
const vendored = {
  openapi: spec.openapi,
  info: spec.info,
  servers: spec.servers,
  tags: (spec.tags ?? []).filter((tag) => usedTags.has(tag.name)),
  security: spec.security,
  'x-execution-weight-values': spec['x-execution-weight-values'],
  paths,
  components: { securitySchemes: spec.components.securitySchemes, schemas: sortedSchemas },
}
const text = JSON.stringify(vendored, null, 2).replaceAll('x-glacier-api-key', 'x-data-api-key')
writeFileSync(target, `${text}\n`)
console.log(`wrote ${target}: ${found.size} operations, ${Object.keys(sortedSchemas).length} schemas`)
