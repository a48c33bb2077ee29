import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

/**
 * - `pass`: bytes flow both ways, as if the proxy were not there.
 * - `cut`: the dependency is gone (stopped, crashed): every open connection is reset now and
 *   every new one is reset as soon as it is accepted.
 * - `blackhole`: the dependency is unreachable but nothing says so (a network partition, a
 *   SIGSTOPped server): connections are accepted and stay open, and nothing is read or
 *   forwarded in either direction.
 * - `mute`: requests reach the dependency and are carried out, but its answers are dropped on
 *   the way back (a reply lost): the client cannot tell whether its command ran.
 */
export type FaultMode = 'pass' | 'cut' | 'blackhole' | 'mute';

export interface FaultProxy {
  /** Where clients connect instead of the target: a loopback host and port. */
  host: string;
  port: number;
  mode(): FaultMode;
  setMode(mode: FaultMode): void;
  /** `url` with its host and port replaced by the proxy's: what a process is given instead. */
  urlFor(url: string): string;
  /**
   * Every connection open now goes silent for good, both ways, while new ones are served as the
   * mode says: a path that died without a word (a NAT entry or firewall state expired, an
   * address moved by a failover, a peer host gone). Only a client's own liveness bound gets it
   * off such a connection.
   */
  strandOpenConnections(): void;
  /** Client connections open now: a test waits for one instead of sleeping. */
  openConnections(): number;
  /** Destroys every connection and stops listening. */
  close(): Promise<void>;
}

interface Link {
  client: Socket;
  /** Undefined until the link is connected upstream (deferred while blackholed). */
  upstream: Socket | undefined;
  /** Silent for good (strandOpenConnections): no mode resumes it. */
  stranded?: boolean;
}

/**
 * A TCP proxy on a free loopback port in front of `target`, switchable at run time, for fault
 * tests that make a dependency fail under real processes.
 *
 * The blackhole pauses the sockets instead of dropping bytes: the proxy keeps nothing in
 * memory, and what the client sends waits in the kernel's socket buffers (its writes stall
 * once they are full), as it would behind a partition or in front of a stopped process. Back in
 * `pass`, that data flows late and the connection carries on, as TCP does once a partition
 * heals; a connection accepted during the blackhole is connected upstream only then.
 */
export async function startFaultProxy(
  target: { host: string; port: number },
  initial: FaultMode = 'pass',
): Promise<FaultProxy> {
  let mode = initial;
  const links = new Set<Link>();

  const resetLink = (link: Link) => {
    links.delete(link);
    if (!link.client.destroyed) link.client.resetAndDestroy();
    link.upstream?.destroy();
  };

  const connectUpstream = (link: Link) => {
    const upstream = connect(target.port, target.host);
    link.upstream = upstream;
    forward(link.client, upstream, () => mode, link);
    forward(upstream, link.client, () => mode, link, { dropWhenMuted: true });
    // Whichever side goes, the other follows; errors end the link, they are not the test's.
    for (const socket of [link.client, upstream]) {
      socket.on('error', () => resetLink(link));
      socket.on('close', () => {
        link.client.destroy();
        upstream.destroy();
        links.delete(link);
      });
    }
  };

  const server = createServer({ pauseOnConnect: true }, (client) => {
    client.on('error', () => {});
    if (mode === 'cut') {
      client.resetAndDestroy();
      return;
    }
    const link: Link = { client, upstream: undefined };
    links.add(link);
    client.on('error', () => resetLink(link));
    client.on('close', () => {
      link.upstream?.destroy();
      links.delete(link);
    });
    if (mode === 'pass' || mode === 'mute') {
      connectUpstream(link);
      client.resume();
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  const setMode = (next: FaultMode) => {
    mode = next;
    for (const link of [...links]) {
      if (link.stranded) continue;
      if (next === 'cut') resetLink(link);
      else if (next === 'blackhole') {
        link.client.pause();
        link.upstream?.pause();
      } else {
        if (!link.upstream) connectUpstream(link);
        link.client.resume();
        link.upstream!.resume();
      }
    }
  };

  return {
    host: '127.0.0.1',
    port,
    mode: () => mode,
    setMode,
    urlFor: (url) => {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      // An http URL gains a '/' path when printed; keep the caller's spelling.
      const text = parsed.toString();
      return text.endsWith('/') && !url.endsWith('/') ? text.slice(0, -1) : text;
    },
    strandOpenConnections: () => {
      for (const link of links) {
        link.stranded = true;
        link.client.pause();
        link.upstream?.pause();
      }
    },
    openConnections: () => links.size,
    close: async () => {
      for (const link of [...links]) resetLink(link);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Copies `from` into `to` with backpressure. While blackholed both sockets are paused, and a
 * 'drain' must not resume them behind the proxy's back.
 */
function forward(
  from: Socket,
  to: Socket,
  mode: () => FaultMode,
  link: Link,
  options: { dropWhenMuted?: boolean } = {},
): void {
  from.on('data', (chunk: Buffer) => {
    if (link.stranded || (options.dropWhenMuted && mode() === 'mute')) return;
    if (!to.write(chunk)) from.pause();
  });
  to.on('drain', () => {
    if ((mode() === 'pass' || mode() === 'mute') && !link.stranded) from.resume();
  });
  from.on('end', () => {
    if (!link.stranded) to.end();
  });
}
