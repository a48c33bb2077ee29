// bull-board itself: loaded by board.ts on the dashboard's first request.
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import type { Express, RequestHandler } from 'express';

export interface Board {
  router: RequestHandler;
  replaceQueues(queues: readonly Queue[]): void;
}

/**
 * bull-board's read-only mode is set per board, not per request, so there are two boards on
 * the same queues: a read-only one (no write buttons; its API refuses changes too) and a
 * writable one for keys holding `jobs:write`.
 */
export function board(queues: readonly Queue[], basePath: string, readOnlyMode: boolean): Board {
  const serverAdapter = new ExpressAdapter().setBasePath(basePath);
  const adapters = (list: readonly Queue[]) =>
    list.map((queue) => new BullMQAdapter(queue, { readOnlyMode, allowRetries: !readOnlyMode }));
  const { replaceQueues } = createBullBoard({
    queues: adapters(queues),
    serverAdapter,
    options: {
      uiConfig: {
        boardTitle: readOnlyMode ? 'Switchboard queues (read-only)' : 'Switchboard queues',
        miscLinks: [{ text: 'Sign out', url: `${basePath}/logout` }],
      },
    },
  });
  const app = serverAdapter.getRouter() as Express;
  // Its own express app: the gateway's settings do not reach it.
  app.disable('x-powered-by');
  return { router: app as RequestHandler, replaceQueues: (list) => replaceQueues(adapters(list)) };
}
