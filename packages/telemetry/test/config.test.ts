import { describe, expect, it } from 'vitest';
import { parseConfig } from '@switchboard/config';
import { tracingConfigSchema, tracingRequested } from '../src/index.ts';

const requested = (env: Record<string, string>) => {
  const parsed = parseConfig(tracingConfigSchema, env);
  if (!parsed.ok) throw new Error(parsed.problems.join('; '));
  return tracingRequested(parsed.config);
};

describe('whether a process traces', () => {
  it('is off unless an endpoint or an exporter other than none is set', () => {
    expect(requested({})).toBe(false);
    expect(requested({ OTEL_SERVICE_NAME: 'x', OTEL_TRACES_SAMPLER: 'always_on' })).toBe(false);
    expect(requested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(requested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(requested({ OTEL_TRACES_EXPORTER: 'console' })).toBe(true);
    expect(requested({ OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
    // An exporter list of `none` wins over an endpoint, as in the SDK; so does OTEL_SDK_DISABLED.
    expect(requested({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(
      false,
    );
    expect(requested({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(false);
    // An empty variable counts as unset, as for every variable of ours.
    expect(requested({ OTEL_EXPORTER_OTLP_ENDPOINT: '' })).toBe(false);
  });

  it('refuses what the SDK would misread or ignore: an endpoint that is not an http(s) URL, a misspelt sampler, a ratio past 1', () => {
    const ok = (env: Record<string, string>) => parseConfig(tracingConfigSchema, env).ok;
    expect(ok({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toBe(false);
    expect(ok({ OTEL_TRACES_SAMPLER: 'ratio' })).toBe(false);
    expect(ok({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '1.5' })).toBe(false);
    expect(ok({ OTEL_TRACES_EXPORTER: 'jaeger' })).toBe(false);
    expect(ok({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' })).toBe(true);
  });
});
