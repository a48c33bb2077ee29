import { env, z } from '@switchboard/config';

/**
 * The variables that decide whether a process traces at all. Everything else about tracing
 * (sampler, propagators, resource attributes, batch sizes, protocol) is read by the
 * OpenTelemetry SDK itself from its standard OTEL_* variables, once it is loaded.
 */
export const tracingConfigSchema = z.object({
  OTEL_SDK_DISABLED: env.bool().default(false),
  OTEL_EXPORTER_OTLP_ENDPOINT: env.url(['http', 'https']).optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: env.url(['http', 'https']).optional(),
  /** `otlp`, `console`, `none` (the SDK's names), comma-separated. */
  OTEL_TRACES_EXPORTER: z.string().trim().min(1).optional(),
});

export type TracingConfig = z.infer<typeof tracingConfigSchema>;

/**
 * Off unless asked for: an OTLP endpoint, or an exporter other than `none`. The SDK's own
 * default (export to localhost:4318 whenever it is loaded) would make every process that
 * merely runs send spans nowhere.
 */
export function tracingRequested(config: TracingConfig): boolean {
  if (config.OTEL_SDK_DISABLED) return false;
  const exporters = config.OTEL_TRACES_EXPORTER?.split(',').map((name) => name.trim()) ?? [];
  if (exporters.length > 0) return !exporters.every((name) => name === 'none' || name === '');
  return config.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined || config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined;
}
