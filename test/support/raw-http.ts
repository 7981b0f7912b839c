/**
 * HTTP/1.1 over a raw socket, for what fetch cannot send: malformed requests, oversized headers,
 * requests dribbled byte by byte.
 */
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /** Whatever the server sent after the first answer (a second answer would be here). */
  rest: string;
  /** Milliseconds from connecting to the server closing the connection. */
  closedAfterMs: number;
}

/**
 * Connects, writes `head`, then `drip` (if any) one character every `everyMs` until the server
 * answers; reads until the server closes the connection (at most 5 seconds).
 */
export function exchange(url: string, head: string, drip?: { text: string; everyMs: number }): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    let dripping: NodeJS.Timeout | undefined;
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within 5 s; received: ${Buffer.concat(chunks).toString()}`));
    }, 5_000);
    socket.on('connect', () => {
      socket.write(head);
      if (drip === undefined) return;
      let at = 0;
      dripping = setInterval(() => {
        if (socket.writable) socket.write(drip.text[at % drip.text.length] as string);
        at += 1;
      }, drip.everyMs);
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      clearInterval(dripping);
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(giveUp);
      clearInterval(dripping);
      try {
        resolve({ ...parseAnswer(Buffer.concat(chunks)), closedAfterMs: Date.now() - started });
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** The first HTTP/1.1 answer in `raw` (its body a JSON object of `Content-Length` bytes), and what follows it. */
export function parseAnswer(raw: Buffer): Omit<RawAnswer, 'closedAfterMs'> {
  const split = raw.indexOf('\r\n\r\n');
  if (split < 0) throw new Error(`no complete answer: ${JSON.stringify(raw.toString())}`);
  const [statusLine, ...lines] = raw.subarray(0, split).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const end = split + 4 + Number(headers['content-length']);
  return {
    status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine ?? '')?.[1]),
    headers,
    body: JSON.parse(raw.subarray(split + 4, end).toString('utf8')) as Record<string, unknown>,
    rest: raw.subarray(end).toString('latin1'),
  };
}
