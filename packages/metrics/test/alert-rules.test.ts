import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '@switchboard/devstack';
import { spawnService, type ServiceProcess } from '@switchboard/testkit/processes';
import { useTestEnvironment } from '@switchboard/testkit/environment';

// The alert rules and the dashboard are checked against promtool and against what the
// services really export: a rule over a metric nobody exports never fires.
const PROMETHEUS = join(REPO_ROOT, 'infra/prometheus');
const DASHBOARD = join(REPO_ROOT, 'infra/grafana/switchboard.json');
const environment = useTestEnvironment();
const running: ServiceProcess[] = [];
/** Every metric name some process of ours exports (its `# TYPE` lines), plus Prometheus's own `up`. */
const exported = new Set<string>(['up']);

function promtool(...args: string[]): string {
  try {
    return execFileSync('promtool', args, { cwd: PROMETHEUS, encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stdout?: string; stderr?: string };
    if (failure.code === 'ENOENT')
      throw new Error('promtool is not installed: install Debian\'s "prometheus" package.');
    throw new Error(`promtool ${args.join(' ')} failed:\n${failure.stdout ?? ''}${failure.stderr ?? ''}`);
  }
}

const PROMQL_WORDS = new Set([
  'sum',
  'max',
  'min',
  'avg',
  'count',
  'by',
  'without',
  'on',
  'ignoring',
  'and',
  'or',
  'unless',
  'rate',
  'irate',
  'increase',
  'delta',
  'deriv',
  'histogram_quantile',
  'absent',
  'bool',
  'offset',
  'humanizePercentage',
]);

/** The metric names a PromQL expression reads: label matchers, grouping labels and functions left out. */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, '')
    .replace(/\[[^\]]*\]/g, '');
  const names = bare.match(/[a-zA-Z_:][a-zA-Z0-9_:]*/g) ?? [];
  return [...new Set(names.filter((name) => !PROMQL_WORDS.has(name) && !/^\d/.test(name)))];
}

/** A histogram's series name its base metric. */
const baseName = (name: string) => name.replace(/_(bucket|count|sum)$/, '');

beforeAll(async () => {
  const services = ['gateway', 'webhook-worker', 'archive-worker', 'asset-purge-worker', 'bulk-worker'];
  for (const service of services) {
    const started = await spawnService(service, environment.processEnv({ GATEWAY_PROCESSES: '1' }));
    running.push(started);
    const port = service === 'gateway' ? started.ready['port'] : started.ready['healthPort'];
    const text = await (await fetch(`http://127.0.0.1:${String(port)}/metrics`)).text();
    for (const [, name] of text.matchAll(/^# TYPE (\S+) /gm)) exported.add(name!);
  }
}, 120_000);
afterAll(async () => {
  await Promise.all(running.map((service) => service.stop()));
});

describe('alert rules (infra/prometheus/alerts.yml)', () => {
  it('pass promtool check rules, and their unit tests', () => {
    expect(promtool('check', 'rules', 'alerts.yml')).toMatch(/SUCCESS: \d+ rules found/);
    expect(promtool('test', 'rules', 'alerts.test.yml')).toMatch(/SUCCESS/);
  });

  it('name only metrics the services export', () => {
    const rules = readFileSync(join(PROMETHEUS, 'alerts.yml'), 'utf8');
    const exprs = [...rules.matchAll(/expr: \|\n((?:\s{10}.*\n)+)|expr: (.+)\n/g)].map(
      (match) => match[1] ?? match[2]!,
    );
    expect(exprs.length).toBeGreaterThanOrEqual(9);
    const unknown = exprs.flatMap(metricNames).filter((name) => !exported.has(baseName(name)) && !exported.has(name));
    expect(unknown).toEqual([]);
  });
});

describe('the Grafana dashboard (infra/grafana/switchboard.json)', () => {
  it('queries only metrics the services export', () => {
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
      panels: Array<{ targets: Array<{ expr: string }> }>;
    };
    const exprs = dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr));
    expect(exprs.length).toBeGreaterThanOrEqual(10);
    const unknown = exprs.flatMap(metricNames).filter((name) => !exported.has(baseName(name)) && !exported.has(name));
    expect(unknown).toEqual([]);
  });

  it('reads metric names out of PromQL, leaving functions and labels', () => {
    expect(
      metricNames(
        'histogram_quantile(0.99, sum by (le, route) (rate(http_request_duration_seconds_bucket{status=~"5.."}[5m])))',
      ),
    ).toEqual(['http_request_duration_seconds_bucket']);
    expect(metricNames('max by (queue) (queue_jobs{state="waiting"}) > 100 and up == 0')).toEqual(['queue_jobs', 'up']);
  });
});
