import { connect, type Socket } from 'node:net';

/** What became of one request: its status code, or the error that ended its connection. */
export type Answer = { status: number } | { error: string };

const HEAD_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i;
const CHUNKED = /\r\ntransfer-encoding:[^\r]*chunked/i;
const CLOSES = /\r\nconnection:[ \t]*close/i;

/**
 * One keep-alive HTTP/1.1 connection that sends request bytes prepared by the caller, one
 * request at a time, and reads each answer only as far as its status, length and whether the
 * server closes: a load generator's client, costing little where Node's http client (headers
 * object, agent, IncomingMessage, stream) took as much of the machine as PostgreSQL did, from
 * the cores the gateway needed (packages/bench/README.md#the-harness).
 *
 * Answers must carry a Content-Length or have no body (204, 304, 1xx are not expected): the
 * gateway's are all that way; a chunked answer fails its request with `CHUNKED_ANSWER`. A
 * connection the server closed is opened again on the next send.
 */
export class RawConnection {
  private socket: Socket | null = null;
  private received: Buffer = Buffer.alloc(0);
  /** Body bytes of the current answer still to come, once its head was read. */
  private bodyLeft = -1;
  private status = 0;
  private closeAfter = false;
  private settle: ((answer: Answer) => void) | null = null;

  private readonly host: string;
  private readonly port: number;

  constructor(host: string, port: number) {
    this.host = host;
    this.port = port;
  }

  /** Sends `request` (head and body, complete); `settle` gets its answer. One at a time. */
  send(request: Buffer, settle: (answer: Answer) => void): void {
    if (this.settle) throw new Error('RawConnection.send while a request is under way');
    this.settle = settle;
    this.received = Buffer.alloc(0);
    this.bodyLeft = -1;
    (this.socket ?? this.open()).write(request);
  }

  /**
   * Opens the connection ahead of its first request; resolves once it is open or has failed (a
   * failure then shows on the first request, which opens it again).
   */
  connect(): Promise<void> {
    const socket = this.socket ?? this.open();
    if (!socket.connecting) return Promise.resolve();
    return new Promise((resolve) => {
      socket.once('connect', () => resolve());
      socket.once('close', () => resolve());
    });
  }

  /** Closes the connection; a request under way is abandoned (its callback never runs). */
  destroy(): void {
    this.settle = null;
    this.socket?.destroy();
    this.socket = null;
  }

  private open(): Socket {
    const socket = connect({ host: this.host, port: this.port, noDelay: true });
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => this.drop(socket, error.code ?? error.message));
    socket.on('close', () => this.drop(socket, 'ECONNRESET'));
    this.socket = socket;
    return socket;
  }

  private drop(socket: Socket, error: string): void {
    if (this.socket !== socket) return;
    this.socket = null;
    socket.destroy();
    this.finish({ error });
  }

  private finish(answer: Answer): void {
    const settle = this.settle;
    this.settle = null;
    settle?.(answer);
  }

  private read(chunk: Buffer): void {
    if (this.bodyLeft < 0) {
      this.received = this.received.length === 0 ? chunk : Buffer.concat([this.received, chunk]);
      const headEnd = this.received.indexOf(HEAD_END);
      if (headEnd === -1) return;
      const head = this.received.toString('latin1', 0, headEnd);
      if (CHUNKED.test(head)) {
        this.drop(this.socket!, 'CHUNKED_ANSWER');
        return;
      }
      this.status = Number(head.slice(9, 12));
      this.closeAfter = CLOSES.test(head);
      const length = CONTENT_LENGTH.exec(head)?.[1];
      this.bodyLeft = length === undefined ? 0 : Number(length);
      chunk = this.received.subarray(headEnd + HEAD_END.length);
    }
    this.bodyLeft -= chunk.length;
    if (this.bodyLeft > 0) return;
    if (this.closeAfter) {
      const socket = this.socket!;
      this.socket = null;
      socket.destroy();
    }
    this.finish({ status: this.status });
  }
}
