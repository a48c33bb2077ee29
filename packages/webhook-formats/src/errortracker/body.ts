import { z } from 'zod';

/**
 * What the gateway requires of an error-tracker body: a JSON object whose common keys, when
 * present, have Sentry's types. `{}` is valid and posts nothing
 * (docs/decisions.md#fluxer-error-tracker-deliveries); resource shapes are read leniently by the
 * renderers, so a new Sentry field never causes a 400. A gate, not a reader (the body is enqueued
 * as received): unknown keys are stripped from the discarded output rather than copied.
 */
export const errorTrackerBodySchema = z.object({
  action: z.string().nullish(),
  data: z.object({}).nullish(),
  actor: z.object({}).nullish(),
  installation: z.object({}).nullish(),
});

export type ErrorTrackerBody = z.output<typeof errorTrackerBodySchema>;

/** The headers that name the delivery; absent as `undefined` or, as the job carries them, `null`. */
export interface ErrorTrackerHeaders {
  /** `Sentry-Hook-Resource` of Sentry's integration platform: issue, event_alert, metric_alert, error, … */
  resource?: string | null | undefined;
  /** `X-Sentry-Event` of Fluxer's format: `created`, or `<resource>.<action>` such as `issue.resolved`. */
  fluxerEvent?: string | null | undefined;
}
