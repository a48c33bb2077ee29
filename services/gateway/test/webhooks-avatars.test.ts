import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '@switchboard/contracts';
import { call } from '@switchboard/testkit/http';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useGateway } from './helpers.ts';
import { createGuildFixture, createWebhook, dataUri, IMAGES, type GuildFixture } from './webhooks-fixtures.ts';

const environment = useTestEnvironment();
const gateway = useGateway(environment);

const expectedHash = (bytes: Buffer, gif = false) =>
  `${gif ? 'a_' : ''}${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}`;

async function storedObject(key: string): Promise<{ bytes: Buffer; contentType: string | undefined } | null> {
  const head = await gateway.storage.headObject(key);
  const stream = await gateway.storage.getObjectStream(key);
  if (!head || !stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return { bytes: Buffer.concat(chunks), contentType: head.contentType };
}

/** A PNG signature followed by zeros: `size` bytes in all. */
const pngOfSize = (size: number) => Buffer.concat([IMAGES.png.subarray(0, 8), Buffer.alloc(size - 8)]);

describe('avatar on create', () => {
  let guild: GuildFixture;
  beforeAll(async () => {
    guild = await createGuildFixture(gateway.pool);
  });

  it('accepts png, jpeg, webp and gif by their magic bytes whatever the declared type, and stores them under the hash', async () => {
    const accounts = [guild.owner, guild.admin, guild.manager, guild.bot];
    for (const [i, [format, bytes]] of Object.entries(IMAGES).entries()) {
      // Declared as text/plain: the MIME type of a data URI is never trusted.
      const made = await createWebhook(gateway.url, guild.channelIds[0], accounts[i]!, {
        name: format,
        avatar: dataUri(bytes, 'text/plain'),
      });
      expect(made.avatar, format).toBe(expectedHash(bytes, format === 'gif'));
      const object = await storedObject(`avatars/${made.id}/${made.avatar}`);
      expect(object?.bytes.equals(bytes), format).toBe(true);
      expect(object?.contentType).toBe(`image/${format}`);
    }
  });

  it('accepts bare base64 without a data: prefix', async () => {
    const made = await createWebhook(gateway.url, guild.channelIds[1], guild.owner, {
      name: 'bare',
      avatar: IMAGES.png.toString('base64'),
    });
    expect(made.avatar).toBe(expectedHash(IMAGES.png));
  });

  it('refuses other formats and non-canonical base64 with 400 at avatar', async () => {
    const bodies = [
      dataUri(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/png'),
      dataUri(Buffer.from('BM this is a bitmap header'), 'image/bmp'),
      'data:image/png;base64,',
      'data:image/png;base64,iVBORw0KGgo',
      'data:image/png;base64,iVBORw0KGgo!AAAA',
      'data:image/png;base64,iVBORw0KGgp=',
    ];
    for (const avatar of bodies) {
      const answer = await call('POST', `${gateway.url}/v1/channels/${guild.channelIds[1]}/webhooks`, {
        token: guild.admin.token,
        body: { name: 'bad', avatar },
      });
      expect(answer.status, avatar.slice(0, 40)).toBe(400);
      expect(answer.body.errors).toEqual([expect.objectContaining({ path: 'avatar' })]);
    }
    const svg = await call('POST', `${gateway.url}/v1/channels/${guild.channelIds[1]}/webhooks`, {
      token: guild.admin.token,
      body: { name: 'bad', avatar: dataUri(Buffer.from('<svg/>')) },
    });
    expect(svg.body.errors[0].message).toBe('Invalid image format. Supported extensions: jpeg, png, webp, gif');
  });
});

describe('avatar size', () => {
  it('accepts exactly 10 MiB and refuses one byte more with 400', async () => {
    const guild = await createGuildFixture(gateway.pool);
    const max = LIMITS.webhooks.avatarMaxBytes;
    const largest = pngOfSize(max);
    const made = await createWebhook(gateway.url, guild.channelIds[0], guild.owner, {
      name: 'big',
      avatar: dataUri(largest),
    });
    expect((await gateway.storage.headObject(`avatars/${made.id}/${made.avatar}`))?.size).toBe(max);
    const tooBig = await call('POST', `${gateway.url}/v1/channels/${guild.channelIds[0]}/webhooks`, {
      token: guild.owner.token,
      body: { name: 'too big', avatar: dataUri(pngOfSize(max + 1)) },
    });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.errors[0]).toMatchObject({ path: 'avatar', message: 'Avatar must be at most 10 MiB.' });
  });

  it('answers 413 for a body beyond what the largest avatar needs', async () => {
    const guild = await createGuildFixture(gateway.pool);
    const answer = await call('POST', `${gateway.url}/v1/channels/${guild.channelIds[0]}/webhooks`, {
      token: guild.owner.token,
      body: { name: 'huge', avatar: 'A'.repeat(15 * 1024 * 1024) },
    });
    expect(answer.status).toBe(413);
  });
});

describe('avatar on update', () => {
  it('replaces by id, keeps the old object (old messages show it), clears with null, and "" leaves it', async () => {
    const guild = await createGuildFixture(gateway.pool);
    const made = await createWebhook(gateway.url, guild.channelIds[0], guild.owner, {
      name: 'a',
      avatar: dataUri(IMAGES.png),
    });
    const path = `/v1/webhooks/${made.id}`;
    const replaced = await call('PATCH', `${gateway.url}${path}`, {
      token: guild.owner.token,
      body: { avatar: dataUri(IMAGES.gif) },
    });
    expect(replaced.body.avatar).toBe(expectedHash(IMAGES.gif, true));
    expect(await gateway.storage.headObject(`avatars/${made.id}/${made.avatar}`)).not.toBeNull();
    expect(await gateway.storage.headObject(`avatars/${made.id}/${replaced.body.avatar}`)).not.toBeNull();
    const kept = await call('PATCH', `${gateway.url}${path}`, {
      token: guild.owner.token,
      body: { avatar: '', name: 'renamed' },
    });
    expect(kept.body).toMatchObject({ avatar: replaced.body.avatar, name: 'renamed' });
    const cleared = await call('PATCH', `${gateway.url}${path}`, { token: guild.owner.token, body: { avatar: null } });
    expect(cleared.body.avatar).toBeNull();
  });

  it('replaces by token', async () => {
    const guild = await createGuildFixture(gateway.pool);
    const made = await createWebhook(gateway.url, guild.channelIds[0], guild.owner);
    const answer = await call('PATCH', `${gateway.url}/v1/webhooks/${made.id}/${made.token}`, {
      body: { avatar: dataUri(IMAGES.webp) },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.avatar).toBe(expectedHash(IMAGES.webp));
    expect(answer.body).not.toHaveProperty('user');
    expect(await gateway.storage.headObject(`avatars/${made.id}/${answer.body.avatar}`)).not.toBeNull();
  });

  it('refuses a bad avatar on PATCH without changing the webhook', async () => {
    const guild = await createGuildFixture(gateway.pool);
    const made = await createWebhook(gateway.url, guild.channelIds[0], guild.owner, {
      name: 'a',
      avatar: dataUri(IMAGES.jpeg),
    });
    const answer = await call('PATCH', `${gateway.url}/v1/webhooks/${made.id}`, {
      token: guild.owner.token,
      body: { name: 'b', avatar: dataUri(Buffer.from('GIF87')) },
    });
    expect([answer.status, answer.body.errors[0].path]).toEqual([400, 'avatar']);
    const read = await call('GET', `${gateway.url}/v1/webhooks/${made.id}`, { token: guild.owner.token });
    expect(read.body).toMatchObject({ name: 'a', avatar: made.avatar });
  });
});
