import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import { expect, it } from 'vitest';
import { addLazyEntry } from '../src/zip-entry.ts';

const OPTIONS = { compressionLevel: 6, mtime: new Date() };

it('fails the output, not the process, when an entry breaks off while it is read', async () => {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  zip.on('error', (error: Error) => output.destroy(error));
  const broken = new Error('query failed mid-page');
  let pages = 0;
  // A source that yields a page, then fails as a COPY whose connection was lost does.
  const failing = new Readable({
    read() {
      pages += 1;
      if (pages === 1) this.push(Buffer.from('[{"id":"1"}'));
      else this.destroy(broken);
    },
  });
  const uncaught: Error[] = [];
  const onUncaught = (error: Error) => uncaught.push(error);
  process.on('uncaughtException', onUncaught);
  try {
    addLazyEntry(zip, { path: 'first.json', open: () => Readable.from([Buffer.from('{}')]) }, OPTIONS, (error) =>
      output.destroy(error),
    );
    addLazyEntry(zip, { path: 'messages.json', open: async () => failing }, OPTIONS, (error) => output.destroy(error));
    zip.end();
    output.resume();
    await expect(finished(output)).rejects.toBe(broken);
    // Let any 'error' emitted without a listener surface before looking.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('uncaughtException', onUncaught);
  }
  expect(uncaught).toEqual([]);
});

it('writes entries that open and end normally', async () => {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  const failures: Error[] = [];
  addLazyEntry(zip, { path: 'a.json', open: () => Readable.from([Buffer.from('{"a":1}')]) }, OPTIONS, (error) =>
    failures.push(error),
  );
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of output) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  // Local file header signature, then the entry's name in it.
  expect(bytes.readUInt32LE(0)).toBe(0x04034b50);
  expect(bytes.includes(Buffer.from('a.json'))).toBe(true);
  expect(failures).toEqual([]);
});
