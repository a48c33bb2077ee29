import type { z } from 'zod';
import { ignored, type InboundOutcome } from '../message.ts';
import { isJsonObject, readPartThrough } from '../schema-helpers.ts';
import {
  errorPayloadSchema,
  eventAlertPayloadSchema,
  metricPayloadSchema,
  renderError,
  renderEventAlert,
  renderMetricAlert,
} from './alerts.ts';
import type { ErrorTrackerHeaders } from './body.ts';
import { issuePayloadSchema, renderIssue } from './issue.ts';
import {
  commentPayloadSchema,
  installationPayloadSchema,
  legacySchema,
  renderComment,
  renderInstallation,
  renderLegacyPlugin,
} from './other.ts';

export { errorTrackerBodySchema, type ErrorTrackerBody, type ErrorTrackerHeaders } from './body.ts';
export { ERROR_TRACKER_USERNAME, SENTRY_COLORS } from './parts.ts';

/** A resource's renderer, and the schema it reads the payload with (its output is all it reads). */
interface ResourceRenderer {
  render(action: string, payload: unknown): InboundOutcome;
  schema: z.ZodType;
}

const RESOURCES: Record<string, ResourceRenderer> = {
  issue: { render: renderIssue, schema: issuePayloadSchema },
  event_alert: { render: renderEventAlert, schema: eventAlertPayloadSchema },
  metric_alert: { render: renderMetricAlert, schema: metricPayloadSchema },
  error: { render: renderError, schema: errorPayloadSchema },
  installation: { render: renderInstallation, schema: installationPayloadSchema },
  comment: { render: renderComment, schema: commentPayloadSchema },
};

export const ERROR_TRACKER_RESOURCES: readonly string[] = Object.keys(RESOURCES);

function bodyAction(payload: unknown): string {
  const action = isJsonObject(payload) ? payload['action'] : undefined;
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
  if (!isJsonObject(payload)) return ignored('payload is not a JSON object');
  const target = identify(headers, payload);
  if (!target) return renderLegacyPlugin(payload) ?? ignored('no Sentry-Hook-Resource or X-Sentry-Event header');
  const resource = resourceOf(target.resource);
  if (!resource) return ignored(`resource ${target.resource.slice(0, 64)} is not announced`);
  return resource.render(target.action, payload);
}

/**
 * What of a delivery `renderErrorTracker` reads (its resource schema's output, and the body's
 * `action`): it renders the same outcome after a JSON round trip as the whole payload does.
 * An issue alert carries the whole event (stack traces, breadcrumbs, contexts) and the renderer
 * reads six of its fields, so the gateway queues this instead of the body.
 */
export function errorTrackerReadPart(headers: ErrorTrackerHeaders, payload: unknown): unknown {
  if (!isJsonObject(payload)) return payload;
  const target = identify(headers, payload);
  if (!target) return readPartThrough(legacySchema, payload);
  const resource = resourceOf(target.resource);
  if (!resource) return {};
  const action = payload['action'];
  const part = readPartThrough(resource.schema, payload);
  return typeof action === 'string' && isJsonObject(part) ? { ...part, action } : part;
}

function resourceOf(name: string): ResourceRenderer | undefined {
  return Object.hasOwn(RESOURCES, name) ? RESOURCES[name] : undefined;
}
