import { z } from 'zod';
import { ignored, type InboundOutcome } from '../message.ts';
import { SENTRY_COLORS, errorTrackerMessage, field, levelColor, looseText } from './parts.ts';

/** An event as issue alerts (`data.event`) and error webhooks (`data.error`) carry it. */
const eventSchema = z.object({
  title: z.string(),
  web_url: looseText,
  level: looseText,
  culprit: looseText,
  datetime: looseText,
  environment: looseText,
});

export const eventAlertPayloadSchema = z.object({ data: z.object({ event: eventSchema, triggered_rule: looseText }) });

export const errorPayloadSchema = z.object({ data: z.object({ error: eventSchema }) });

/** One event as both announce it: where it happened, how bad, in which environment; `description` says why. */
function eventMessage(event: z.output<typeof eventSchema>, description?: string): InboundOutcome {
  return errorTrackerMessage({
    title: event.title,
    url: event.web_url,
    description,
    color: levelColor(event.level),
    fields: [
      field('Culprit', event.culprit, false),
      field('Level', event.level?.toUpperCase()),
      field('Environment', event.environment),
    ],
    timestamp: event.datetime,
  });
}

/** Resource `event_alert`, action `triggered`: an issue alert rule fired for an event. */
export function renderEventAlert(action: string, payload: unknown): InboundOutcome {
  if (action !== 'triggered') return ignored(`event_alert action ${action.slice(0, 64)} is not announced`);
  const parsed = eventAlertPayloadSchema.safeParse(payload);
  if (!parsed.success) return ignored('event_alert payload lacks data.event with a title');
  const { event, triggered_rule: rule } = parsed.data.data;
  return eventMessage(event, rule ? `Alert rule **${rule}** triggered` : undefined);
}

/** Resource `error`, action `created`: one new error event (business plans). */
export function renderError(action: string, payload: unknown): InboundOutcome {
  if (action !== 'created') return ignored(`error action ${action.slice(0, 64)} is not announced`);
  const parsed = errorPayloadSchema.safeParse(payload);
  if (!parsed.success) return ignored('error payload lacks data.error with a title');
  const { error } = parsed.data.data;
  return eventMessage(error);
}

const METRIC_COLORS: Record<string, number> = {
  critical: SENTRY_COLORS.error,
  warning: SENTRY_COLORS.warning,
  resolved: SENTRY_COLORS.resolved,
};

export const metricPayloadSchema = z.object({
  data: z.object({
    description_title: looseText,
    description_text: looseText,
    web_url: looseText,
    metric_alert: z
      .object({ title: looseText, alert_rule: z.object({ name: looseText }).nullish().catch(undefined) })
      .nullish()
      .catch(undefined),
  }),
});

/** Resource `metric_alert`: critical, warning or resolved. */
export function renderMetricAlert(action: string, payload: unknown): InboundOutcome {
  const color = METRIC_COLORS[action];
  if (color === undefined) return ignored(`metric_alert action ${action.slice(0, 64)} is not announced`);
  const parsed = metricPayloadSchema.safeParse(payload);
  if (!parsed.success) return ignored('metric_alert payload lacks data');
  const { data } = parsed.data;
  const title = data.description_title ?? data.metric_alert?.alert_rule?.name ?? data.metric_alert?.title;
  return errorTrackerMessage({
    title: title ?? `Metric alert ${action}`,
    url: data.web_url,
    description: data.description_text ?? undefined,
    color,
  });
}
