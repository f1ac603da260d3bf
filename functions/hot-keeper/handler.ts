import type { ScheduledEvent } from 'aws-lambda';
import type { ScheduleReport } from '../../shared/domain/hot-mode/hot-mode-schedule.js';
import { core } from '../../shared/runtime/core.js';
import { observedWorker } from '../../shared/observability/invocation.js';
import { hotModeService } from '../../shared/runtime/services/hot-mode.js';

let service: ReturnType<typeof hotModeService> | undefined;

/**
 * Scheduled worker, declared in shared/workers.ts (`hot-keeper`: every minute in AWS; every 5 s in
 * the local run): one keeper step over every hot wallet (lanes, quotas, the period rollover, the end
 * of a demotion), then the automatic promotions of the last complete minute. Every step is guarded,
 * so a run racing another is harmless. A run with a failed wallet fails after doing the others
 * (Lambda's retries and error metrics see it).
 */
async function keep(_event?: ScheduledEvent): Promise<ScheduleReport> {
  service ??= hotModeService(core());
  const report = await service.runSchedule();
  if (report.failed.length > 0) throw new Error(`hot keeper: ${JSON.stringify(report.failed)}`);
  return report;
}

export const handler = observedWorker('hot-keeper', keep);
