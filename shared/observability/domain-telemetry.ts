import { installTelemetry, type Telemetry } from '../domain/telemetry.js';
import { log } from './log.js';
import { METRIC } from './metric-names.js';
import { countMetric, latencyMetric } from './metrics.js';

/** The domain's telemetry port (shared/domain/telemetry.ts) over the logger and the metrics (metric-names.ts). */
export const observabilityTelemetry: Telemetry = {
  log,
  payment(outcome) {
    if (outcome.kind === 'posted') countMetric(METRIC.paymentsPosted);
    else if (outcome.kind === 'queued') countMetric(METRIC.paymentsQueued);
    else countMetric(METRIC.paymentsRefused, { code: outcome.code });
  },
  webhookAttempt(outcome, durationMs) {
    countMetric(METRIC.webhookDeliveries, { outcome });
    latencyMetric(METRIC.webhookDeliveryLatency, durationMs);
  },
  cardDecision(decision, latencyMs) {
    countMetric(METRIC.cardAuthorizations, { decision });
    latencyMetric(METRIC.cardAuthorizationLatency, latencyMs);
  },
};

/** Installs it (shared/runtime/core.ts, when a process's core is made). */
export const installObservability = (): void => installTelemetry(observabilityTelemetry);
