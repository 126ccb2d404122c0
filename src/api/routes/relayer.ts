/**
 * icm-relayer's API server (ava-labs/icm-services `relayer/api`) for the built-in relayer:
 * `/relay` (`{blockchain-id, message-id, block-num}`: the message a source block's warp log
 * carries), `/relay/message` (`{unsigned-message-bytes (base64), source-address}`) and `/health`
 * (alexliesenfeld/health's JSON with the checks `relayers-all` and `network-all`). Like Go's
 * `http.Handle`, any method is served; errors are `http.Error`'s text with a newline. Served on its
 * own port at these paths and on every node under {@link RELAYER_PREFIX}.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify'
import { InvalidArgumentError } from '../../core/errors.js'
import type { Hex } from '../../core/hex.js'
import { idFromString, idToString } from '../../core/ids.js'
import { abiDecodeBytes } from '../../evm/warp/abi.js'
import { parseUnsignedMessage } from '../../evm/warp/codec.js'
import { SEND_WARP_MESSAGE_TOPIC, WARP_ADDRESS } from '../../evm/warp/precompile.js'
import { formatRFC3339Nano } from '../../network/goTime.js'
import type { Network } from '../../network/network.js'
import type { IcmDelivery } from '../../network/relayer.js'
import { NO_APPLICATION_RELAYER } from '../../network/relayerDelivery.js'
import { decodeGoJson, foldName, GoJsonSyntaxError, jsonMembers, type JsonKind } from '../../rpc/node/goJson.js'
import { readBody, sendGoError } from './evm.js'

/** Where every node serves the relayer's API (`/icm-relayer/relay`, …); its own port serves it at the root. */
export const RELAYER_PREFIX = '/icm-relayer'
const MAX_BODY_BYTES = 16 * 1024 * 1024
const ZERO_HASH = `0x${'00'.repeat(32)}`

type GoType = 'string' | 'uint64' | '[]uint8'
type Field = { json: string; type: GoType }

/** Go's `json.Decoder.Decode` into a struct of `fields`: values by JSON name, or the decoder's error text. */
function decodeStruct(body: string, struct: string, fields: readonly Field[]): Record<string, unknown> | string {
  let decoded: ReturnType<typeof decodeGoJson>
  try {
    decoded = decodeGoJson(body)
  } catch (error) {
    if (error instanceof GoJsonSyntaxError) return error.message
    throw error
  }
  if (decoded.kind === 'null') return {}
  if (decoded.kind !== 'object') return `json: cannot unmarshal ${decoded.kind} into Go value of type api.${struct}`
  const out: Record<string, unknown> = {}
  let firstError: string | undefined
  for (const member of jsonMembers(decoded.value as object) ?? []) {
    const field = fields.find((f) => foldName(f.json) === foldName(member.key))
    if (!field || member.value === null) continue
    const kind = kindOf(member.value)
    const mismatch = (detail: string = kind) => (firstError ??= `json: cannot unmarshal ${detail} into Go struct field ${struct}.${field.json} of type ${field.type}`)
    if (field.type === 'string') {
      if (typeof member.value === 'string') out[field.json] = member.value
      else mismatch()
    } else if (field.type === 'uint64') {
      const ok = kind === 'number' && /^\d+$/.test(member.raw) && BigInt(member.raw) < 2n ** 64n
      if (ok) out[field.json] = BigInt(member.raw)
      else mismatch(kind === 'number' ? `number ${member.raw}` : kind)
    } else if (typeof member.value === 'string') {
      // A []byte is base64 (StdEncoding, padded); its error ends the decoding at once.
      const bytes = goBase64(member.value)
      if (typeof bytes === 'string') return bytes
      out[field.json] = bytes
    } else mismatch()
  }
  return firstError ?? out
}

function kindOf(value: unknown): JsonKind {
  if (typeof value === 'string') return 'string'
  if (typeof value === 'number') return 'number'
  if (typeof value === 'boolean') return 'bool'
  return Array.isArray(value) ? 'array' : 'object'
}

/** `base64.StdEncoding.DecodeString` (Go's json strips \r and \n first); its error text on failure. */
function goBase64(text: string): Uint8Array | string {
  const clean = text.replace(/[\r\n]/g, '')
  const bad = clean.search(/[^A-Za-z0-9+/=]/)
  if (bad >= 0) return `illegal base64 data at input byte ${bad}`
  const pad = clean.indexOf('=')
  if (clean.length % 4 !== 0 || (pad >= 0 && (pad < clean.length - 2 || !/^=+$/.test(clean.slice(pad))))) return `illegal base64 data at input byte ${pad >= 0 ? pad : clean.length - (clean.length % 4)}`
  return Uint8Array.from(Buffer.from(clean, 'base64'))
}

/** `utils.HexOrCB58ToID`, throwing the error text the API puts after its prefix. */
function hexOrCb58ToId(text: string): string {
  if (!text.startsWith('0x')) return idToString(idFromString(text))
  const hex = text.slice(2)
  const badAt = hex.search(/[^0-9a-fA-F]/)
  if (badAt >= 0) throw new InvalidArgumentError(`encoding/hex: invalid byte: U+${hex.codePointAt(badAt)!.toString(16).toUpperCase().padStart(4, '0')} ${JSON.stringify(hex[badAt]).replace(/^"|"$/g, "'")}`)
  if (hex.length % 2 !== 0) throw new InvalidArgumentError('encoding/hex: odd length hex string')
  if (hex.length !== 64) throw new InvalidArgumentError(`invalid hash length: expected 32 bytes but got ${hex.length / 2}`)
  return idToString(Uint8Array.from(Buffer.from(hex, 'hex')))
}

const errorText = (error: unknown) => (error as { shortMessage?: string }).shortMessage ?? (error as Error).message

/** The hash the API answers for a relayer's attempts: the delivery's, zero for a message it should not send; a failure throws. */
function transactionHashOf(attempts: readonly IcmDelivery[] | undefined): string {
  if (!attempts) throw new Error('application relayer not found')
  const first = attempts[0]
  if (first?.status === 'skipped' && first.error === NO_APPLICATION_RELAYER) throw new Error('application relayer not found')
  if (!first || first.status === 'skipped') return ZERO_HASH
  if (first.status === 'dropped') throw new Error('the delivery was dropped (relayer fault)')
  if (first.status === 'failed' || (first.status === 'reverted' && first.error)) throw new Error(first.error ?? 'delivery failed')
  return first.txHash ?? ZERO_HASH
}

/** Registered with fastify's `prefix` on the nodes ({@link RELAYER_PREFIX}), at the root on its own port. */
export const relayerRoutes: FastifyPluginAsync<{ network: Network }> = async (app, { network }) => {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', (_request, payload, done) => {
    readBody(payload, MAX_BODY_BYTES).then((body) => done(null, body), done)
  })
  const body = (request: { body?: unknown }) => (typeof request.body === 'string' ? request.body : '')
  const route = (url: string, handler: (text: string, reply: FastifyReply) => Promise<FastifyReply> | FastifyReply) =>
    app.route({ method: app.supportedMethods, url, exposeHeadRoute: false, handler: (request, reply) => handler(body(request), reply) })

  route('/relay', async (text, reply) => {
    const req = decodeStruct(text, 'RelayMessageRequest', [
      { json: 'blockchain-id', type: 'string' },
      { json: 'message-id', type: 'string' },
      { json: 'block-num', type: 'uint64' },
    ])
    if (typeof req === 'string') return sendGoError(reply, 400, `${req}\n`)
    let blockchainId: string
    let messageId: string
    try {
      blockchainId = hexOrCb58ToId((req['blockchain-id'] as string | undefined) ?? '')
    } catch (error) {
      return sendGoError(reply, 400, `invalid blockchainID: ${errorText(error)}\n`)
    }
    try {
      messageId = hexOrCb58ToId((req['message-id'] as string | undefined) ?? '')
    } catch (error) {
      return sendGoError(reply, 400, `invalid messageID: ${errorText(error)}\n`)
    }
    try {
      const source = network.chain(blockchainId)
      if (!source) throw new Error(`source client not set for blockchain: ${blockchainId}`)
      const blockNum = (req['block-num'] as bigint | undefined) ?? 0n
      const idTopic = `0x${Buffer.from(idFromString(messageId)).toString('hex')}`
      const logs = (source.store.byNumber(blockNum)?.txs ?? []).flatMap((tx) =>
        tx.receipt.logs.filter((l) => l.address === WARP_ADDRESS && l.topics[0] === SEND_WARP_MESSAGE_TOPIC && l.topics[2] === idTopic).map((log) => ({ log, tx })),
      )
      if (logs.length !== 1) throw new Error(`could not fetch warp message from ID: found more than 1 log: ${logs.length}`)
      const { log, tx } = logs[0]!
      const unsigned = abiDecodeBytes(Uint8Array.from(Buffer.from(log.data.slice(2), 'hex')))
      // The log's sender is the message's protocol: only the messenger's messages have a relayer.
      if (log.topics[1] !== `0x${network.relayer.messenger.slice(2).padStart(64, '0')}`) throw new Error('application relayer not found')
      const attempts = await network.relayer.relayUnsigned(source, unsigned, { txHash: tx.hash, blockNumber: blockNum })
      return sendRelayed(reply, transactionHashOf(attempts))
    } catch (error) {
      return sendGoError(reply, 500, `error processing message: ${errorText(error)}\n`)
    }
  })

  route('/relay/message', async (text, reply) => {
    const req = decodeStruct(text, 'ManualWarpMessageRequest', [
      { json: 'unsigned-message-bytes', type: '[]uint8' },
      { json: 'source-address', type: 'string' },
    ])
    if (typeof req === 'string') return sendGoError(reply, 400, `${req}\n`)
    const bytes = (req['unsigned-message-bytes'] as Uint8Array | undefined) ?? new Uint8Array()
    let unsigned: Uint8Array
    try {
      unsigned = unpackWarpMessage(bytes)
    } catch (error) {
      return sendGoError(reply, 400, `${errorText(error)}\n`)
    }
    const address = (req['source-address'] as string | undefined) ?? ''
    if (!/^(0[xX])?[0-9a-fA-F]{40}$/.test(address)) return sendGoError(reply, 400, 'invalid source address\n')
    try {
      const source = network.chain(idToString(parseUnsignedMessage(unsigned).sourceChainId))
      const protocol = `0x${address.slice(-40).toLowerCase()}` as Hex
      if (!source || protocol !== network.relayer.messenger) throw new Error('application relayer not found')
      return sendRelayed(reply, transactionHashOf(await network.relayer.relayUnsigned(source, unsigned)))
    } catch (error) {
      return sendGoError(reply, 500, `error processing message: ${errorText(error)}\n`)
    }
  })

  route('/health', (_text, reply) => {
    const unhealthy = network.relayer.unhealthy()
    const timestamp = formatRFC3339Nano(BigInt(network.clock.nowMs()) * 1_000_000n)
    const relayers = unhealthy.length > 0 ? { status: 'down', timestamp, error: `relayers are unhealthy for blockchains [${unhealthy.join(' ')}]` } : { status: 'up', timestamp }
    const status = unhealthy.length > 0 ? 'down' : 'up'
    return reply
      .code(status === 'up' ? 200 : 503)
      .header('content-type', 'application/json; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('pragma', 'no-cache')
      .header('expires', 'Thu, 01 Jan 1970 00:00:00 GMT')
      .send(Buffer.from(JSON.stringify({ status, details: { 'network-all': { status: 'up', timestamp }, 'relayers-all': relayers } })))
  })
}

/** `utils.UnpackWarpMessage`: a `SendWarpMessage` log's data first, else a standalone unsigned message. */
function unpackWarpMessage(bytes: Uint8Array): Uint8Array {
  try {
    const inner = abiDecodeBytes(bytes)
    parseUnsignedMessage(inner)
    return inner
  } catch {
    parseUnsignedMessage(bytes)
    return bytes
  }
}

/** `json.Marshal(RelayMessageResponse)` written without a content type (Go sniffs it as text). */
function sendRelayed(reply: FastifyReply, hash: string): FastifyReply {
  return reply.code(200).header('content-type', 'text/plain; charset=utf-8').send(Buffer.from(JSON.stringify({ 'transaction-hash': hash })))
}
