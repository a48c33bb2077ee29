import { z } from '@switchboard/config';
import { idOf, podSpecOf, type K8sObject } from './objects.ts';

const probeSchema = z.looseObject({
  httpGet: z.looseObject({ path: z.string(), port: z.union([z.number(), z.string()]) }).optional(),
  timeoutSeconds: z.number().default(1),
});

/** The parts of a container the checks read; the kind's schema has checked the whole already. */
const containerSchema = z.looseObject({
  name: z.string(),
  image: z.string(),
  command: z.array(z.string()).optional(),
  ports: z.array(z.looseObject({ name: z.string().optional(), containerPort: z.number() })).default([]),
  startupProbe: probeSchema.optional(),
  livenessProbe: probeSchema.optional(),
  readinessProbe: probeSchema.optional(),
  lifecycle: z
    .looseObject({
      preStop: z
        .looseObject({
          exec: z.looseObject({ command: z.array(z.string()) }).optional(),
          sleep: z.looseObject({ seconds: z.number() }).optional(),
        })
        .optional(),
    })
    .optional(),
});

export type Container = z.infer<typeof containerSchema>;
export type Probe = z.infer<typeof probeSchema>;
export const PROBE_KINDS = ['startupProbe', 'livenessProbe', 'readinessProbe'] as const;

export function containersOf(workload: K8sObject): Container[] {
  return z.array(containerSchema).parse(podSpecOf(workload)['containers']);
}

/** The one container of a workload named as it is (each Switchboard pod runs one process). */
export function mainContainer(workload: K8sObject): Container {
  const container = containersOf(workload).find((candidate) => candidate.name === workload.metadata.name);
  if (!container) throw new Error(`${idOf(workload)} has no container named ${workload.metadata.name}`);
  return container;
}

/** The number a probe's or Service's port means in `container`: itself, or the port of that name. */
export function portNumber(container: Container, port: number | string): number | undefined {
  if (typeof port === 'number') return port;
  return container.ports.find((candidate) => candidate.name === port)?.containerPort;
}

/**
 * How long the preStop hook holds SIGTERM back, in ms: 0 without one. Only a fixed wait can be
 * added to a shutdown bound; any other hook (an HTTP call, another command) throws.
 */
export function preStopMs(container: Container): number {
  const preStop = container.lifecycle?.preStop;
  if (preStop === undefined) return 0;
  if (preStop.sleep) return preStop.sleep.seconds * 1000;
  const [program, seconds, ...rest] = preStop.exec?.command ?? [];
  if (program === 'sleep' && rest.length === 0 && /^[0-9]+$/.test(seconds ?? '')) return Number(seconds) * 1000;
  throw new Error(`container ${container.name}: a preStop hook that is not a fixed sleep`);
}
