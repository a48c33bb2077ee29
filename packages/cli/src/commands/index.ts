import type { RegisteredCommand } from '../command.ts';
import { adminCreateCommand } from './admin-create.ts';
import {
  archivesDownloadCommand,
  archivesGetCommand,
  archivesListCommand,
  archivesTriggerCommand,
  archivesWatchCommand,
} from './archives.ts';
import { auditListCommand, auditSearchCommand } from './audit.ts';
import { BAN_COMMANDS } from './bans.ts';
import { demoSeedCommand } from './demo-seed.ts';
import { jobsFailedCommand, jobsRetryCommand } from './jobs.ts';
import { keysCreateCommand, keysListCommand, keysRevokeCommand } from './keys.ts';
import { migrateCommand } from './migrate.ts';
import { bulkAddMembersCommand, bulkGetCommand, purgesGetCommand, purgesStartCommand } from './operations.ts';
import { webhooksDeleteCommand, webhooksGetCommand, webhooksListCommand } from './webhooks.ts';

/**
 * Every command, in the order `--help` lists them: the table the parser, the help and the
 * tests all read. Only the first three reach the database; the rest go through the admin API.
 */
export const COMMANDS: readonly RegisteredCommand[] = [
  migrateCommand,
  adminCreateCommand,
  demoSeedCommand,
  keysCreateCommand,
  keysListCommand,
  keysRevokeCommand,
  ...BAN_COMMANDS,
  auditListCommand,
  auditSearchCommand,
  webhooksListCommand,
  webhooksGetCommand,
  webhooksDeleteCommand,
  archivesTriggerCommand,
  archivesListCommand,
  archivesGetCommand,
  archivesWatchCommand,
  archivesDownloadCommand,
  purgesStartCommand,
  purgesGetCommand,
  bulkAddMembersCommand,
  bulkGetCommand,
  jobsFailedCommand,
  jobsRetryCommand,
];
