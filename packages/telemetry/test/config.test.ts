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

  it('refuses an endpoint that is not an http(s) URL', () => {
    expect(parseConfig(tracingConfigSchema, { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }).ok).toBe(false);
  });
});
