import { SchedulerClient } from '@aws-sdk/client-scheduler';
import type { ExpiryScheduler } from '../domain/expiries/ports.js';
import { eventBridgeExpiryScheduler, localExpiryScheduler } from '../events/expiry-scheduler.js';
import { EXPIRY_QUEUE } from '../workers.js';
import { traced } from '../observability/tracer.js';
import type { Core } from './core.js';

/** One-time expiries: EventBridge Scheduler in AWS (EXPIRY_SCHEDULE_GROUP, ...), the in-process scheduler locally. */
export function expiryScheduler(core: Core): ExpiryScheduler {
  const { config } = core;
  return config.expiryScheduling
    ? eventBridgeExpiryScheduler(traced(new SchedulerClient({ region: config.region })), config.expiryScheduling)
    : localExpiryScheduler(EXPIRY_QUEUE, () => core.clock.now().getTime());
}
