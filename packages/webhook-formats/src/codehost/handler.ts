import type { z } from 'zod';
import { ignored, type Ignored, type InboundOutcome } from '../message.ts';

/** Renders one event's payload; the dispatcher has already checked it is a JSON object. */
export type EventRenderer = (payload: unknown) => InboundOutcome;

/** The ignored outcome for a payload that lacks what its event's message needs. */
export function lacking(event: string, error: z.ZodError): Ignored {
  const path = error.issues[0]?.path.map(String).join('.') || 'root';
  return ignored(`${event} payload lacks a usable ${path}`);
}

export function ignoredAction(event: string, action: string | undefined): Ignored {
  return ignored(`${event} action ${action ?? '(none)'} is not announced`);
}

/**
 * A renderer that parses the payload with `schema` first and ignores what does not fit, so a
 * payload shape GitHub adds later can never turn into an error. Schemas are plain `z.object`s
 * built at module level (README: a loose one copies every key the renderer never reads).
 */
export function withSchema<Schema extends z.ZodType>(
  event: string,
  schema: Schema,
  render: (payload: z.output<Schema>) => InboundOutcome,
): EventRenderer {
  return (payload) => {
    const parsed = schema.safeParse(payload);
    return parsed.success ? render(parsed.data) : lacking(event, parsed.error);
  };
}
