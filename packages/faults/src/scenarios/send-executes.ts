import { call } from '@switchboard/testkit/http';

/** The gateway is not the fault here: an execute unanswered this long counts as refused. */
const ANSWER_TIMEOUT_MS = 30_000;

/** What the executes came back with, readable while they are still being sent. */
export interface SendTally {
  /** The content of each execute answered 204, in answer order. */
  accepted: string[];
  /** Other answers by status (or by error, for no answer at all). */
  refused: Map<string, number>;
}

/**
 * POSTs `count` plain executes to `url`, `concurrency` at a time, each with a content of its
 * own (`<tag> <n>`) so that a duplicate can be told from a second delivery of another execute.
 */
export async function sendExecutes(
  url: string,
  count: number,
  concurrency: number,
  tag: string,
  tally: SendTally,
): Promise<void> {
  let next = 0;
  const sender = async () => {
    while (next < count) {
      const content = `${tag} ${next++}`;
      const status = await call('POST', url, { body: { content }, timeoutMs: ANSWER_TIMEOUT_MS }).then(
        (answer) => String(answer.status),
        (error: Error) => `error ${error.message}`,
      );
      if (status === '204') tally.accepted.push(content);
      else tally.refused.set(status, (tally.refused.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, sender));
}
