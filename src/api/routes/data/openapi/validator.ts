/**
 * Validation of /v1 response bodies against the vendored Glacier schemas (Ajv's draft 2020-12
 * build, as OpenAPI 3.1 schemas are 2020-12). The schemas are adapted once: components live under
 * `$defs` of one schema with an `$id` (so `#/components/schemas/X` refs become `glacier#/$defs/X`),
 * OpenAPI's `nullable` becomes a `null` alternative, OpenAPI-only annotations (`example`,
 * `discriminator`: the union it annotates still decides; `examples` that are not an array) are
 * dropped, `oneOf` is read as `anyOf` (see `adapt`), and every object that
 * lists its `properties` is closed (`additionalProperties: false`): the emulation must answer
 * field for field, so an extra field is a mismatch just as a missing one is.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js'
import { GLACIER_SPEC, SCHEMA_REF_PREFIX, SPEC_OPERATIONS, type JsonSchema, type SpecOperation } from './spec.js'
import { DATA_API_STATUS_TEXT } from '../errors.js'

const COMPONENTS_ID = 'glacier'

export type ResponseValidator = {
  /**
   * The schema errors of a response body (`path message` each), or undefined when it conforms.
   * `operationId` is the operation the route serves; without one (a miss under /v1), only
   * error bodies are checked.
   */
  validate(operationId: string | undefined, statusCode: number, body: unknown): string[] | undefined
}

/** A validator over the vendored schemas; schemas compile on first use. */
export function createResponseValidator(): ResponseValidator {
  // verbose: a failed union carries its schema, so the explanation can name the closest branch.
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictTypes: false, strictTuples: false })
  const defs = Object.fromEntries(Object.entries(GLACIER_SPEC.components.schemas).map(([name, schema]) => [name, adaptSchema(schema)]))
  ajv.addSchema({ $id: COMPONENTS_ID, $defs: defs })
  const operations = new Map(SPEC_OPERATIONS.map((op) => [op.operationId, op]))
  const compiled = new Map<string, ValidateFunction | null>()

  const validatorFor = (op: SpecOperation | undefined, statusCode: number): ValidateFunction | null => {
    const cacheKey = `${op?.operationId ?? ''} ${statusCode}`
    const cached = compiled.get(cacheKey)
    if (cached !== undefined) return cached
    const schema = responseSchema(op, statusCode)
    const validate = schema === undefined ? null : ajv.compile(adaptSchema(schema))
    compiled.set(cacheKey, validate)
    return validate
  }

  return {
    validate(operationId, statusCode, body) {
      const op = operationId === undefined ? undefined : operations.get(operationId)
      if (operationId !== undefined && op === undefined) return [`unknown operation ${operationId}`]
      const validate = validatorFor(op, statusCode)
      if (validate === null) return statusCode >= 400 || op !== undefined ? [`no schema for status ${statusCode}`] : undefined
      const errors = explain(ajv, validate, body, '').map((problem) => problem.line)
      if (statusCode >= 400) errors.push(...errorBodyMismatch(statusCode, body))
      return errors.length === 0 ? undefined : errors
    },
  }
}

/**
 * The schema a response must match: a 2xx against the operation's success response (the
 * hosted POST /utxos declares 200 and answers 201: any 2xx takes the declared one), an error
 * against the declared one for its status, or the error body every status shares.
 */
function responseSchema(op: SpecOperation | undefined, statusCode: number): JsonSchema | undefined {
  const jsonSchema = (status: string) => op?.operation.responses[status]?.content?.['application/json']?.schema
  if (statusCode >= 200 && statusCode < 300) {
    if (op === undefined) return undefined
    const success = Object.keys(op.operation.responses).find((status) => /^2\d\d$/.test(status))
    return success === undefined ? undefined : jsonSchema(success)
  }
  if (statusCode < 400) return undefined
  const name = ERROR_SCHEMAS[statusCode as keyof typeof ERROR_SCHEMAS] ?? 'InternalServerError'
  return jsonSchema(String(statusCode)) ?? { $ref: `${SCHEMA_REF_PREFIX}${name}` }
}

/** Component schemas of the eight error statuses (data-api.md §3: all identical). */
const ERROR_SCHEMAS = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  429: 'TooManyRequests',
  500: 'InternalServerError',
  502: 'BadGateway',
  503: 'ServiceUnavailable',
} as const

/** What the schema cannot say: an error body's `statusCode` and `error` agree with the response. */
function errorBodyMismatch(statusCode: number, body: unknown): string[] {
  if (body === null || typeof body !== 'object') return []
  const { statusCode: claimed, error } = body as { statusCode?: unknown; error?: unknown }
  const problems: string[] = []
  if (claimed !== undefined && claimed !== statusCode) problems.push(`/statusCode must equal the response status ${statusCode}, got ${JSON.stringify(claimed)}`)
  const text = (DATA_API_STATUS_TEXT as Record<number, string>)[statusCode]
  if (text !== undefined && error !== undefined && error !== text) problems.push(`/error must be "${text}" for status ${statusCode}, got ${JSON.stringify(error)}`)
  return problems
}

const branchValidators = new WeakMap<object, ValidateFunction>()

type Problem = { line: string; /** A literal (`enum`, `const`) mismatch: the mark of a wrong variant. */ literal: boolean }

/**
 * The errors of `data`, with each failed union (`anyOf`) reduced to its closest branch (fewest
 * literal mismatches, then fewest errors; explained the same way): otherwise one wrong field in a
 * union reads as every field of every other variant.
 */
function explain(ajv: Ajv2020, validate: ValidateFunction, data: unknown, prefix: string): Problem[] {
  if (validate(data)) return []
  const errors = [...(validate.errors ?? [])]
  const unions = errors.filter((e) => e.keyword === 'anyOf')
  const outermost = unions.filter((u) => !unions.some((other) => other !== u && isUnder(u.instancePath, other.instancePath)))
  const kept = errors.filter((e) => !outermost.some((u) => isUnder(e.instancePath, u.instancePath)))
  const problems: Problem[] = kept.map((e) => ({ line: formatError(e, prefix), literal: e.keyword === 'enum' || e.keyword === 'const' }))
  for (const union of outermost) {
    const branches = ((union.parentSchema as Record<string, unknown> | undefined)?.[union.keyword] ?? []) as object[]
    let best: Problem[] | undefined
    for (const branch of branches) {
      let branchValidate = branchValidators.get(branch)
      if (branchValidate === undefined) branchValidators.set(branch, (branchValidate = ajv.compile(branch)))
      const found = explain(ajv, branchValidate, union.data, prefix + union.instancePath)
      if (best === undefined || closer(found, best)) best = found
    }
    problems.push(...(best === undefined || best.length === 0 ? [{ line: formatError(union, prefix), literal: false }] : best))
  }
  return problems
}

function closer(a: Problem[], b: Problem[]): boolean {
  const literals = (problems: Problem[]) => problems.filter((p) => p.literal).length
  return literals(a) !== literals(b) ? literals(a) < literals(b) : a.length < b.length
}

function isUnder(path: string, parent: string): boolean {
  return path === parent || path.startsWith(`${parent}/`)
}

function formatError(error: ErrorObject, prefix = ''): string {
  const full = prefix + error.instancePath
  const path = full === '' ? '/' : full
  const params = error.params as Record<string, unknown>
  const detail =
    error.keyword === 'additionalProperties'
      ? ` (${String(params['additionalProperty'])})`
      : error.keyword === 'enum'
        ? ` (${JSON.stringify(params['allowedValues'])})`
        : ''
  return `${path} ${error.message ?? error.keyword}${detail}`
}

/** An OpenAPI 3.1 schema in the form Ajv 2020 compiles (see the module comment). */
export function adaptSchema(schema: unknown): JsonSchema {
  return adapt(schema) as JsonSchema
}

const OPENAPI_ANNOTATIONS = new Set(['example', 'discriminator', 'xml', 'externalDocs'])

function adapt(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(adapt)
  if (node === null || typeof node !== 'object') return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    if (OPENAPI_ANNOTATIONS.has(key) || key === 'nullable') continue
    if (key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMA_REF_PREFIX)) {
      out[key] = `${COMPONENTS_ID}#/$defs/${value.slice(SCHEMA_REF_PREFIX.length)}`
    } else if (key === 'oneOf') {
      // OpenAPI uses oneOf for "one of these shapes"; its variants can overlap (an empty `utxos`
      // list fits both UTXO responses), which JSON Schema's oneOf would refuse.
      out['anyOf'] = adapt(value)
    } else if (key === 'properties' || key === '$defs' || key === 'patternProperties') {
      // Maps of names to schemas: names are data, not keywords.
      out[key] = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([name, inner]) => [name, adapt(inner)]))
    } else if (key === 'examples') {
      // 2020-12 wants an array; the spec sometimes gives one example object (an OpenAPI habit): annotations only.
      if (Array.isArray(value)) out[key] = value
    } else if (key === 'enum' || key === 'const' || key === 'default') {
      out[key] = value
    } else {
      out[key] = adapt(value)
    }
  }
  if ('properties' in out && !('additionalProperties' in out) && !('unevaluatedProperties' in out)) out['additionalProperties'] = false
  if ((node as { nullable?: unknown }).nullable === true) {
    if (typeof out['type'] === 'string') return { ...out, type: [out['type'], 'null'] }
    const { description, ...rest } = out
    return { ...(description === undefined ? {} : { description }), anyOf: [rest, { type: 'null' }] }
  }
  return out
}
