import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import type { Express, RequestHandler } from 'express';
import { QUEUES } from '@switchboard/contracts';
import type { Producer } from '@switchboard/queue';

interface Board {
  router: RequestHandler;
  replaceQueues(queues: readonly Queue[]): void;
}

/**
 * bull-board's read-only mode is set per board, not per request, so there are two boards on
 * the same queues: a read-only one (no write buttons; its API refuses changes too) and a
 * writable one for keys holding `jobs:write`.
 */
function board(queues: readonly Queue[], basePath: string, readOnlyMode: boolean): Board {
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

/**
 * The boards over every queue of QUEUES, built on first use (not at start, so a gateway never
 * touches the queues unless someone opens the dashboard). The producer owns the BullMQ Queues
 * and may replace one after Redis failed it; each request checks and hands the boards the
 * current ones.
 */
export function queueBoards(producer: Producer, basePath: string): (writable: boolean) => RequestHandler {
  let current: Queue[] = [];
  let boards: { readOnly: Board; writable: Board } | null = null;

  function refresh(): { readOnly: Board; writable: Board } {
    const queues = Object.values(QUEUES).map((name) => producer.bullQueue(name));
    if (boards === null) {
      boards = { readOnly: board(queues, basePath, true), writable: board(queues, basePath, false) };
    } else if (queues.some((queue, i) => queue !== current[i])) {
      boards.readOnly.replaceQueues(queues);
      boards.writable.replaceQueues(queues);
    }
    current = queues;
    return boards;
  }

  return (writable) => (req, res, next) => {
    const { readOnly, writable: writer } = refresh();
    (writable ? writer : readOnly).router(req, res, next);
  };
}
