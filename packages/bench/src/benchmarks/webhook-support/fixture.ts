import { createRequire } from 'node:module';
import { createPool, type Pool } from '@switchboard/db';
import { createWebhookFixture } from '@switchboard/testkit/webhooks';

export interface BenchWebhook {
  webhookId: string;
  token: string;
  channelId: string;
  guildId: string;
}

/** A guild, channel and webhook in the run's own database, written directly (the tests' fixture). */
export async function seedWebhook(databaseUrl: string): Promise<BenchWebhook> {
  const pool = createPool({ connectionString: databaseUrl, max: 1, applicationName: 'bench-webhook-seed' });
  try {
    const { webhookId, token, channelId, guildId } = await createWebhookFixture(pool, { name: 'bench hook' });
    return { webhookId, token, channelId, guildId };
  } finally {
    await pool.end();
  }
}

/** Messages stored for the webhook so far. */
export async function storedMessages(pool: Pool, webhookId: string): Promise<number> {
  const { rows } = await pool.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM messages WHERE webhook_id = $1',
    [webhookId],
  );
  return rows[0]?.count ?? 0;
}

const require = createRequire(import.meta.url);

/**
 * A real push delivery (the first api.github.com example of @octokit/webhooks-examples with
 * commits), as the JSON text GitHub sends: the code-host route renders it as one embed.
 */
export function realPushPayload(): string {
  const definitions = require('@octokit/webhooks-examples/api.github.com/index.json') as Array<{
    name: string;
    examples: Array<Record<string, unknown>>;
  }>;
  const push = definitions
    .find((definition) => definition.name === 'push')
    ?.examples.find(
      (example) => !example['forced'] && Array.isArray(example['commits']) && example['commits'].length > 0,
    );
  if (!push) throw new Error('@octokit/webhooks-examples has no push example with commits');
  return JSON.stringify(push);
}

/** What a CI or monitoring script posts to a Discord-style webhook: a line and one embed. */
export const CI_DEPLOY_MESSAGE = {
  content: 'Deploy **#4812** finished on `production` in 3m 12s',
  username: 'CI',
  embeds: [
    {
      title: 'api-server v2.31.0',
      url: 'https://ci.example.com/builds/4812',
      description: 'Rolled out to 12 of 12 instances; error rate unchanged.',
      color: 0x2ecc71,
      fields: [
        { name: 'Commit', value: '`9f2c1ab` Fix the retry budget of the export client', inline: true },
        { name: 'Author', value: 'octocat', inline: true },
      ],
      timestamp: '2026-11-27T04:00:00.000Z',
    },
  ],
};
