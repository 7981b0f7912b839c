/**
 * The webhook benchmark's receiver: a bare Node HTTP server that reads each POST body and answers
 * 204, counting requests and bytes (`GET /count` answers them as JSON). The fastest merchant
 * endpoint this machine can run, so the measured rate is the sender's.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { announceReady, closeServer, stopOnSignal, tuneServer } from './common.js';

let requests = 0;
let bytes = 0;
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/count') {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ requests, bytes }));
    return;
  }
  req.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
  });
  req.on('end', () => {
    requests += 1;
    res.writeHead(204);
    res.end();
  });
});
tuneServer(server);
server.listen(0, '127.0.0.1', () => {
  announceReady({ port: (server.address() as AddressInfo).port });
});
stopOnSignal(() => closeServer(server));
