// Sentry's published payloads, as the error-tracker transformer's own tests use them.
import { issuePayload } from '../../../../webhook-formats/test/support/sentry.ts';
import { CI_DEPLOY_MESSAGE, realPushPayload } from '../webhook-support/fixture.ts';

/** One execute format as the load sends it: the path suffix, body and headers. */
export interface ExecutePayload {
  format: 'plain' | 'chatapp' | 'codehost' | 'errortracker';
  /** After `/v1/webhooks/{id}/{token}`. */
  suffix: string;
  body: string;
  headers: Record<string, string>;
  /** A header with a fresh UUID per request (the code host's delivery id: each delivery is new). */
  uniqueHeader?: string;
}

/** A Slack incoming-webhook message with attachments, as deploy bots send them. */
const SLACK_MESSAGE = {
  text: 'Release *1.2.3* is live',
  username: 'Deploy Bot',
  icon_url: 'https://example.com/bot.png',
  attachments: [
    {
      color: 'good',
      pretext: 'Production',
      title: 'Release 1.2.3',
      title_link: 'https://example.com/releases/1.2.3',
      text: 'All checks passed',
      fields: [{ title: 'Region', value: 'eu-west', short: true }],
      footer: 'deployer',
      ts: 1_700_000_000,
    },
    { color: 'warning', text: 'one warning' },
  ],
};

const JSON_TYPE = { 'content-type': 'application/json' };

/** The four execute formats: plain, chat app (Slack), code host (a real GitHub push), error tracker (Sentry). */
export function executePayloads(): ExecutePayload[] {
  return [
    { format: 'plain', suffix: '', body: JSON.stringify(CI_DEPLOY_MESSAGE), headers: JSON_TYPE },
    { format: 'chatapp', suffix: '/slack', body: JSON.stringify(SLACK_MESSAGE), headers: JSON_TYPE },
    {
      format: 'codehost',
      suffix: '/github',
      body: realPushPayload(),
      headers: { ...JSON_TYPE, 'x-github-event': 'push' },
      uniqueHeader: 'x-github-delivery',
    },
    {
      format: 'errortracker',
      suffix: '/sentry',
      body: JSON.stringify(issuePayload('created')),
      headers: { ...JSON_TYPE, 'sentry-hook-resource': 'issue' },
    },
  ];
}
