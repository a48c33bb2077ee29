import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A real PNG (8-bit RGB) of `size`×`size` pixels: a diagonal gradient from `rgb` to white,
 * so every seeded image is a distinct, valid file that image tools and browsers open.
 */
export function gradientPng(size: number, rgb: readonly [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: truecolour
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3); // leading 0: filter type None
    for (let x = 0; x < size; x++) {
      const t = (x + y) / (2 * (size - 1 || 1));
      for (let c = 0; c < 3; c++) row[1 + x * 3 + c] = Math.round(rgb[c]! + (255 - rgb[c]!) * t);
    }
    rows.push(row);
  }
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A colour derived from a label, so the same label always draws the same picture. */
export function colourFor(label: string): [number, number, number] {
  const digest = createHash('sha256').update(label).digest();
  return [digest[0]!, digest[1]!, digest[2]!];
}

/** Image hashes as Fluxer makes them: the first 8 hex characters of the MD5 of the bytes. */
export function imageHash(bytes: Buffer): string {
  return createHash('md5').update(bytes).digest('hex').slice(0, 8);
}
