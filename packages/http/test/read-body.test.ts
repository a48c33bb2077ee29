import { Agent, request } from 'node:http';
import { text as readText } from 'node:stream/consumers';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveOnFreePort, type ServedApp } from '@switchboard/testkit/network';
import { readDeclaredBody, readInTurns } from '../src/read-body.ts';

const BODY_BYTES = 8 * 1024 * 1024;
/** Long enough for the client's bytes to fill the server's socket buffer before reading starts. */
const READ_AFTER_MS = 150;

interface Read {
  bytes: number;
  /** The most chunks the request read in one event-loop turn. */
  mostChunksInATurn: number;
}

/** Counts the chunks `req` emits in each event-loop turn (a setImmediate per turn) until it ends. */
function countChunksPerTurn(req: express.Request): () => number {
  let turn = 0;
  let ended = false;
  const perTurn = new Map<number, number>();
  const nextTurn = () => {
    turn++;
    if (!ended) setImmediate(nextTurn);
  };
  setImmediate(nextTurn);
  req.on('data', () => perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1));
  req.on('end', () => (ended = true));
  return () => Math.max(...perTurn.values());
}

let app: ServedApp;

beforeAll(async () => {
  const server = express();
  server.post('/declared', (req, res) => {
    setTimeout(async () => {
      const most = countChunksPerTurn(req);
      const body = await readDeclaredBody(req, BODY_BYTES)!;
      res.json({ bytes: body.length, mostChunksInATurn: most() } satisfies Read);
    }, READ_AFTER_MS);
  });
  server.post('/chunked', (req, res) => {
    setTimeout(() => {
      const most = countChunksPerTurn(req);
      let bytes = 0;
      req.on('data', (chunk: Buffer) => (bytes += chunk.length));
      const stopTurns = readInTurns(req);
      req.on('end', () => {
        stopTurns();
        res.json({ bytes, mostChunksInATurn: most() } satisfies Read);
      });
    }, READ_AFTER_MS);
  });
  // Reads only once the whole body sits in the request's buffer, as a route does after an
  // authentication round trip.
  server.post('/arrived', (req, res) => {
    const whenComplete = () => {
      if (!req.complete) return setImmediate(whenComplete);
      void readDeclaredBody(req, BODY_BYTES)!.then((body) => res.json({ echo: body.toString('utf8'), complete: true }));
    };
    whenComplete();
  });
  app = await serveOnFreePort(server);
});

afterAll(() => app.close());

async function upload(path: string, chunked: boolean): Promise<Read> {
  const body = Buffer.alloc(BODY_BYTES, 'x');
  const response = await fetch(`${app.url}${path}`, {
    method: 'POST',
    // A stream has no length: fetch sends it chunked.
    body: chunked ? new Blob([body]).stream() : body,
    ...(chunked ? { duplex: 'half' } : {}),
  } as RequestInit);
  return (await response.json()) as Read;
}

describe('reading an upload in turns', () => {
  // Without turns libuv hands over up to 32 chunks of one socket in a single turn, and ten large
  // uploads at once kept /healthz waiting for tens of milliseconds.
  it('reads a declared-size body whole, about a chunk a turn', async () => {
    const read = await upload('/declared', false);
    expect(read.bytes).toBe(BODY_BYTES);
    expect(read.mostChunksInATurn).toBeLessThanOrEqual(2);
  });

  it('does the same for a body of unknown size', async () => {
    const read = await upload('/chunked', true);
    expect(read.bytes).toBe(BODY_BYTES);
    expect(read.mostChunksInATurn).toBeLessThanOrEqual(2);
  });
});

describe('reading a body that has all arrived', () => {
  /** POSTs `body` over `agent`; the answer and the local port of the connection it went over. */
  function post(agent: Agent, body: string): Promise<{ answer: unknown; port: number }> {
    return new Promise((resolve, reject) => {
      const req = request(
        `${app.url}/arrived`,
        { method: 'POST', agent, headers: { 'content-length': Buffer.byteLength(body) } },
        (res) => {
          void readText(res).then((body) =>
            resolve({ answer: JSON.parse(body) as unknown, port: req.socket!.localPort! }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  it('takes it whole, and the connection then carries the next request', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const bodies = ['{"ip":"11.0.0.37"}', `{"note":"${'é'.repeat(3000)}"}`, 'x'];
      const answers = [];
      for (const body of bodies) answers.push(await post(agent, body));
      expect(answers.map(({ answer }) => answer)).toEqual(bodies.map((echo) => ({ echo, complete: true })));
      // One connection for all three: each body was consumed, so the server kept it open.
      expect(new Set(answers.map(({ port }) => port)).size).toBe(1);
    } finally {
      agent.destroy();
    }
  });
});
