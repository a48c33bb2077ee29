import { env, z } from '@switchboard/config';

const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

/**
 * The tracing variables of every process. The first four decide whether it traces at all; the
 * OpenTelemetry SDK reads these and its other standard OTEL_* variables itself once it is
 * loaded, and they are parsed here too so that a misspelt sampler or protocol stops the process
 * at start (exit 78) rather than tracing otherwise than asked.
 */
export const tracingConfigSchema = z.object({
  OTEL_SDK_DISABLED: env.bool().default(false),
  OTEL_EXPORTER_OTLP_ENDPOINT: env.url(['http', 'https']).optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: env.url(['http', 'https']).optional(),
  /** `otlp`, `console`, `none` (the SDK's names), comma-separated. */
  OTEL_TRACES_EXPORTER: z
    .string()
    .trim()
    .regex(/^(otlp|console|none)(\s*,\s*(otlp|console|none))*$/)
    .optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: z.enum(['http/protobuf', 'http/json', 'grpc']).optional(),
  OTEL_TRACES_SAMPLER: z.enum(SAMPLERS).optional(),
  /** The ratio of the `*traceidratio` samplers, 0 to 1. */
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).optional(),
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
  OTEL_RESOURCE_ATTRIBUTES: z.string().min(1).optional(),
  OTEL_PROPAGATORS: z.string().min(1).optional(),
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
  if (exporters.length > 0) return !exporters.every((name) => name === 'none');
  return config.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined || config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined;
}
