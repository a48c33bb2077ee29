import { describe, expect, it } from 'vitest';
import {
  ERROR_TRACKER_RESOURCES,
  errorTrackerBodySchema,
  errorTrackerReadPart,
  findLimitViolations,
  renderErrorTracker,
  SENTRY_COLORS,
  type Embed,
  type ErrorTrackerHeaders,
  type InboundOutcome,
} from '../src/index.ts';
import {
  commentPayload,
  errorPayload,
  eventAlertPayload,
  installationPayload,
  issuePayload,
  metricAlertPayload,
} from './support/sentry.ts';

function embed(outcome: InboundOutcome): Embed {
  if (outcome.kind !== 'message') throw new Error(`expected a message, got: ${outcome.reason}`);
  expect(findLimitViolations(outcome.message)).toEqual([]);
  expect(outcome.message.username).toBe('Sentry');
  expect(outcome.message.embeds).toHaveLength(1);
  return outcome.message.embeds[0]!;
}

describe('Sentry-Hook-Resource: issue', () => {
  it('renders a new issue with its culprit, project, level and short id', () => {
    expect(embed(renderErrorTracker({ resource: 'issue' }, issuePayload('created')))).toMatchInlineSnapshot(`
      {
        "color": 15419457,
        "fields": [
          {
            "inline": false,
            "name": "Culprit",
            "value": "?(runner)",
          },
          {
            "inline": true,
            "name": "Project",
            "value": "front-end",
          },
          {
            "inline": true,
            "name": "Level",
            "value": "ERROR",
          },
          {
            "inline": true,
            "name": "ID",
            "value": "FRONT-END-9",
          },
        ],
        "title": "ReferenceError: blooopy is not defined",
        "url": "https://sentry.io/organizations/test-org/issues/1170820242/",
      }
    `);
  });

  it('says what happened for resolved, assigned, archived and unresolved, coloured by outcome', () => {
    const resolved = embed(renderErrorTracker({ resource: 'issue' }, issuePayload('resolved')));
    expect(resolved).toMatchObject({ description: '**Resolved** by colleen', color: SENTRY_COLORS.resolved });
    const assigned = embed(
      renderErrorTracker(
        { resource: 'issue' },
        issuePayload('assigned', { assignedTo: { type: 'user', id: '2', name: 'Ana', email: 'ana@example.com' } }),
      ),
    );
    expect(assigned).toMatchObject({ description: '**Assigned** to Ana by colleen', color: SENTRY_COLORS.error });
    const archived = embed(
      renderErrorTracker({ resource: 'issue' }, issuePayload('archived', { substatus: 'archived_until_escalating' })),
    );
    expect(archived).toMatchObject({
      description: '**Archived** until it escalates by colleen',
      color: SENTRY_COLORS.archived,
    });
    const unresolved = embed(
      renderErrorTracker(
        { resource: 'issue' },
        issuePayload('unresolved', { substatus: 'regressed', level: 'warning' }),
      ),
    );
    expect(unresolved).toMatchObject({
      description: '**Unresolved** (regressed) by colleen',
      color: SENTRY_COLORS.warning,
    });
  });

  it('colours by level, fatal darkest', () => {
    const colorOf = (level: string) =>
      embed(renderErrorTracker({ resource: 'issue' }, issuePayload('created', { level }))).color;
    expect([
      colorOf('fatal'),
      colorOf('error'),
      colorOf('warning'),
      colorOf('info'),
      colorOf('debug'),
      colorOf('sample'),
    ]).toEqual([0xa30200, 0xeb4841, 0xfcbd1f, 0x369df7, 0x6c7293, 0x369df7]);
  });

  it('ignores other actions and issue payloads without a title', () => {
    expect(renderErrorTracker({ resource: 'issue' }, issuePayload('ignored'))).toEqual({
      kind: 'ignored',
      reason: 'issue action ignored is not announced',
    });
    expect(renderErrorTracker({ resource: 'issue' }, { action: 'created', data: { issue: { id: '1' } } }).kind).toBe(
      'ignored',
    );
  });
});

describe('alert and error resources', () => {
  it('renders an issue alert with the rule that fired', () => {
    expect(embed(renderErrorTracker({ resource: 'event_alert' }, eventAlertPayload))).toMatchInlineSnapshot(`
      {
        "color": 15419457,
        "description": "Alert rule **Very Important Alert Rule!** triggered",
        "fields": [
          {
            "inline": false,
            "name": "Culprit",
            "value": "?(<anonymous>)",
          },
          {
            "inline": true,
            "name": "Level",
            "value": "ERROR",
          },
        ],
        "timestamp": "2019-08-19T21:06:17.677Z",
        "title": "ReferenceError: heck is not defined",
        "url": "https://sentry.io/organizations/test-org/issues/1117540176/events/e4874d664c3540c1a32eab185f12c5ab/",
      }
    `);
  });

  it('renders a new error event', () => {
    expect(embed(renderErrorTracker({ resource: 'error' }, errorPayload))).toMatchObject({
      title: 'ReferenceError: blooopy is not defined',
      url: 'https://sentry.io/organizations/test-org/issues/1117540176/events/bb78c1407cea4519aa397afc059c793d/',
      color: SENTRY_COLORS.error,
      timestamp: '2019-08-19T21:06:17.677Z',
    });
  });

  it('renders metric alerts coloured critical, warning and resolved', () => {
    expect(
      embed(renderErrorTracker({ resource: 'metric_alert' }, metricAlertPayload('resolved'))),
    ).toMatchInlineSnapshot(`
      {
        "color": 38912,
        "description": "1000 events in the last 10 minutes
      Filter: level:error",
        "title": "Resolved: Too many errors",
        "url": "https://sentry.io/organizations/baz/alerts/1/",
      }
    `);
    const colorOf = (action: string) =>
      embed(renderErrorTracker({ resource: 'metric_alert' }, metricAlertPayload(action))).color;
    expect([colorOf('critical'), colorOf('warning'), colorOf('resolved')]).toEqual([0xeb4841, 0xfcbd1f, 0x009800]);
  });

  it('announces installs and new comments', () => {
    expect(embed(renderErrorTracker({ resource: 'installation' }, installationPayload))).toMatchObject({
      title: 'Sentry integration installed',
      description: 'Organization **test-org** by Meredith Heller',
    });
    expect(embed(renderErrorTracker({ resource: 'comment' }, commentPayload))).toMatchObject({
      title: 'New comment on issue 100 by colleen',
      description: 'adding a comment',
      fields: [{ name: 'Project', value: 'sentry', inline: true }],
    });
  });
});

describe("Fluxer's X-Sentry-Event", () => {
  it('reads `created` as an issue action and `<resource>.<action>` as both', () => {
    const created = renderErrorTracker({ fluxerEvent: 'created' }, issuePayload('created'));
    expect(created).toEqual(renderErrorTracker({ resource: 'issue' }, issuePayload('created')));
    const resolved = embed(renderErrorTracker({ fluxerEvent: 'issue.resolved' }, issuePayload('resolved')));
    expect(resolved.description).toBe('**Resolved** by colleen');
  });

  it('posts nothing for `{}`, an unknown event or a missing header, as Fluxer answers 204', () => {
    expect(renderErrorTracker({ fluxerEvent: 'issue.created' }, {}).kind).toBe('ignored');
    expect(renderErrorTracker({ fluxerEvent: 'something.else' }, issuePayload('created'))).toEqual({
      kind: 'ignored',
      reason: 'resource something is not announced',
    });
    expect(renderErrorTracker({}, issuePayload('created'))).toEqual({
      kind: 'ignored',
      reason: 'no Sentry-Hook-Resource or X-Sentry-Event header',
    });
  });
});

describe('other deliveries', () => {
  it("renders the legacy WebHooks plugin's payload, which comes without headers", () => {
    const legacy = {
      id: '27379932',
      project: 'project-slug',
      project_name: 'Project Name',
      culprit: 'raven.scripts.runner in main',
      level: 'error',
      url: 'https://app.getsentry.com/getsentry/project-slug/group/27379932/',
      message: 'This is an example Python exception',
      event: { event_id: '0476467adf8f499ea795a48fcc4bf290' },
    };
    expect(embed(renderErrorTracker({}, legacy))).toMatchObject({
      title: 'This is an example Python exception',
      url: legacy.url,
    });
  });

  it('ignores other resources, and never throws on odd shapes', () => {
    expect(renderErrorTracker({ resource: 'seer' }, { action: 'root_cause_completed', data: {} })).toEqual({
      kind: 'ignored',
      reason: 'resource seer is not announced',
    });
    for (const payload of [null, [], 'x', 1, { data: null }, { action: 5, data: { issue: 'x' } }]) {
      for (const resource of ['issue', 'event_alert', 'metric_alert', 'error', 'installation', 'comment']) {
        expect(renderErrorTracker({ resource }, payload).kind).toBe('ignored');
      }
    }
  });

  it('validates the body leniently: any object with well-typed common keys', () => {
    expect(errorTrackerBodySchema.safeParse({}).success).toBe(true);
    expect(errorTrackerBodySchema.safeParse(eventAlertPayload).success).toBe(true);
    expect(errorTrackerBodySchema.safeParse([]).success).toBe(false);
    expect(errorTrackerBodySchema.safeParse({ data: 'x' }).success).toBe(false);
    expect(errorTrackerBodySchema.safeParse({ action: 1 }).success).toBe(false);
  });
});

describe('the part of a delivery the renderer reads', () => {
  const legacy = {
    project: 'project-slug',
    project_name: 'Project Name',
    level: 'error',
    url: 'https://sentry.example/group/1/',
    message: 'Boom',
  };
  const payloads: Record<string, unknown>[] = [
    ...['created', 'resolved', 'assigned', 'archived', 'unresolved', 'ignored'].map((action) => issuePayload(action)),
    eventAlertPayload,
    errorPayload,
    ...['critical', 'warning', 'resolved'].map((action) => metricAlertPayload(action)),
    installationPayload,
    commentPayload,
    legacy,
    {},
  ];
  const headerSets = [
    ...[...ERROR_TRACKER_RESOURCES, 'seer'].map((resource) => ({ resource })),
    { fluxerEvent: 'created' },
    { fluxerEvent: 'issue.resolved' },
    { fluxerEvent: 'event_alert.' },
    {},
  ];
  const sameFromPart = (headers: ErrorTrackerHeaders, payload: unknown, label: string) => {
    const part = JSON.parse(JSON.stringify(errorTrackerReadPart(headers, payload))) as unknown;
    expect(renderErrorTracker(headers, part), label).toEqual(renderErrorTracker(headers, payload));
  };

  it('renders the same outcome after a JSON round trip as the whole payload, for every resource and header', () => {
    for (const payload of payloads) {
      for (const headers of headerSets)
        sameFromPart(headers, payload, `${JSON.stringify(headers)} ${JSON.stringify(payload).slice(0, 60)}`);
    }
  });

  it('renders the same outcome when a key of the payload or of its data has the wrong type', () => {
    const wrongValues: unknown[] = [0, 'text', null, [], {}];
    for (const payload of payloads) {
      const data = (payload['data'] ?? {}) as Record<string, unknown>;
      const variants = [
        ...Object.keys(payload).flatMap((key) => wrongValues.map((wrong) => ({ ...payload, [key]: wrong }))),
        ...Object.keys(data).flatMap((key) =>
          wrongValues.map((wrong) => ({ ...payload, data: { ...data, [key]: wrong } })),
        ),
      ];
      for (const variant of variants) {
        for (const headers of headerSets)
          sameFromPart(headers, variant, `${JSON.stringify(headers)} ${JSON.stringify(variant).slice(0, 80)}`);
      }
    }
  });

  it("leaves out an issue alert's event details, which are most of a real delivery", () => {
    const frames = Array.from({ length: 200 }, (_, index) => ({
      filename: `app/module_${index}.py`,
      function: `handler_${index}`,
      lineno: index,
      context_line: 'x = y',
    }));
    const data = eventAlertPayload.data;
    const real = {
      ...eventAlertPayload,
      data: { ...data, event: { ...data['event'], exception: { values: [{ stacktrace: { frames } }] } } },
    };
    const part = JSON.stringify(errorTrackerReadPart({ resource: 'event_alert' }, real));
    expect(part.length).toBeLessThan(JSON.stringify(real).length / 20);
    expect(renderErrorTracker({ resource: 'event_alert' }, JSON.parse(part))).toEqual(
      renderErrorTracker({ resource: 'event_alert' }, real),
    );
  });
});
