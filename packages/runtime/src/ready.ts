/** The IPC message a process sends its parent once it does its work (`details`: its port …). */
export const READY_MESSAGE = 'switchboard:ready';

export interface ReadyMessage {
  type: typeof READY_MESSAGE;
  name: string;
  [detail: string]: unknown;
}

/**
 * Tells a parent that started this process with an IPC channel (`npm start`, tests) that it
 * is ready, with details such as the port it listens on: a signal, not a log line to grep.
 * Without a channel it does nothing.
 */
export function announceReady(name: string, details: Record<string, unknown> = {}): void {
  if (!process.send || !process.connected) return;
  const message: ReadyMessage = { ...details, type: READY_MESSAGE, name };
  process.send(message);
}

export function isReadyMessage(message: unknown): message is ReadyMessage {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === READY_MESSAGE;
}
