/**
 * Requests that Node's HTTP parser refuses before they reach Koa: a malformed request line or
 * header, headers over the size limit, a request sent too slowly. Node answers them with an empty
 * body; here they answer the spec's error body instead, with a request id made as for any request,
 * then the connection closes.
 */
import { type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { ApiError, ERROR_CODES, type ErrorCode } from '../domain/errors.js';
import { errorBody } from './middleware/errors.js';
import { baselineHeaders, newRequestId } from './middleware/request-context.js';

/** How long an answered connection may stay open for the client to read the answer and close. */
const LINGER_MS = 2_000;

const MESSAGES = {
  malformed_request: 'The request is not valid HTTP/1.1 and could not be read.',
  request_timeout: 'The request was not received in time; the connection is closed.',
  headers_too_large: 'The request headers are larger than the limit.',
  payload_too_large: 'The request body is too large.',
} as const satisfies Partial<Record<ErrorCode, string>>;

type ClientErrorCode = keyof typeof MESSAGES;

/** The error code of a parser refusal, by Node's error code (as Node's own answers choose them). */
export function clientErrorCode(error: { code?: string | undefined }): ClientErrorCode {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return 'headers_too_large';
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return 'payload_too_large';
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 'request_timeout';
    default:
      return 'malformed_request';
  }
}

/** A complete HTTP/1.1 answer carrying the error body, which closes the connection. */
export function clientErrorResponse(code: ClientErrorCode, requestId: string, publicUrl: string): string {
  const status = ERROR_CODES[code].status;
  const body = JSON.stringify(errorBody(new ApiError(code, MESSAGES[code]), requestId, publicUrl));
  const headers: Record<string, string> = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Request-Id': requestId,
    'Cache-Control': 'no-store',
    ...baselineHeaders(publicUrl),
    Connection: 'close',
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`;
}

/**
 * Answers the parser's refusals on `server` (its `clientError` event). Nothing is written when an
 * answer already went out on the connection for the request being received (an early 401 to a
 * body still arriving when the request times out, say) or is under way: the connection is cut.
 */
export function answerClientErrors(server: Server, publicUrl: string, logger: Logger): void {
  // The parser stays in error: every later chunk of the connection reports the error again.
  const answered = new WeakSet<Socket>();
  const lastExchange = new WeakMap<Socket, { req: IncomingMessage; res: ServerResponse }>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => lastExchange.set(req.socket, { req, res }));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (answered.has(socket)) return;
    answered.add(socket);
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    const last = lastExchange.get(socket);
    const alreadyAnswered = inFlight?.headersSent === true || (last?.req.complete === false && last.res.headersSent);
    if (error.code === 'ECONNRESET' || !socket.writable || alreadyAnswered) {
      socket.destroy();
      return;
    }
    const code = clientErrorCode(error);
    const requestId = newRequestId();
    logger.info(
      { request_id: requestId, status: ERROR_CODES[code].status, error: code, reason: error.code },
      'request refused by the HTTP parser',
    );
    // End rather than destroy: closing with unread bytes (the rest of oversized headers) would reset
    // the connection, and the client could lose the answer. Later bytes are read and dropped; the
    // socket closes once the client closes it, or after LINGER_MS.
    socket.end(clientErrorResponse(code, requestId, publicUrl));
    socket.setTimeout(LINGER_MS, () => socket.destroy());
  });
}
