import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from '@switchboard/config';
import { snowflakeSchema } from '@switchboard/contracts';
import type { ApiClient } from '../api.ts';
import { exactlyOneOf, intOption } from '../args.ts';
import { getByIdCommand } from '../by-id-commands.ts';
import { defineCommand, type OptionSpec } from '../command.ts';
import { CliError, EXIT } from '../output.ts';
import { record, table, type Rendered } from '../render.ts';

/** An operation's answer: the outcome (200, or a completed status), or `{<id>, status}` while it runs. */
type OperationAnswer = Record<string, unknown> & { status?: string };

const WAIT_OPTIONS: Record<string, OptionSpec> = {
  wait: { type: 'boolean', description: 'still running when the API answers (202): poll its status until it ends' },
  'timeout-seconds': { type: 'string', value: 'N', description: 'how long --wait waits (3600); then exit 124' },
};
const waitShape = { wait: z.boolean().optional(), 'timeout-seconds': intOption(1, 7 * 24 * 3600).default(3_600) };

/** An operation the API may finish after its request: where its id is, and its status route. */
interface OperationKind {
  idField: string;
  statusPath: (id: string) => string;
  /** The `get` command's word for the id, and what `--help` says of it. */
  idWord: { name: string; description: string };
}

const ASSET_PURGE: OperationKind = {
  idField: 'purge_id',
  statusPath: (id) => `/v1/admin/assets/purges/${id}`,
  idWord: { name: 'purge-id', description: 'purge_id of a purge that outlived its request' },
};

const BULK_OPERATION: OperationKind = {
  idField: 'operation_id',
  statusPath: (id) => `/v1/admin/bulk/operations/${id}`,
  idWord: { name: 'operation-id', description: 'operation_id of an operation that outlived its request' },
};

/**
 * POSTs the operation; with `wait`, a 202's status route is polled (every second) until the
 * operation completed or failed. A failed operation exits 1 with OPERATION_FAILED.
 */
async function runOperation(
  api: ApiClient,
  start: { kind: OperationKind; path: string; body: unknown },
  wait: { wait?: boolean | undefined; 'timeout-seconds': number },
): Promise<OperationAnswer> {
  const { idField, statusPath } = start.kind;
  let answer = await api.request<OperationAnswer>('POST', start.path, { body: start.body });
  const id = answer[idField];
  if (!wait.wait || typeof id !== 'string') return answer;
  const deadline = Date.now() + wait['timeout-seconds'] * 1000;
  while (answer.status === 'queued' || answer.status === 'running') {
    if (Date.now() + 1000 > deadline) {
      throw new CliError('WAIT_TIMEOUT', `${id} is still ${answer.status} after ${wait['timeout-seconds']} s.`, {
        exitCode: EXIT.timeout,
        details: { [idField]: id, status: answer.status },
      });
    }
    await sleep(1000);
    answer = await api.request<OperationAnswer>('GET', statusPath(id));
  }
  if (answer.status === 'failed') {
    throw new CliError('OPERATION_FAILED', `${id} failed: ${String(answer['error'] ?? 'no reason recorded')}.`, {
      details: answer,
    });
  }
  return answer;
}

/** Plain fields as a record, and each list of records (per-item outcomes) as a table. */
function renderOutcome(answer: OperationAnswer): Rendered {
  const plain = Object.fromEntries(Object.entries(answer).filter(([, value]) => !Array.isArray(value)));
  const lists = Object.entries(answer).filter((entry): entry is [string, unknown[]] => Array.isArray(entry[1]));
  return {
    kind: 'sections',
    sections: [
      ...(Object.keys(plain).length > 0 ? [record(plain)] : []),
      ...lists.map(([name, items]) =>
        table(
          items.map((item) =>
            typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : { id: item },
          ),
          undefined,
          `(no ${name})`,
        ),
      ),
    ],
  };
}

export const purgesStartCommand = defineCommand({
  name: 'purges start',
  summary: 'purge emoji and sticker assets by id, or every asset of a guild (objects in S3 included)',
  uses: 'api',
  audited: true,
  options: {
    guild: { type: 'string', value: 'ID', description: 'every asset of this guild' },
    asset: { type: 'string', multiple: true, value: 'ID', description: 'an emoji or sticker id (repeat for more)' },
    ...WAIT_OPTIONS,
  },
  schema: exactlyOneOf(
    { guild: snowflakeSchema.optional(), asset: z.array(z.string().min(1)).optional(), ...waitShape },
    'guild',
    'asset',
  ),
  run: (options, api) =>
    runOperation(
      api,
      {
        kind: ASSET_PURGE,
        path: '/v1/admin/assets/purge',
        body: options.guild ? { guild_id: options.guild } : { ids: options.asset },
      },
      options,
    ),
  render: renderOutcome,
});

/** `<things> get <id>`: an operation's status, and its outcome once it completed. */
function operationGetCommand(name: string, operation: string, kind: OperationKind) {
  return getByIdCommand({
    name,
    summary: `${operation}'s status, and its outcome once it completed`,
    id: kind.idWord,
    path: kind.statusPath,
    render: renderOutcome,
  });
}

export const purgesGetCommand = operationGetCommand('purges get', 'an asset purge', ASSET_PURGE);

/** User ids from `--user` and from a file of them (one per line, or separated by spaces or commas). */
async function userIds(options: { user?: string[] | undefined; 'users-file'?: string | undefined }): Promise<string[]> {
  const fromFile = options['users-file']
    ? (await readFile(options['users-file'], 'utf8')).split(/[\s,]+/).filter((word) => word.length > 0)
    : [];
  const ids = [...(options.user ?? []), ...fromFile];
  const bad = ids.find((id) => !snowflakeSchema.safeParse(id).success);
  if (bad !== undefined || ids.length === 0) {
    throw new CliError('INVALID_ARGUMENTS', 'Invalid command options.', {
      exitCode: EXIT.usage,
      details: [
        { option: '--user', message: bad === undefined ? 'give --user or --users-file' : `"${bad}" is no user id` },
      ],
    });
  }
  return ids;
}

export const bulkAddMembersCommand = defineCommand({
  name: 'bulk add-members',
  summary: 'add users to a guild in one operation; prints who was added and who failed why',
  uses: 'api',
  audited: true,
  options: {
    guild: { type: 'string', value: 'ID', description: 'the guild' },
    user: { type: 'string', multiple: true, value: 'ID', description: 'a user id (repeat for more)' },
    'users-file': { type: 'string', value: 'FILE', description: 'user ids, one per line' },
    ...WAIT_OPTIONS,
  },
  schema: z.object({
    guild: snowflakeSchema,
    user: z.array(z.string()).optional(),
    'users-file': z.string().optional(),
    ...waitShape,
  }),
  run: async (options, api) =>
    runOperation(
      api,
      {
        kind: BULK_OPERATION,
        path: '/v1/admin/bulk/add-guild-members',
        body: { guild_id: options.guild, user_ids: await userIds(options) },
      },
      options,
    ),
  render: renderOutcome,
});

export const bulkGetCommand = operationGetCommand('bulk get', 'a bulk operation', BULK_OPERATION);
