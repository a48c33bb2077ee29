import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

// Bright ANSI colours that read well on dark and light terminals alike.
const PALETTE = [36, 33, 35, 32, 34, 91, 96, 93, 95, 92];

export interface LogSink {
  /** A writer of lines prefixed with `name | `. */
  writer(name: string): (line: string) => void;
  /** Forwards every line of a child's stream under the given name. */
  pipe(name: string, stream: Readable | null): void;
}

/**
 * Prefixes every line with its source, padded so that the `|` columns line up, coloured per
 * source when the output is a terminal.
 */
export function createLogSink(output: { write(text: string): unknown }, colour: boolean, width = 8): LogSink {
  const colours = new Map<string, number>();
  const prefix = (name: string) => {
    const label = name.padEnd(width);
    if (!colour) return `${label} | `;
    let code = colours.get(name);
    if (code === undefined) {
      code = PALETTE[colours.size % PALETTE.length]!;
      colours.set(name, code);
    }
    return `\u001b[${code}m${label} |\u001b[0m `;
  };
  const writer = (name: string) => {
    const head = prefix(name);
    return (line: string) => void output.write(`${head}${line}\n`);
  };
  return {
    writer,
    pipe(name, stream) {
      if (!stream) return;
      const write = writer(name);
      createInterface({ input: stream, crlfDelay: Infinity }).on('line', write);
    },
  };
}
