import { ChannelType, createPool, insertChannels, insertGuild, insertUsers, type Pool } from '@switchboard/db';
import { createSnowflakeGenerator } from '@switchboard/snowflake';
import { testSnowflakeWorkerId } from '@switchboard/testkit/ids';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelMessagesPage, userChannelMessagesPage, utcJson, type JsonPage } from '../src/archive-reads.ts';
import { jsonObjects, jsonShape, readBinaryRows, type JsonField } from '../src/copy/binary-json.ts';
import { copyBinaryRows, copyJsonRows } from '../src/copy/copy-out.ts';

const environment = useTestEnvironment();
/** Sessions in UTC, whatever the server's default: the reference row_to_json then writes dates as the binary path does. */
let utcPool: Pool;
const pool = () => utcPool;
beforeAll(() => {
  const url = new URL(environment.databaseUrl);
  url.searchParams.set('options', '-c TimeZone=UTC');
  utcPool = createPool({ connectionString: url.toString(), max: 2 });
});
afterAll(() => utcPool.end());
const ids = createSnowflakeGenerator(testSnowflakeWorkerId());

/** Every control character, JSON's and COPY's special characters, multi-byte UTF-8. */
const HOSTILE = `${Array.from({ length: 31 }, (_, code) => String.fromCharCode(code + 1)).join('')} "q" \\ \\\\ \\u0041 / \u007f «ünï» 🎉 \u2028`;

/** What row_to_json writes for `columns` of `rows` (the reference), and what the binary path writes. */
async function bothWays(rows: string, columns: Array<JsonField & { column: string; reference: string }>) {
  const reference = await copyJsonRows(
    pool(),
    `SELECT ',' || row_to_json(r)::text FROM (SELECT ${columns.map((c) => `${c.reference} AS "${c.key}"`).join(', ')} FROM ${rows}) r`,
  );
  const shape = jsonShape(columns);
  const { data } = await copyBinaryRows(pool(), `SELECT ${columns.map((c) => c.column).join(', ')} FROM ${rows}`);
  const page = readBinaryRows(data, shape);
  return {
    expected: reference.data.toString('utf8'),
    actual: Buffer.concat([...jsonObjects(page, shape)]).toString('utf8'),
    page,
  };
}

describe('JSON objects from binary COPY', () => {
  it('writes every kind byte for byte as row_to_json does, nulls and edge values included', async () => {
    const { expected, actual, page } = await bothWays(
      `(VALUES
         (0::bigint, ''::text, '2026-01-02 03:04:05+00'::timestamptz, '[]'::jsonb, 0::smallint, 0::integer),
         (9999, 'plain', '2026-01-02 03:04:05.1+00', '{"a": [1, "x\\"y", null, {"b": "ü\\n"}]}', -32768, -2147483648),
         (10000, $h$${HOSTILE}$h$, '2026-01-02 03:04:05.123456+00', '"text"', 32767, 2147483647),
         (4294967295, repeat('long text without escapes ', 40), 'infinity', '[{"embed": true}]', 1, 1),
         (4294967296, NULL, '-infinity', NULL, NULL, NULL),
         (9007199254740993, repeat($h$${HOSTILE}$h$, 2000), '0044-03-15 12:00:00+00 BC', '1.50', 7, 42),
         (9223372036854775807, 'x', NULL, 'true', 2, 3),
         (-1, 'y', '1999-12-31 23:59:59.999999+00', 'false', 3, 4),
         (-9223372036854775808, 'z', '2000-01-01 00:00:00+00', 'null', 4, 5),
         (NULL, '', '2038-01-19 03:14:08+00', '[]', 5, 6)
       ) AS v (big, txt, at, doc, small, int)`,
      [
        // VALUES gives a column the common type of its rows: each is cast to the type it tests.
        { key: 'big', column: 'big::bigint', reference: 'big::bigint::text', kind: 'int8-string' },
        { key: 'text', column: 'txt::text', reference: 'txt::text', kind: 'text' },
        { key: 'at', column: 'at::timestamptz', reference: 'at::timestamptz', kind: 'timestamptz' },
        { key: 'doc', column: 'doc::jsonb', reference: 'doc::jsonb', kind: 'jsonb' },
        { key: 'small', column: 'small::smallint', reference: 'small::smallint', kind: 'int2' },
        { key: 'int', column: 'int::integer', reference: 'int::integer', kind: 'int4' },
      ],
    );
    expect(actual).toBe(expected);
    expect(page.rows).toBe(10);
    // The last row's first field, even when null: the keyset never continues from a null key.
    expect(page.lastKey).toBeNull();
  });

  it("writes dates across PostgreSQL's whole range as its JSON does: BC, leap days, past 9999, fractions, infinities", async () => {
    const fixed = [
      '4713-11-24 00:00:00+00 BC',
      '0001-12-31 23:59:59.999999+00 BC',
      '0001-01-01 00:00:00+00',
      '0400-02-29 12:00:00+00',
      '1582-10-04 00:00:00+00',
      '1714-12-31 23:59:59.5+00',
      '1899-12-31 23:59:59+00',
      '1900-03-01 00:00:00+00',
      '1969-12-31 23:59:59.999999+00',
      '1970-01-01 00:00:00+00',
      '1999-12-31 23:59:59.999999+00',
      '2000-01-01 00:00:00+00',
      '2000-01-01 00:00:00.000001+00',
      '2000-02-29 23:59:59.12345+00',
      '2100-02-28 00:00:00.1+00',
      '2285-06-01 00:00:00+00',
      '2286-01-01 00:00:00+00',
      '9999-12-31 23:59:59.999999+00',
      '10000-01-01 00:00:00+00',
      '294276-12-31 23:59:59.999999+00',
      'infinity',
      '-infinity',
    ];
    // And 20,000 instants spread over 4000 BC – 6000 AD with every kind of fraction.
    const { expected, actual, page } = await bothWays(
      `(SELECT at FROM unnest('{${fixed.map((at) => `"${at}"`).join(',')}}'::timestamptz[]) AS at
        UNION ALL
        SELECT '2000-01-01 00:00:00+00'::timestamptz + make_interval(secs => ((n * 7919) % 20000 - 10000) * 15778800.123457 + (n % 7) * 0.1)
        FROM generate_series(1, 20000) AS n) AS v`,
      [{ key: 'at', column: 'at', reference: 'at', kind: 'timestamptz' }],
    );
    expect(page.rows).toBe(fixed.length + 20_000);
    expect(actual).toBe(expected);
  });

  it("answers the last row's key and writes many rows across slices", async () => {
    const { expected, actual, page } = await bothWays(`generate_series(1, 3000) AS n`, [
      { key: 'id', column: '(n * 4294967311)::bigint', reference: '(n * 4294967311)::text', kind: 'int8-string' },
      // Every fourth with a control character as its only one to escape.
      {
        key: 'content',
        column: `'message ' || n || ' «ü» ' || repeat(chr(1 + n % 31), (n % 4 = 0)::int)`,
        reference: `'message ' || n || ' «ü» ' || repeat(chr(1 + n % 31), (n % 4 = 0)::int)`,
        kind: 'text',
      },
    ]);
    expect(actual).toBe(expected);
    expect(page.lastKey).toBe(String(3000n * 4294967311n));
  });

  it('refuses output whose layout does not match the shape', async () => {
    const { data } = await copyBinaryRows(pool(), `SELECT 1::integer AS n`);
    expect(() => readBinaryRows(data, jsonShape([{ key: 'n', kind: 'int8-string' }]))).toThrow(/binary int8-string/);
    expect(() =>
      readBinaryRows(
        data,
        jsonShape([
          { key: 'n', kind: 'int4' },
          { key: 'm', kind: 'int4' },
        ]),
      ),
    ).toThrow(/1 fields/);
    expect(() => readBinaryRows(Buffer.from('not copy output'), jsonShape([]))).toThrow(/not COPY binary/);
  });
});

describe('dates PostgreSQL renders (utcJson)', () => {
  it('are written as in a UTC session whatever the session TimeZone is', async () => {
    const url = new URL(environment.databaseUrl);
    url.searchParams.set('options', '-c TimeZone=Asia/Kathmandu');
    const elsewhere = createPool({ connectionString: url.toString(), max: 1 });
    const instants = `(SELECT at FROM unnest('{"0044-03-15 12:00:00+00 BC","2000-02-29 23:59:59.12345+00","2026-01-02 03:04:05+00",infinity,-infinity,NULL}'::timestamptz[]) AS at
       UNION ALL
       SELECT '2000-01-01 00:00:00+00'::timestamptz + make_interval(secs => ((n * 7919) % 2000 - 1000) * 157788000.123457 + (n % 7) * 0.1)
       FROM generate_series(1, 2000) AS n) AS v`;
    try {
      const { rows: reference } = await pool().query(`SELECT to_json(at)::text AS json FROM ${instants}`);
      const { rows: rendered } = await elsewhere.query(`SELECT ${utcJson('at')}::text AS json FROM ${instants}`);
      const { rows: local } = await elsewhere.query(`SELECT to_json(at)::text AS json FROM ${instants} LIMIT 3`);
      expect(rendered).toEqual(reference);
      expect(local[1]!.json).toContain('+05:45');
    } finally {
      await elsewhere.end();
    }
  });
});

describe('COPY pages', () => {
  it("fail with the server's error when a row fails midway, and the pool goes on serving", async () => {
    const failed = await copyBinaryRows(pool(), 'SELECT n, 1 / (n - 4000) FROM generate_series(1, 5000) AS n').catch(
      (error: unknown) => error,
    );
    expect((failed as { code?: string }).code).toBe('22012');
    expect((await copyBinaryRows(pool(), 'SELECT n FROM generate_series(1, 3) AS n')).rows).toBe(3);
    expect((await pool().query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('are cancelled at the statement timeout', async () => {
    const url = new URL(environment.databaseUrl);
    const bounded = createPool({ connectionString: url.toString(), max: 1, queryTimeoutMs: 200 });
    try {
      const slow = await copyBinaryRows(bounded, 'SELECT pg_sleep(2)').catch((error: unknown) => error);
      expect((slow as { code?: string }).code).toBe('57014');
      expect((await copyBinaryRows(bounded, 'SELECT 1')).rows).toBe(1);
    } finally {
      await bounded.end();
    }
  });
});

describe('archive message pages', () => {
  it('hold each message exactly as row_to_json wrote it, page after page', async () => {
    const [authorId, guildId, channelId, webhookId] = [ids.next(), ids.next(), ids.next(), ids.next()];
    await insertUsers(pool(), [{ id: authorId, username: 'author' }]);
    await insertGuild(pool(), { id: guildId, name: 'Binary pages', ownerId: authorId });
    await insertChannels(pool(), [
      { id: channelId, guildId, type: ChannelType.GuildText, name: 'general', position: 0 },
    ]);
    await pool().query(
      `INSERT INTO messages (id, channel_id, guild_id, author_id, webhook_id, webhook_name, type, content, embeds, flags, created_at, edited_at)
       VALUES ($1, $5, $6, $7, NULL, NULL, 0, $8, '[]', 0, '2026-03-04 05:06:07.89+00', NULL),
              ($2, $5, $6, NULL, $9, 'Hook "β"', 0, 'from a webhook', '[{"title": "T\\u00e9", "fields": [{"name": "n", "value": "v\\n"}]}]', 4, '2026-03-04 05:06:08+00', '2026-03-04 06:00:00.000001+00'),
              ($3, $5, $6, $7, NULL, NULL, 19, '', '[]', 64, '2026-03-04 05:06:09.5+00', '2026-03-05 00:00:00+00'),
              ($4, $5, $6, $7, NULL, NULL, 0, 'last', '[]', 0, '2026-03-04 05:06:10+00', NULL)`,
      [ids.next(), ids.next(), ids.next(), ids.next(), channelId, guildId, authorId, HOSTILE, webhookId],
    );
    const pages = async (read: (after: string) => Promise<JsonPage>) => {
      const text: string[] = [];
      for (let after = '0'; ; ) {
        const page = await read(after);
        text.push(Buffer.concat([...page.json]).toString('utf8'));
        if (page.rows < 3 || page.last === null) return text.join('');
        after = page.last;
      }
    };
    const reference = async (columns: string, where: string) =>
      (
        await copyJsonRows(
          pool(),
          `SELECT ',' || row_to_json(m)::text FROM messages AS msg, LATERAL (SELECT ${columns}) m WHERE ${where} ORDER BY msg.id`,
        )
      ).data.toString('utf8');

    expect(await pages((after) => channelMessagesPage(pool(), channelId, after, 3))).toBe(
      await reference(
        `msg.id::text AS id, msg.author_id::text AS author_id, msg.webhook_id::text AS webhook_id, msg.webhook_name,
         msg.created_at AS timestamp, msg.edited_at AS edited_timestamp, msg.type, msg.content, msg.embeds, msg.flags`,
        `msg.channel_id = ${channelId}`,
      ),
    );
    expect(await pages((after) => userChannelMessagesPage(pool(), authorId, channelId, after, 3))).toBe(
      await reference(
        `msg.id::text AS id, msg.created_at AS timestamp, msg.edited_at AS edited_timestamp, msg.content, msg.embeds`,
        `msg.channel_id = ${channelId} AND msg.author_id = ${authorId}`,
      ),
    );
  });
});
