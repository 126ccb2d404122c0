/**
 * The OpenAPI document l1sim serves at `GET /v1/openapi.json`: the vendored Glacier operations
 * that this server has routes for (nothing it would answer with a 404), the schemas they
 * reference, and `servers` set to the origin the request came to, so a client generator or
 * Swagger UI pointed at it calls this server. Weights shown are the ones this server charges.
 */
import { GLACIER_SPEC, referencedSchemas, type OpenApiDocument, type OpenApiOperation, type SpecOperation } from './spec.js'

export type ServedDocumentOptions = {
  /** The served operations (see `operationOfRoute`). */
  operations: readonly SpecOperation[]
  /** `http://host:port` of the request. */
  origin: string
  /** Compute units charged per operation, shown as `x-execution-weight-units`. */
  weights?: (op: SpecOperation) => number
}

export function servedOpenApiDocument({ operations, origin, weights }: ServedDocumentOptions): OpenApiDocument {
  const paths: Record<string, Record<string, OpenApiOperation>> = {}
  for (const op of operations) {
    const operation = weights === undefined ? op.operation : { ...op.operation, 'x-execution-weight-units': weights(op) }
    paths[op.path] = { ...paths[op.path], [op.method]: operation }
  }
  const used = referencedSchemas(paths)
  const schemas = Object.fromEntries(Object.entries(GLACIER_SPEC.components.schemas).filter(([name]) => used.has(name)))
  const tags = new Set(operations.flatMap((op) => op.operation.tags ?? []))
  return {
    ...GLACIER_SPEC,
    info: {
      ...GLACIER_SPEC.info,
      title: 'Data API (l1sim)',
      description: `The subset of the Avalanche Data API (Glacier) that l1sim emulates over its in-memory network. Send an API key, when the network is configured with keys, as the \`x-data-api-key\` header. Human-readable reference: ${origin}/v1/docs`,
    },
    servers: [{ url: origin }],
    tags: GLACIER_SPEC.tags.filter((tag) => tags.has(tag.name)),
    paths,
    components: { ...GLACIER_SPEC.components, schemas },
  }
}
