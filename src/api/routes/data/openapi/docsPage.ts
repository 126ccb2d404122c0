/**
 * `GET /v1/docs`: a small, self-contained HTML reference of the served operations (no scripts,
 * no CDN): each operation's method, path, summary, parameters and a curl example against the
 * origin the page was requested from.
 */
import type { OpenApiDocument, OpenApiOperation, OpenApiParameter } from './spec.js'

export function docsPage(document: OpenApiDocument): string {
  const origin = document.servers[0]?.url ?? ''
  const operations = Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ path, method, operation })))
  const sections = operations.map(({ path, method, operation }) => operationSection(document, path, method, operation)).join('\n')
  const index = operations
    .map(({ path, method, operation }) => `<li><a href="#${escapeHtml(operation.operationId)}"><code>${method.toUpperCase()} ${escapeHtml(path)}</code></a> ${escapeHtml(operation.summary ?? '')}</li>`)
    .join('\n')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(document.info.title)}</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; padding: 0 1rem; color: #222; }
code, pre { font-family: ui-monospace, monospace; font-size: 13px; }
pre { background: #f4f4f4; padding: .6rem; overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #ddd; padding: .25rem .5rem; text-align: left; vertical-align: top; }
section { border-top: 1px solid #ccc; margin-top: 2rem; }
</style>
</head>
<body>
<h1>${escapeHtml(document.info.title)}</h1>
<p>Served at <code>${escapeHtml(origin)}</code>. Machine-readable: <a href="${escapeHtml(origin)}/v1/openapi.json"><code>/v1/openapi.json</code></a>. An API key, when the network has keys, goes in the <code>x-data-api-key</code> header; errors are <code>{message, statusCode, error}</code>.</p>
<ul>
${index}
</ul>
${sections}
</body>
</html>
`
}

function operationSection(document: OpenApiDocument, path: string, method: string, operation: OpenApiOperation): string {
  const parameters = operation.parameters ?? []
  const rows = parameters
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${p.in}</td><td>${p.required === true ? 'yes' : 'no'}</td><td><code>${escapeHtml(typeOf(p))}</code></td><td>${escapeHtml(p.description ?? '')}</td></tr>`,
    )
    .join('\n')
  const table = rows === '' ? '<p>No parameters.</p>' : `<table>\n<tr><th>name</th><th>in</th><th>required</th><th>type</th><th>description</th></tr>\n${rows}\n</table>`
  const weight = operation['x-execution-weight-units']
  return `<section id="${escapeHtml(operation.operationId)}">
<h2><code>${method.toUpperCase()} ${escapeHtml(path)}</code></h2>
<p><strong>${escapeHtml(operation.summary ?? operation.operationId)}</strong> (<code>${escapeHtml(operation.operationId)}</code>${typeof weight === 'number' ? `, ${weight} compute units` : ''}). ${escapeHtml(operation.description ?? '')}</p>
${table}
<pre>${escapeHtml(curlExample(document, path, method, operation))}</pre>
</section>`
}

function typeOf(parameter: OpenApiParameter): string {
  const schema = parameter.schema ?? {}
  const ref = typeof schema['$ref'] === 'string' ? schema['$ref'].split('/').pop() : undefined
  const type = ref ?? (typeof schema['type'] === 'string' ? schema['type'] : 'string')
  const bounds = [schema['minimum'] === undefined ? '' : `min ${String(schema['minimum'])}`, schema['maximum'] === undefined ? '' : `max ${String(schema['maximum'])}`, schema['default'] === undefined ? '' : `default ${String(schema['default'])}`].filter((part) => part !== '')
  return bounds.length === 0 ? type : `${type} (${bounds.join(', ')})`
}

/** A curl command with each path parameter's example (or its name) and the required query parameters. */
export function curlExample(document: OpenApiDocument, path: string, method: string, operation: OpenApiOperation): string {
  const origin = document.servers[0]?.url ?? ''
  const parameters = operation.parameters ?? []
  const example = (p: OpenApiParameter) => String(p.example ?? p.schema?.['default'] ?? `<${p.name}>`)
  const url = path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const parameter = parameters.find((p) => p.in === 'path' && p.name === name)
    return encodeURIComponent(parameter === undefined ? `<${name}>` : example(parameter)).replace(/%3C|%3E/g, (c) => (c === '%3C' ? '<' : '>'))
  })
  const query = parameters.filter((p) => p.in === 'query' && p.required === true).map((p) => `${p.name}=${encodeURIComponent(example(p))}`)
  const full = `${origin}${url}${query.length === 0 ? '' : `?${query.join('&')}`}`
  if (method === 'get') return `curl -s '${full}'`
  const content = operation.requestBody?.content['application/json']
  const body = content?.example ?? exampleBody(document, content?.schema)
  return `curl -s -X ${method.toUpperCase()} '${full}' \\\n  -H 'content-type: application/json' \\\n  -d '${JSON.stringify(body)}'`
}

function exampleBody(document: OpenApiDocument, schema: Record<string, unknown> | undefined): unknown {
  const ref = schema?.['$ref']
  if (typeof ref === 'string') return exampleBody(document, document.components.schemas[ref.split('/').pop() ?? ''])
  const properties = (schema?.['properties'] ?? {}) as Record<string, { examples?: unknown[]; example?: unknown }>
  return Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, property.examples?.[0] ?? property.example ?? `<${name}>`]))
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}
