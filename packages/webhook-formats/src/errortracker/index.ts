import { ignored, type InboundOutcome } from '../message.ts';
import { renderError, renderEventAlert, renderMetricAlert } from './alerts.ts';
import type { ErrorTrackerHeaders } from './body.ts';
import { renderIssue } from './issue.ts';
import { renderComment, renderInstallation, renderLegacyPlugin } from './other.ts';

export { errorTrackerBodySchema, type ErrorTrackerBody, type ErrorTrackerHeaders } from './body.ts';
export { ERROR_TRACKER_USERNAME, SENTRY_COLORS } from './parts.ts';

type ResourceRenderer = (action: string, payload: unknown) => InboundOutcome;

const RESOURCES: Record<string, ResourceRenderer> = {
  issue: renderIssue,
  event_alert: renderEventAlert,
  metric_alert: renderMetricAlert,
  error: renderError,
  installation: renderInstallation,
  comment: renderComment,
};

export const ERROR_TRACKER_RESOURCES: readonly string[] = Object.keys(RESOURCES);

function bodyAction(payload: unknown): string {
  const action = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>)['action'] : undefined;
  return typeof action === 'string' ? action.trim().toLowerCase() : '';
}

/**
 * Which resource and action a delivery is about. Sentry names the resource in
 * `Sentry-Hook-Resource` and the action in the body; Fluxer's `X-Sentry-Event` is either an
 * action of an issue (`created`) or `<resource>.<action>` (`issue.resolved`).
 */
function identify(headers: ErrorTrackerHeaders, payload: unknown): { resource: string; action: string } | undefined {
  const resource = headers.resource?.trim().toLowerCase();
  if (resource) return { resource, action: bodyAction(payload) };
  const event = headers.fluxerEvent?.trim().toLowerCase();
  if (!event) return undefined;
  const dot = event.indexOf('.');
  if (dot === -1) return { resource: 'issue', action: event };
  return { resource: event.slice(0, dot), action: event.slice(dot + 1) || bodyAction(payload) };
}

/**
 * Turns one error-tracker (Sentry) delivery into a message, or says why it posts nothing.
 * Never throws; messages are within the limits.
 */
export function renderErrorTracker(headers: ErrorTrackerHeaders, payload: unknown): InboundOutcome {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return ignored('payload is not a JSON object');
  const target = identify(headers, payload);
  if (!target) return renderLegacyPlugin(payload) ?? ignored('no Sentry-Hook-Resource or X-Sentry-Event header');
  const render = Object.hasOwn(RESOURCES, target.resource) ? RESOURCES[target.resource] : undefined;
  if (!render) return ignored(`resource ${target.resource.slice(0, 64)} is not announced`);
  return render(target.action, payload);
}
