/**
 * The vendored part of the hosted data API's OpenAPI 3.1 document (`glacier.json`, written by
 * `scripts/extract-glacier-openapi.mjs` from the reference spec): the 17 operations of SPEC.md
 * §4.4, the three Interchain Messaging operations, the signature aggregator's two, and the
 * schemas they reference. Response validation, the weights of the rate limits, and
 * the served `/v1/openapi.json` and `/v1/docs` all read it.
 */
import glacier from './glacier.json' with { type: 'json' }

export type JsonSchema = { [keyword: string]: unknown }

export type OpenApiParameter = {
  name: string
  in: 'query' | 'path' | 'header'
  required?: boolean
  description?: string
  example?: unknown
  schema?: JsonSchema
}

export type OpenApiOperation = {
  operationId: string
  summary?: string
  description?: string
  tags?: string[]
  'x-execution-weight'?: string
  parameters?: OpenApiParameter[]
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema; example?: unknown }> }
  responses: Record<string, { description?: string; content?: Record<string, { schema: JsonSchema }> }>
  [extension: `x-${string}`]: unknown
}

export type OpenApiDocument = {
  openapi: string
  info: { title: string; description?: string; version: string; [key: string]: unknown }
  servers: { url: string }[]
  tags: { name: string; description?: string }[]
  security: Record<string, string[]>[]
  'x-execution-weight-values': Record<string, number>
  paths: Record<string, Record<string, OpenApiOperation>>
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, JsonSchema> }
}

/** The vendored document; treat as read-only. */
export const GLACIER_SPEC = glacier as unknown as OpenApiDocument

export type HttpMethod = 'get' | 'post'

/** One vendored operation, with where it lives. */
export type SpecOperation = {
  operationId: string
  method: HttpMethod
  /** The OpenAPI path, e.g. `/v1/chains/{chainId}/addresses/{address}/transactions:listErc20`. */
  path: string
  operation: OpenApiOperation
  /** Compute units of the operation's `x-execution-weight` (data-api.md §4). */
  weight: number
}

export const SPEC_OPERATIONS: readonly SpecOperation[] = Object.entries(GLACIER_SPEC.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({
    operationId: operation.operationId,
    method: method as HttpMethod,
    path,
    operation,
    weight: executionWeight(operation),
  })),
)

function executionWeight(operation: OpenApiOperation): number {
  const name = operation['x-execution-weight']
  const weight = name === undefined ? undefined : GLACIER_SPEC['x-execution-weight-values'][name]
  if (weight === undefined) throw new Error(`operation ${operation.operationId} has no known x-execution-weight (${String(name)})`)
  return weight
}

/**
 * A fastify route URL as an OpenAPI path: `:name` → `{name}`, and fastify's escaped literal colon
 * `::` (custom methods such as `transactions::listErc20`) → `:`.
 */
export function routeToOpenApiPath(url: string): string {
  return url
    .split('::')
    .map((part) => part.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}'))
    .join(':')
}

const byRoute = new Map(SPEC_OPERATIONS.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op]))

/** The vendored operation a fastify route serves, if any. */
export function operationOfRoute(method: string, url: string): SpecOperation | undefined {
  return byRoute.get(`${method.toUpperCase()} ${routeToOpenApiPath(url)}`)
}

export const SCHEMA_REF_PREFIX = '#/components/schemas/'

/** Names of the component schemas `value` references, transitively. */
export function referencedSchemas(value: unknown, schemas: Record<string, JsonSchema> = GLACIER_SPEC.components.schemas): Set<string> {
  const found = new Set<string>()
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit)
    if (node === null || typeof node !== 'object') return
    for (const [key, inner] of Object.entries(node)) {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith(SCHEMA_REF_PREFIX)) {
        const name = inner.slice(SCHEMA_REF_PREFIX.length)
        if (found.has(name)) continue
        found.add(name)
        visit(schemas[name])
      } else visit(inner)
    }
  }
  visit(value)
  return found
}
