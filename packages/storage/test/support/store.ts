import { ListBucketsCommand } from '@aws-sdk/client-s3';
import type { Storage } from '../../src/index.ts';

/**
 * True when the store is s3rver (identified by its fixed account name, not by the behaviour
 * under test). s3rver 3.7.1 accepts any SigV4 signature and has no ListMultipartUploads or
 * AbortMultipartUpload, so tests of those behaviours are skipped on it, visibly.
 */
export async function storeIsS3rver(storage: Storage): Promise<boolean> {
  const { Owner } = await storage.client.send(new ListBucketsCommand({}));
  return Owner?.DisplayName === 'S3rver';
}

export interface RecordedCommand {
  name: string;
  input: Record<string, unknown>;
  output?: Record<string, unknown>;
  /** The error's name when the store refused the command. */
  failed?: string;
}

/** Records every S3 command the storage's client sends, with its outcome, in order of completion. */
export function recordCommands(storage: Storage): RecordedCommand[] {
  const commands: RecordedCommand[] = [];
  storage.client.middlewareStack.add(
    (next, context) => async (args) => {
      const record: RecordedCommand = { name: context.commandName ?? '', input: args.input as Record<string, unknown> };
      try {
        const result = await next(args);
        commands.push({ ...record, output: result.output as unknown as Record<string, unknown> });
        return result;
      } catch (error) {
        commands.push({ ...record, failed: (error as Error).name });
        throw error;
      }
    },
    { step: 'initialize', name: 'recordCommands' },
  );
  return commands;
}
