import { z } from '@switchboard/config';

/** Supervisor → runner: the one message that tells it what to run. */
export const runnerOptionsSchema = z.object({
  type: z.literal('start'),
  dataDir: z.string().min(1),
  port: z.number().int().min(1).max(65_535),
  user: z.string().min(1),
  password: z.string().min(1),
});
export type RunnerOptions = z.infer<typeof runnerOptionsSchema>;

/** Runner → supervisor. */
export const runnerReportSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('ready'),
    pid: z.number().int(),
    /** True when this start ran initdb on an empty data directory. */
    created: z.boolean(),
  }),
  z.object({ type: z.literal('failed'), message: z.string() }),
]);
export type RunnerReport = z.infer<typeof runnerReportSchema>;
