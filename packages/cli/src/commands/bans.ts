import { z } from '@switchboard/config';
import { LIMITS } from '@switchboard/contracts';
import type { ApiClient } from '../api.ts';
import { intOption } from '../args.ts';
import { defineCommand, type OptionSpec, type RegisteredCommand } from '../command.ts';
import { CliError } from '../output.ts';
import { table, type Rendered } from '../render.ts';

/** The three ban lists of the admin API, by the names its bodies use. */
const KINDS = {
  ip: { single: 'ip', plural: 'ips', what: 'IP addresses or CIDR ranges', example: '203.0.113.7 or 198.51.100.0/24' },
  email: { single: 'email', plural: 'emails', what: 'e-mail addresses', example: 'spam@example.com' },
  phone: { single: 'phone', plural: 'phones', what: 'phone numbers', example: '+15555550100' },
} as const;

type Kind = keyof typeof KINDS;

const values = (kind: Kind) =>
  z.array(z.string().min(1)).min(1, `give at least one ${KINDS[kind].single}`).max(LIMITS.bans.maxValuesPerRequest);

interface BanCheck {
  banned: boolean;
  matched?: string;
  reason?: string | null;
  expires_at?: string | null;
}

function addCommand(kind: Kind): RegisteredCommand {
  const { single, plural, what, example } = KINDS[kind];
  const ipOnly: Record<string, OptionSpec> =
    kind === 'ip'
      ? {
          retroactive: { type: 'boolean', description: 'also revoke the user tokens last used inside the ranges' },
          force: { type: 'boolean', description: "accept a range wider than the gateway's floor (audited as forced)" },
        }
      : {};
  return defineCommand({
    name: `bans ${kind} add`,
    summary: `ban ${what}`,
    uses: 'api',
    audited: true,
    positionals: [{ name: single, variadic: true, description: `one or more ${what}, e.g. ${example}` }],
    options: {
      'ban-reason': { type: 'string', value: 'TEXT', description: "the ban's reason (default: --reason)" },
      'expires-in-seconds': { type: 'string', value: 'N', description: 'the ban lapses after this long (never)' },
      ...ipOnly,
    },
    schema: z.object({
      [single]: values(kind),
      'ban-reason': z.string().optional(),
      'expires-in-seconds': intOption(1, 100 * 365 * 86_400).optional(),
      retroactive: z.boolean().optional(),
      force: z.boolean().optional(),
    }),
    run: async (options, api) => {
      const banned = options[single] as string[];
      await api.request('POST', `/v1/admin/bans/${kind}/add`, {
        body: {
          [plural]: banned,
          reason: options['ban-reason'],
          expires_in_seconds: options['expires-in-seconds'],
          retroactive: options.retroactive,
          force: options.force,
        },
      });
      return { banned };
    },
  });
}

/**
 * Lifts the bans on exactly these values, then asks for each whether another ban still covers
 * it (a wider range): what else keeps an address out. A key holding `ban:ip:remove` can lift a
 * ban from a banned address too (docs/decisions.md#ip-ban-enforcement).
 */
function removeCommand(kind: Kind): RegisteredCommand {
  const { single, plural, what } = KINDS[kind];
  return defineCommand({
    name: `bans ${kind} remove`,
    summary: `lift the bans on exactly these ${what}, and name any ban still covering them`,
    uses: 'api',
    audited: true,
    positionals: [{ name: single, variadic: true, description: `one or more ${what}` }],
    schema: z.object({ [single]: values(kind) }),
    run: async (options, api) => {
      const removed = options[single] as string[];
      await api.request('POST', `/v1/admin/bans/${kind}/remove`, { body: { [plural]: removed } });
      const checks = await Promise.all(removed.map((value) => stillBanned(api, kind, value)));
      const stillCovering = [
        ...new Set(checks.flatMap((check) => (check.banned && check.matched ? [check.matched] : []))),
      ];
      return { removed, still_covering: stillCovering };
    },
    render: (result: { removed: string[]; still_covering: string[] }): Rendered =>
      table([
        ...result.removed.map((value) => ({ value, state: 'removed' })),
        ...result.still_covering.map((value) => ({ value, state: 'still covering' })),
      ]),
  });
}

/**
 * Whether a ban still covers `value`. The check route, unlike removal, refuses a caller whose
 * own address is banned (403 IP_BANNED): then some ban still covers the caller, whichever.
 */
async function stillBanned(api: ApiClient, kind: Kind, value: string): Promise<BanCheck> {
  try {
    return await api.request<BanCheck>('POST', `/v1/admin/bans/${kind}/check`, {
      body: { [KINDS[kind].single]: value },
    });
  } catch (error) {
    if (error instanceof CliError && error.code === 'IP_BANNED') return { banned: true, matched: 'your own address' };
    throw error;
  }
}

function checkCommand(kind: Kind): RegisteredCommand {
  const { single, what } = KINDS[kind];
  return defineCommand({
    name: `bans ${kind} check`,
    summary: `whether one of the ${what} is banned, and by which ban`,
    uses: 'api',
    positionals: [{ name: single, description: `one of the ${what}` }],
    schema: z.object({ [single]: z.string().min(1) }),
    run: (options, api) =>
      api.request<BanCheck>('POST', `/v1/admin/bans/${kind}/check`, { body: { [single]: options[single] } }),
  });
}

/** The options that fetch the page after this one, keeping the filter (quoted for a POSIX shell). */
function nextPageOptions(cursor: string, contains: string | undefined): string {
  if (contains === undefined) return `--cursor ${cursor}`;
  return `--cursor ${cursor} --contains '${contains.replaceAll("'", `'\\''`)}'`;
}

function listCommand(kind: Kind): RegisteredCommand {
  const { what } = KINDS[kind];
  const { list } = LIMITS.bans;
  return defineCommand({
    name: `bans ${kind} list`,
    summary: `banned ${what}, newest first, a page at a time`,
    uses: 'api',
    options: {
      limit: { type: 'string', value: 'N', description: `bans per page (${list.default})` },
      cursor: { type: 'string', value: 'CURSOR', description: 'the next page: next_cursor of the page before' },
      contains: { type: 'string', value: 'TEXT', description: 'only bans whose value holds TEXT, in any case' },
      'include-expired': { type: 'boolean', description: 'list lapsed bans too' },
    },
    schema: z.object({
      limit: intOption(list.min, list.max).optional(),
      cursor: z.string().optional(),
      contains: z.string().min(1).max(LIMITS.bans.containsMaxLength).optional(),
      'include-expired': z.boolean().optional(),
    }),
    run: async (options, api) => {
      const page = await api.request<{ bans: Array<Record<string, unknown>>; next_cursor: string | null }>(
        'POST',
        `/v1/admin/bans/${kind}/list`,
        {
          body: {
            limit: options.limit,
            cursor: options.cursor,
            contains: options.contains,
            include_expired: options['include-expired'],
          },
        },
      );
      // The filter goes along, so the hint for the next page can repeat it.
      return options.contains === undefined ? page : { ...page, contains: options.contains };
    },
    render: (page): Rendered => ({
      kind: 'sections',
      sections: [
        table(page.bans, undefined, 'contains' in page ? `(no ban contains "${page.contains}")` : '(no bans)'),
        ...(page.next_cursor
          ? [
              {
                kind: 'text' as const,
                text: `more: ${nextPageOptions(page.next_cursor, 'contains' in page ? page.contains : undefined)}`,
              },
            ]
          : []),
      ],
    }),
  });
}

export const BAN_COMMANDS: readonly RegisteredCommand[] = (Object.keys(KINDS) as Kind[]).flatMap((kind) => [
  addCommand(kind),
  listCommand(kind),
  checkCommand(kind),
  removeCommand(kind),
]);
