import { createSocket, type RemoteInfo } from 'node:dgram';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';

/**
 * A tiny authoritative DNS server on loopback UDP for reverse-DNS tests: answers PTR queries
 * for the names it is given, NXDOMAIN for others, and never answers names marked silent (a
 * resolver that times out). Counts the queries per name.
 */
export interface TestDnsServer {
  /** `127.0.0.1:<port>`, as DNS_SERVERS takes it. */
  address: string;
  /** Queries received for a reverse name (e.g. `4.3.2.1.in-addr.arpa`). */
  queries(name: string): number;
  close(): Promise<void>;
}

const TYPE_PTR = 12;
const CLASS_IN = 1;
const RCODE_NXDOMAIN = 3;

/** `1.2.3.4` → `4.3.2.1.in-addr.arpa`. */
export function reverseName(ipv4: string): string {
  return `${ipv4.split('.').reverse().join('.')}.in-addr.arpa`;
}

function readName(message: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let at = offset;
  while (message[at]! !== 0) {
    const length = message[at]!;
    labels.push(message.subarray(at + 1, at + 1 + length).toString('ascii'));
    at += 1 + length;
  }
  return { name: labels.join('.').toLowerCase(), end: at + 1 };
}

function encodeName(name: string): Buffer {
  const parts = name
    .split('.')
    .map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, 'ascii')]));
  return Buffer.concat([...parts, Buffer.from([0])]);
}

function answer(query: Buffer, questionEnd: number, ptr: string | undefined): Buffer {
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2); // id
  const recursionDesired = query[2]! & 0x01;
  header[2] = 0x80 | 0x04 | recursionDesired; // response, authoritative
  header[3] = 0x80 | (ptr === undefined ? RCODE_NXDOMAIN : 0); // recursion available
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(ptr === undefined ? 0 : 1, 6);
  const question = query.subarray(12, questionEnd);
  if (ptr === undefined) return Buffer.concat([header, question]);
  const rdata = encodeName(ptr);
  const record = Buffer.alloc(12);
  record.writeUInt16BE(0xc00c, 0); // the question's name
  record.writeUInt16BE(TYPE_PTR, 2);
  record.writeUInt16BE(CLASS_IN, 4);
  record.writeUInt32BE(3600, 6);
  record.writeUInt16BE(rdata.length, 10);
  return Buffer.concat([header, question, record, rdata]);
}

export async function startDnsServer(options: {
  ptr: Record<string, string>;
  silent?: string[];
}): Promise<TestDnsServer> {
  const counts = new Map<string, number>();
  const silent = new Set(options.silent ?? []);
  const socket = createSocket('udp4');
  socket.on('message', (query: Buffer, peer: RemoteInfo) => {
    if (query.length < 12) return;
    const { name, end } = readName(query, 12);
    counts.set(name, (counts.get(name) ?? 0) + 1);
    if (silent.has(name)) return;
    socket.send(answer(query, end + 4, options.ptr[name]), peer.port, peer.address);
  });
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  const { port } = socket.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    queries: (name) => counts.get(name) ?? 0,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
