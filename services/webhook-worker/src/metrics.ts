import type { WebhookFormat } from '@switchboard/contracts';
import { Histogram, type Registry } from '@switchboard/metrics';
import { snowflakeTimestamp } from '@switchboard/snowflake';

/** Seconds from acceptance to the stored row: milliseconds when idle, minutes behind a backlog. */
const LAG_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900];

export interface DeliveryMetrics {
  /** A delivery's message row was inserted now (first time only: a retry finding it is not counted). */
  stored(format: WebhookFormat, messageId: string): void;
}

/**
 * Delivery lag, accepted → stored. The gateway fixes the message id (a snowflake) when it
 * accepts the request, so the id's own timestamp is the acceptance time — the same one the
 * message shows — and a retried job still measures from the original request.
 */
export function deliveryMetrics(registry: Registry): DeliveryMetrics {
  const lag = new Histogram({
    name: 'webhook_delivery_lag_seconds',
    help: 'Time from the gateway accepting a webhook request to its message row being stored, by format.',
    labelNames: ['format'] as const,
    buckets: LAG_BUCKETS,
    registers: [registry],
  });
  return {
    stored: (format, messageId) =>
      lag.observe({ format }, Math.max(0, Date.now() - snowflakeTimestamp(messageId).getTime()) / 1000),
  };
}
