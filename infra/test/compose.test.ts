import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '@switchboard/contracts';
import { composeServices, durationMs, interpolate, readComposeFile, serviceEnv } from '../src/compose.ts';
import { cloneJson, type JsonObject } from '../src/json.ts';
import { findDirectives, parseNginx, readNginx } from '../src/nginx.ts';
import { COMPOSE_FILE, COMPOSE_SCHEMA, NGINX_CONFIG } from '../src/paths.ts';
import { PROCESS_KINDS } from '../src/process-kinds.ts';
import { readYamlDocuments } from '../src/yaml-files.ts';

// docker-compose.yml against the Compose Specification's JSON schema (vendored: no network at
// test time), and against the code it runs: each process's environment through its own schema,
// the ports its health checks, load balancer and Prometheus use. No Docker engine needed.
const draft07 = createRequire(import.meta.url)('ajv/dist/refs/json-schema-draft-07.json') as object;
const document = await readComposeFile(COMPOSE_FILE);
const services = composeServices(document);
const ajv = new Ajv({ allErrors: true, strict: false });
// The schema names draft-07 by its https address; Ajv ships the meta-schema under the http one.
ajv.addMetaSchema({ ...draft07, $id: 'https://json-schema.org/draft-07/schema' });
const validate = ajv.compile(JSON.parse(await readFile(COMPOSE_SCHEMA, 'utf8')) as object);
/** As `docker compose up` with nothing set in the environment: every `${VAR:-default}` its default. */
const NO_ENV = {};

function schemaErrors(candidate: unknown): string[] {
  return validate(candidate) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}

/** A long-running process's compose environment parsed by its own schema (the test fails on problems). */
function parsedEnv(name: string): Record<string, unknown> {
  const kind = PROCESS_KINDS.find((candidate) => candidate.name === name)!;
  const parsed = kind.parse(serviceEnv(services[name]!, NO_ENV));
  if (!parsed.ok) throw new Error(`${name}: ${parsed.problems.join('; ')}`);
  return parsed.config;
}

describe('docker-compose.yml', () => {
  it('is valid by the Compose Specification schema, which refuses what it does not know', () => {
    expect(schemaErrors(document)).toEqual([]);
    const misspelt = cloneJson(document) as JsonObject;
    ((misspelt['services'] as JsonObject)['gateway'] as JsonObject)['stop_grace_perod'] = '30s';
    expect(schemaErrors(misspelt).join('\n')).toMatch(/must NOT have additional properties/);
  });

  it('interpolates as compose does', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: compose's own ${…}, not a template
    expect(interpolate('${A:-x}/${B-y}/${C}/$D/$$E', { A: '', B: '', D: 'd' })).toBe('x///d/$E');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: compose's own ${…}, not a template
    expect(() => interpolate('${A:?set A}', {})).toThrow(/set A/);
  });

  it('limits every container log with json-file rotation', () => {
    for (const [name, service] of Object.entries(services)) {
      expect(service.logging, name).toMatchObject({
        driver: 'json-file',
        options: { 'max-size': expect.stringMatching(/^[0-9]+[kmg]$/), 'max-file': expect.stringMatching(/^[1-9]/) },
      });
    }
  });

  it.each(PROCESS_KINDS.map((kind) => [kind.name, kind] as const))(
    '%s runs its command with an environment its own schema accepts',
    (name, kind) => {
      const service = services[name];
      expect(service?.command, name).toEqual(kind.command);
      const env = serviceEnv(service!, NO_ENV);
      expect(kind.parse(env)).toMatchObject({ ok: true });
      // The anchors share one environment between processes, so each sees a few variables of
      // the others; a name that no process reads is a typo.
      const everyVariable = new Set(PROCESS_KINDS.flatMap((candidate) => candidate.variables));
      expect(Object.keys(env).filter((variable) => !everyVariable.has(variable))).toEqual([]);
    },
  );

  it.each(PROCESS_KINDS.filter((kind) => kind.server).map((kind) => [kind.name, kind] as const))(
    '%s: health check on its port, on every interface, and a stop grace above its shutdown bound',
    (name, kind) => {
      const service = services[name]!;
      const config = parsedEnv(name);
      const { hostVariable, portVariable, shutdownBoundMs } = kind.server!;
      expect(config[hostVariable]).toBe('0.0.0.0');
      expect(service.healthcheck?.test.join(' ')).toContain(`http://127.0.0.1:${config[portVariable]}/readyz`);
      // Docker's SIGKILL must not race the end of a drain the process bounds itself.
      expect(durationMs(service.stop_grace_period ?? '10s')).toBeGreaterThan(shutdownBoundMs(config));
    },
  );

  it('scales the gateway behind gateway-lb, which alone publishes its port and is the one trusted proxy', async () => {
    const gateway = services['gateway']!;
    expect(gateway.ports).toEqual([]);
    expect(gateway.container_name).toBeUndefined();
    const config = parsedEnv('gateway');
    expect(config['TRUSTED_PROXY_HOPS']).toBe(1);

    const lb = services['gateway-lb']!;
    expect(lb.depends_on['gateway']).toEqual({ condition: 'service_healthy' });
    expect(lb.ports).toHaveLength(1);
    const published = interpolate(lb.ports[0]!, NO_ENV);
    const mounted = lb.volumes.find((volume) => volume.split(':')[1] === '/etc/nginx/nginx.conf');
    expect(resolve(dirname(COMPOSE_FILE), mounted!.split(':')[0]!)).toBe(NGINX_CONFIG);

    const nginx = await readNginx(NGINX_CONFIG);
    const listen = findDirectives(nginx, 'listen').map((directive) => directive.args[0]);
    expect(listen).toEqual([published.split(':')[1]]);
    const upstream = findDirectives(nginx, 'upstream').find((directive) => directive.args[0] === 'gateway')!;
    // `resolve` (with the shared zone it needs) re-reads the replicas from Docker's DNS.
    expect(findDirectives(upstream.block!, 'server').map((directive) => directive.args)).toEqual([
      [`gateway:${config['PORT']}`, 'resolve'],
    ]);
    expect(findDirectives(upstream.block!, 'zone')).toHaveLength(1);
    expect(findDirectives(nginx, 'resolver')[0]?.args[0]).toBe('127.0.0.11');
    expect(findDirectives(nginx, 'proxy_pass').map((directive) => directive.args)).toEqual([['http://gateway']]);
    // One hop appends the address it saw: the entry TRUSTED_PROXY_HOPS=1 takes.
    const forwarded = findDirectives(nginx, 'proxy_set_header').filter((d) => d.args[0] === 'X-Forwarded-For');
    expect(forwarded.map((directive) => directive.args[1])).toEqual(['$proxy_add_x_forwarded_for']);
    // Nothing the gateway accepts is refused before it reaches it: 0 is unlimited.
    const [bodyLimit] = findDirectives(nginx, 'client_max_body_size').map((directive) => directive.args[0]);
    const largestBody = Math.max(...Object.values(LIMITS.body));
    expect(bodyLimit === '0' || Number.parseInt(bodyLimit!, 10) * 1024 * 1024 >= largestBody, bodyLimit).toBe(true);
    const metrics = findDirectives(nginx, 'location').find((directive) => directive.args.join(' ') === '= /metrics');
    expect(metrics?.block).toEqual([{ name: 'return', args: ['404'] }]);
  });

  it('has Prometheus scrape each process kind on the port it listens on', async () => {
    const [prometheus] = await readYamlDocuments(
      fileURLToPath(new URL('../prometheus/prometheus.yml', import.meta.url)),
    );
    const jobs = (prometheus as { scrape_configs: { job_name: string; dns_sd_configs: object[] }[] }).scrape_configs;
    for (const kind of PROCESS_KINDS.filter((candidate) => candidate.server)) {
      const port = parsedEnv(kind.name)[kind.server!.portVariable];
      const job = jobs.find((candidate) => candidate.job_name === kind.name);
      expect(job?.dns_sd_configs, kind.name).toEqual([expect.objectContaining({ names: [kind.name], port })]);
    }
  });
});

describe('the nginx reader', () => {
  it('nests blocks, drops comments and refuses an unclosed block', () => {
    expect(parseNginx('a 1 "two words"; # note\nb { c; }')).toEqual([
      { name: 'a', args: ['1', 'two words'] },
      { name: 'b', args: [], block: [{ name: 'c', args: [] }] },
    ]);
    expect(() => parseNginx('b { c;')).toThrow(/without }/);
  });
});
