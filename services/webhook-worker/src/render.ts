import type { z } from 'zod';
import type { WebhookDeliveryPayload } from '@switchboard/contracts';
import {
  chatAppBodySchema,
  enforceMessageLimits,
  executeBodySchema,
  renderChatApp,
  renderCodeHost,
  renderErrorTracker,
  renderExecute,
  storableStrings,
  type DirectOutcome,
  type InboundOutcome,
  type LimitPolicy,
  type RenderedMessage,
} from '@switchboard/webhook-formats';

export type Rendering = { kind: 'message'; message: RenderedMessage } | { kind: 'ignored'; reason: string };

/**
 * The gateway accepted this delivery, so it cannot be malformed unless the two processes run
 * different versions of the formats: retrying would not help.
 */
export class UndeliverableError extends Error {
  override readonly name = 'UndeliverableError';
}

function direct<Body>(schema: z.ZodType<Body>, render: (body: Body) => DirectOutcome, value: unknown): InboundOutcome {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new UndeliverableError('body no longer validates');
  const outcome = render(parsed.data);
  if (outcome.kind === 'rejected') throw new UndeliverableError(`body renders as ${outcome.code}`);
  return outcome;
}

function outcomeOf(payload: WebhookDeliveryPayload, body: unknown): InboundOutcome {
  switch (payload.format) {
    case 'plain':
      return direct(executeBodySchema, renderExecute, body);
    case 'chatapp':
      return direct(chatAppBodySchema, renderChatApp, body);
    case 'codehost':
      return renderCodeHost(payload.event, body);
    case 'errortracker':
      return renderErrorTracker(payload, body);
  }
}

/**
 * Plain execute bodies were checked against the limits by the gateway (a violation was its
 * 400), so one here is a bug, not something to trim silently; everything generated from a
 * third-party payload is cut to the limits, since it must never fail to post.
 */
const POLICY: Record<WebhookDeliveryPayload['format'], LimitPolicy> = {
  plain: 'reject',
  chatapp: 'truncate',
  codehost: 'truncate',
  errortracker: 'truncate',
};

/**
 * The message a delivery posts (within the message limits, on every path), or why it posts none.
 * Third-party text is made storable first (NUL removed, unpaired surrogates replaced): a code
 * host's commit message may hold anything, and must still post. Plain execute refused such
 * text with a 400, so there it changes nothing.
 */
export function renderDelivery(payload: WebhookDeliveryPayload, body: unknown): Rendering {
  const outcome = outcomeOf(payload, body);
  if (outcome.kind === 'ignored') return { kind: 'ignored', reason: outcome.reason };
  const limited = enforceMessageLimits(storableStrings(outcome.message), POLICY[payload.format]);
  if (!limited.ok) {
    const paths = limited.errors.map((error) => error.path).join(', ');
    throw new UndeliverableError(`message breaks the limits at ${paths}`);
  }
  return { kind: 'message', message: limited.message };
}
