/** Sentry integration-platform payloads as Sentry's docs publish them (trimmed to what matters). */

export const installation = { uuid: 'a8e5d37a-696c-4c54-adb5-b3f28d64c7de' };
const sentryActor = { id: 'sentry', name: 'Sentry', type: 'application' };

export function issuePayload(action: string, issue: Record<string, unknown> = {}) {
  return {
    action,
    actor: action === 'created' ? sentryActor : { type: 'user', id: 1, name: 'colleen' },
    data: {
      issue: {
        annotations: [],
        assignedTo: null,
        count: '1',
        culprit: '?(runner)',
        firstSeen: '2019-08-19T20:58:37.391000Z',
        id: '1170820242',
        lastSeen: '2019-08-19T20:58:37.391000Z',
        level: 'error',
        metadata: { filename: '/runner', type: 'ReferenceError', value: 'blooopy is not defined' },
        permalink: null,
        platform: 'javascript',
        project: { id: '1', name: 'front-end', platform: '', slug: 'front-end' },
        shortId: 'FRONT-END-9',
        status: 'unresolved',
        statusDetails: {},
        substatus: 'escalating',
        title: 'ReferenceError: blooopy is not defined',
        type: 'error',
        userCount: 1,
        web_url: 'https://sentry.io/organizations/test-org/issues/1170820242/',
        ...issue,
      },
    },
    installation,
  };
}

function event(id: string, title: string) {
  return {
    _ref: 1,
    culprit: '?(<anonymous>)',
    datetime: '2019-08-19T21:06:17.677000Z',
    event_id: id,
    exception: { values: [{ type: 'ReferenceError', value: 'heck is not defined', stacktrace: { frames: [] } }] },
    issue_url: 'https://sentry.io/api/0/issues/1117540176/',
    issue_id: '1117540176',
    level: 'error',
    project: 1,
    tags: [['level', 'error']],
    title,
    url: `https://sentry.io/api/0/projects/test-org/front-end/events/${id}/`,
    web_url: `https://sentry.io/organizations/test-org/issues/1117540176/events/${id}/`,
  };
}

export const eventAlertPayload = {
  action: 'triggered',
  actor: sentryActor,
  data: {
    event: event('e4874d664c3540c1a32eab185f12c5ab', 'ReferenceError: heck is not defined'),
    triggered_rule: 'Very Important Alert Rule!',
    issue_alert: { title: 'Very Important Alert Rule!', settings: [{ name: 'channel', value: '#general' }] },
  },
  installation,
};

export const errorPayload = {
  action: 'created',
  actor: sentryActor,
  data: { error: event('bb78c1407cea4519aa397afc059c793d', 'ReferenceError: blooopy is not defined') },
  installation,
};

export function metricAlertPayload(action: string) {
  return {
    action,
    actor: sentryActor,
    data: {
      description_text: '1000 events in the last 10 minutes\nFilter: level:error',
      description_title: 'Resolved: Too many errors',
      metric_alert: {
        alert_rule: { aggregate: 'count()', id: '7', name: 'Too many errors', triggers: [] },
        id: '4',
        identifier: '1',
        status: 2,
        title: 'Sacred Marmot',
      },
      web_url: 'https://sentry.io/organizations/baz/alerts/1/',
    },
    installation,
  };
}

export const installationPayload = {
  action: 'created',
  actor: { id: 1, name: 'Meredith Heller', type: 'user' },
  data: {
    installation: {
      status: 'pending',
      organization: { slug: 'test-org' },
      app: { uuid: '2ebf071f-28df-4989-aca9-c37c763b278f', slug: 'webhooks-galore' },
      code: 'f3c71b491e3949b6b033ae45312a4fcb',
      uuid: installation.uuid,
    },
  },
  installation,
};

export const commentPayload = {
  action: 'created',
  data: {
    comment: 'adding a comment',
    project_slug: 'sentry',
    comment_id: 1234,
    issue_id: 100,
    timestamp: '2022-03-02T21:51:44.118160Z',
  },
  installation,
  actor: { type: 'user', id: 1, name: 'colleen' },
};
