/** What the scenario compares: executes the gateway accepted, messages stored, events appended. */
export interface DeliveryRecords {
  /** The unique content of every execute answered 204. */
  accepted: readonly string[];
  stored: ReadonlyArray<{ id: string; content: string }>;
  /** The `events` stream entries about the webhook's channel. */
  events: ReadonlyArray<{ message_id: string }>;
}

export interface DeliveryLedger {
  accepted: number;
  stored: number;
  /** Accepted executes with no stored message. */
  lost: number;
  /** Messages stored beyond the first for one execute's content. */
  duplicated: number;
  events: number;
  /** Stored messages no MESSAGE_CREATE was appended for. */
  missingEvents: number;
  /** MESSAGE_CREATE entries beyond the first for one message. */
  duplicateEvents: number;
  /** Entries for a message id that is not stored. */
  strayEvents: number;
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

const excess = (counts: Map<string, number>) =>
  [...counts.values()].reduce((sum, count) => sum + Math.max(0, count - 1), 0);

/** Exactly-once, checked: every accepted execute stored once and announced once. */
export function reconcile({ accepted, stored, events }: DeliveryRecords): DeliveryLedger {
  const byContent = countBy(stored, (row) => row.content);
  const eventsByMessage = countBy(events, (event) => event.message_id);
  const storedIds = new Set(stored.map((row) => row.id));
  return {
    accepted: accepted.length,
    stored: stored.length,
    lost: accepted.filter((content) => !byContent.has(content)).length,
    duplicated: excess(byContent),
    events: events.length,
    missingEvents: stored.filter((row) => !eventsByMessage.has(row.id)).length,
    duplicateEvents: excess(eventsByMessage),
    strayEvents: events.filter((event) => !storedIds.has(event.message_id)).length,
  };
}

/** Why a ledger fails exactly-once; empty when it holds. */
export function ledgerProblems(ledger: DeliveryLedger): string[] {
  const problems: string[] = [];
  if (ledger.lost > 0) problems.push(`${ledger.lost} accepted executes lost`);
  if (ledger.duplicated > 0) problems.push(`${ledger.duplicated} messages duplicated`);
  if (ledger.missingEvents > 0) problems.push(`${ledger.missingEvents} messages without MESSAGE_CREATE`);
  if (ledger.duplicateEvents > 0) problems.push(`${ledger.duplicateEvents} MESSAGE_CREATE duplicated`);
  if (ledger.strayEvents > 0) problems.push(`${ledger.strayEvents} MESSAGE_CREATE for no stored message`);
  return problems;
}
