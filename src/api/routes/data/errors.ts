/**
 * The data API's error body (SPEC.md §7; data-api.md §3): `{message, statusCode, error}`, the
 * NestJS `HttpException` shape of the hosted service. Validation failures (400) carry one message
 * per bad field, as an array, the way NestJS's ValidationPipe reports class-validator failures;
 * other errors carry a single string.
 */
import { STATUS_CODES } from 'node:http'
import type { FastifyReply } from 'fastify'

/** The status texts of SPEC.md §7, exactly. */
export const DATA_API_STATUS_TEXT = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
} as const satisfies Record<number, string>

export type DataApiErrorBody = { message: string | string[]; statusCode: number; error: string }

/** Thrown by a route (or a {@link DataSource}) to answer with the error body of SPEC.md §7. */
export class DataApiError extends Error {
  readonly statusCode: number
  readonly messages: string | string[]
  constructor(statusCode: number, message: string | string[]) {
    super(Array.isArray(message) ? message.join('; ') : message)
    this.name = 'DataApiError'
    this.statusCode = statusCode
    this.messages = message
  }
}

/** A 400 with one message per bad field. */
export const badRequest = (messages: string | string[]): DataApiError =>
  new DataApiError(400, Array.isArray(messages) ? messages : [messages])

export const notFound = (message: string): DataApiError => new DataApiError(404, message)

export function statusText(statusCode: number): string {
  return (DATA_API_STATUS_TEXT as Record<number, string>)[statusCode] ?? STATUS_CODES[statusCode] ?? 'Error'
}

export function errorBody(statusCode: number, message: string | string[]): DataApiErrorBody {
  return { message, statusCode, error: statusText(statusCode) }
}

export function sendDataError(reply: FastifyReply, statusCode: number, message: string | string[]): FastifyReply {
  return reply.code(statusCode).type('application/json; charset=utf-8').send(errorBody(statusCode, message))
}
