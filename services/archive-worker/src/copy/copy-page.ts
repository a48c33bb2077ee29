import type { Connection, Submittable } from 'pg';

/** Backend messages of a COPY … TO STDOUT (PostgreSQL protocol, "Message Formats"). */
const COPY_DATA = 0x64; // d: one row
const COPY_DONE = 0x63; // c
const ERROR_RESPONSE = 0x45; // E
/** A message's type byte and its length (which counts itself). */
const HEADER_BYTES = 5;

/** The size of the last page read: a page buffer allocated too large twice over is garbage to collect. */
let expectedBytes = 256 * 1024;

/**
 * One `COPY … TO STDOUT` read whole into one buffer, as a pg query object. PostgreSQL sends
 * each row as its own CopyData message; pg and pg-copy-streams turn each into objects and
 * buffer views, allocations per row that cost CPU this reader does not spend
 * (docs/decisions.md#archive-messages-written-from-binary-copy). Here the socket's chunks are read
 * directly while the COPY lasts and each row's bytes appended, then the rest (CopyDone,
 * CommandComplete, ReadyForQuery, or an ErrorResponse) is handed back to pg's own parser,
 * which completes or fails the query as for any other. pg-copy-streams takes the
 * connection's data the same way. For bounded results only: nothing pushes back on the server.
 */
export class CopyOutPage implements Submittable {
  /** The rows' bytes, without the messages' headers, once the COPY has completed. */
  readonly result: Promise<{ data: Buffer; rows: number }>;
  /** pg wraps this to clear its query_timeout; called when the query settles either way. */
  callback?: (error?: Error) => void;

  /** Sized like the last page read (pages of one kind follow each other), grown by doubling past that. */
  private data = Buffer.allocUnsafe(expectedBytes + (expectedBytes >> 3));
  private size = 0;
  /** From the CommandComplete tag (`COPY n`): binary COPY's header and trailer travel as rows' messages. */
  private rows = 0;
  /** The start of a message whose end has not arrived yet. */
  private partial: Buffer | null = null;
  private settle!: { resolve(value: { data: Buffer; rows: number }): void; reject(error: Error): void };
  private settled = false;
  private connection?: Connection;
  private parserListener?: (chunk: Buffer) => void;

  private readonly text: string;

  constructor(text: string) {
    this.text = text;
    this.result = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
  }

  submit(connection: Connection): void {
    this.connection = connection;
    const stream = connection.stream;
    const listeners = stream.listeners('data') as Array<(chunk: Buffer) => void>;
    // pg's parser is the only reader; anything else means pg changed how it reads.
    if (listeners.length !== 1)
      throw new Error(`the connection has ${listeners.length} data listeners, expected pg's parser alone`);
    this.parserListener = listeners[0]!;
    stream.removeListener('data', this.parserListener);
    stream.on('data', this.onData);
    connection.query(this.text);
  }

  private readonly onData = (chunk: Buffer): void => {
    let offset = 0;
    if (this.partial) {
      // Only the message cut between two chunks is joined, never a whole chunk.
      const joined = Buffer.concat([this.partial, chunk.subarray(0, Math.max(0, HEADER_BYTES - this.partial.length))]);
      if (joined.length < HEADER_BYTES) {
        this.partial = joined;
        return;
      }
      const missing = 1 + joined.readInt32BE(1) - this.partial.length;
      if (missing > chunk.length) {
        this.partial = Buffer.concat([this.partial, chunk]);
        return;
      }
      const message = Buffer.concat([this.partial, chunk.subarray(0, missing)]);
      this.partial = null;
      if (!this.read(message, 0, message.length)) {
        this.handBack(Buffer.concat([message, chunk.subarray(missing)]));
        return;
      }
      offset = missing;
    }
    while (offset + HEADER_BYTES <= chunk.length) {
      const end = offset + 1 + chunk.readInt32BE(offset + 1);
      if (end > chunk.length) break;
      if (!this.read(chunk, offset, end)) {
        this.handBack(chunk.subarray(offset));
        return;
      }
      offset = end;
    }
    if (offset < chunk.length) this.partial = Buffer.from(chunk.subarray(offset));
  };

  /** One whole message at `start`; false when the COPY is over and pg must read from it on. */
  private read(bytes: Buffer, start: number, end: number): boolean {
    const type = bytes[start]!;
    if (type === COPY_DONE || type === ERROR_RESPONSE) return false;
    // CopyOutResponse, and the notices and parameter changes that may come between rows, are not kept.
    if (type === COPY_DATA) this.append(bytes, start + HEADER_BYTES, end);
    return true;
  }

  private append(bytes: Buffer, from: number, to: number): void {
    if (this.size + to - from > this.data.length) {
      const larger = Buffer.allocUnsafe(Math.max(this.data.length * 2, this.size + to - from));
      this.data.copy(larger, 0, 0, this.size);
      this.data = larger;
    }
    this.size += bytes.copy(this.data, this.size, from, to);
  }

  /** Gives the connection back to pg's parser, starting with the bytes it has to read. */
  private handBack(rest: Buffer): void {
    const stream = this.connection!.stream;
    stream.removeListener('data', this.onData);
    stream.on('data', this.parserListener!);
    this.parserListener!(rest);
  }

  handleReadyForQuery(): void {
    this.finish(undefined);
  }

  handleError(error: Error): void {
    // Also when pg gives up on the connection (closed, timed out): our listener may still hold it.
    this.connection?.stream.removeListener('data', this.onData);
    this.finish(error);
  }

  handleCommandComplete(message: { text: string }): void {
    this.rows = Number(/^COPY (\d+)$/.exec(message.text)?.[1] ?? 0);
  }

  private finish(error: Error | undefined): void {
    if (this.settled) return;
    this.settled = true;
    this.callback?.(error);
    if (error) this.settle.reject(error);
    else {
      expectedBytes = Math.max(64 * 1024, this.size);
      this.settle.resolve({ data: this.data.subarray(0, this.size), rows: this.rows });
    }
  }
}
