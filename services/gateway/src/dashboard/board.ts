import type { Queue } from 'bullmq';
import type { RequestHandler } from 'express';
import { QUEUES } from '@switchboard/contracts';
import type { Producer } from '@switchboard/queue';
import type { Board } from './bull-board.ts';

interface Boards {
  readOnly: Board;
  writable: Board;
}

/**
 * The boards over every queue of QUEUES, built on first use (not at start, so a gateway never
 * touches the queues unless someone opens the dashboard). The producer owns the BullMQ Queues
 * and may replace one after Redis failed it; each request checks and hands the boards the
 * current ones.
 */
export function queueBoards(producer: Producer, basePath: string): (writable: boolean) => RequestHandler {
  let current: Queue[] = [];
  let boards: Promise<Boards> | null = null;

  async function refresh(): Promise<Boards> {
    const queues = Object.values(QUEUES).map((name) => producer.bullQueue(name));
    if (boards === null) {
      current = queues;
      // bull-board's modules too are loaded on first use: most gateway processes never serve the dashboard.
      boards = import('./bull-board.ts').then(
        ({ board }) => ({ readOnly: board(queues, basePath, true), writable: board(queues, basePath, false) }),
        (error: unknown) => {
          boards = null;
          throw error;
        },
      );
      return boards;
    }
    const built = await boards;
    if (queues.some((queue, i) => queue !== current[i])) {
      built.readOnly.replaceQueues(queues);
      built.writable.replaceQueues(queues);
    }
    current = queues;
    return built;
  }

  return (writable) => (req, res, next) => {
    refresh().then(({ readOnly, writable: writer }) => (writable ? writer : readOnly).router(req, res, next), next);
  };
}
