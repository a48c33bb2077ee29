import type { z } from 'zod';
import { ignored, type Ignored, type InboundOutcome } from '../message.ts';
import { readPartThrough } from '../schema-helpers.ts';

/** One event's renderer; the dispatcher has already checked the payload is a JSON object. */
export interface EventRenderer {
  render(payload: unknown): InboundOutcome;
  /**
   * The part of the payload `render` reads: rendering it after a JSON round trip gives the same
   * outcome as rendering the whole payload. A payload that does not fit is its own part (its
   * outcome names what it lacks).
   */
  readPart(payload: unknown): unknown;
}

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
  return {
    render: (payload) => {
      const parsed = schema.safeParse(payload);
      return parsed.success ? render(parsed.data) : lacking(event, parsed.error);
    },
    readPart: (payload) => readPartThrough(schema, payload),
  };
}
