import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageFor } from '@switchboard/testkit/storage';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { DEFAULT_STORAGE_BOUNDS, PART_SIZE_BYTES, type Storage } from '../src/index.ts';
import { digestResponse, patternStream } from './support/pattern-stream.ts';
import { recordCommands } from './support/store.ts';

const environment = useTestEnvironment();
let storage: Storage;
const MIB = 1024 * 1024;

beforeAll(async () => {
  storage = storageFor(environment);
});
afterAll(() => storage.close());

async function putSmall(key: string, text = 'hello'): Promise<void> {
  await storage.upload(key, text, { contentType: 'text/plain' });
}

/** A one-second presigned link to a small object at `key`, returned once it has expired. */
async function expiredLink(key: string): Promise<string> {
  await putSmall(key);
  const { url, expiresAt } = await storage.presignDownload(key, { filename: 'a.txt', expiresInSeconds: 1 });
  await sleep(Math.max(0, expiresAt.getTime() - Date.now()) + 250);
  return url;
}

describe('upload and presigned download', () => {
  it('streams 50 MiB up in parts and back down through a presigned link, byte for byte', async () => {
    const size = 50 * MIB; // not a multiple of the part size: the last part is short
    // What this tests is the parts and the round trip, not the silence bound (the outage tests
    // do that). The test store is a Node process on the suite's busy cores: writing four parts
    // at once, it once left a socket silent past the production bound, and the open circuit
    // then refused the retry.
    const uploader = storageFor(environment, environment.s3.bucket, {
      ...DEFAULT_STORAGE_BOUNDS,
      socketIdleTimeoutMs: 30_000,
    });
    const commands = recordCommands(uploader);
    const partsDone = () =>
      commands.filter((command) => command.name === 'UploadPartCommand' && !command.failed).length;
    let maxAheadBytes = 0; // generated but not yet accepted by the store: what memory holds
    const source = patternStream(size, {
      onGenerated: (bytes) => (maxAheadBytes = Math.max(maxAheadBytes, bytes - partsDone() * PART_SIZE_BYTES)),
    });
    const key = 'archives/large.zip';
    const result = await uploader.upload(key, source.stream, { contentType: 'application/zip' });
    uploader.close();
    expect(result).toEqual({ key, size });
    expect(partsDone()).toBe(Math.ceil(size / PART_SIZE_BYTES));
    expect(commands.map((command) => command.name)).toContain('CompleteMultipartUploadCommand');
    expect(maxAheadBytes).toBeLessThan(4 * PART_SIZE_BYTES);
    expect(await storage.headObject(key)).toEqual({ size, contentType: 'application/zip' });

    const filename = 'Résumé – guild "archive" 档案.zip';
    const { url, expiresAt } = await storage.presignDownload(key, { filename, expiresInSeconds: 900 });
    expect(expiresAt.getTime() - Date.now()).toBeGreaterThan(898_000);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    const disposition = response.headers.get('content-disposition') ?? '';
    expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''/);
    expect(decodeURIComponent(disposition.split("filename*=UTF-8''")[1] ?? '')).toBe(filename);
    expect(await digestResponse(response)).toEqual({ bytes: size, sha256: source.sha256() });
  });

  it('stores small bodies of every kind with their content type and size', async () => {
    const bodies = { text: 'héllo', buffer: Buffer.from('buffer'), bytes: new Uint8Array([1, 2, 3]) };
    for (const [name, body] of Object.entries(bodies)) {
      const result = await storage.upload(`small/${name}`, body, { contentType: 'application/octet-stream' });
      const size = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
      expect(result.size).toBe(size);
      expect(await storage.headObject(`small/${name}`)).toEqual({ size, contentType: 'application/octet-stream' });
    }
    expect(await storage.headObject('small/missing')).toBeNull();
    expect(await storage.getObjectStream('small/missing')).toBeNull();
  });

  it('refuses a presigned link once it has expired', async () => {
    const key = 'links/expiring.txt';
    const expired = await fetch(await expiredLink(key));
    expect(expired.status).toBe(403);
    expect(await expired.text()).toMatch(/expired/i);
    // Control: a fresh link to the same object works, so the 403 is the expiry.
    const fresh = await storage.presignDownload(key, { filename: 'a.txt', expiresInSeconds: 60 });
    expect((await fetch(fresh.url)).status).toBe(200);
  });

  it('refuses a presigned link whose signature was changed', async () => {
    const key = 'links/tampered.txt';
    await putSmall(key);
    const { url } = await storage.presignDownload(key, { filename: 'a.txt', expiresInSeconds: 60 });
    const tampered = new URL(url);
    const signature = tampered.searchParams.get('X-Amz-Signature') ?? '';
    const flipped = (signature.startsWith('0') ? '1' : '0') + signature.slice(1);
    tampered.searchParams.set('X-Amz-Signature', flipped);
    expect((await fetch(url)).status).toBe(200);
    expect((await fetch(tampered)).status).toBe(403);
  });

  it('refuses a presigned link whose expiry was lengthened', async () => {
    const extended = new URL(await expiredLink('links/extended.txt'));
    extended.searchParams.set('X-Amz-Expires', '3600');
    expect((await fetch(extended)).status).toBe(403);
  });

  it('rejects lifetimes S3 cannot sign', async () => {
    for (const expiresInSeconds of [0, 1.5, 604_801]) {
      await expect(storage.presignDownload('any', { filename: 'a', expiresInSeconds })).rejects.toThrow(RangeError);
    }
  });
});
