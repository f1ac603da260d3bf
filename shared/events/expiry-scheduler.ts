import {
  ActionAfterCompletion,
  CreateScheduleCommand,
  FlexibleTimeWindowMode,
  type SchedulerClient,
} from '@aws-sdk/client-scheduler';
import type { ExpiryMessage, ExpiryScheduler } from '../domain/expiries/ports.js';
import { localTransport } from './local-transport.js';

/** Where the one-time schedules go (the events stack's schedule group, role and expiry queue). */
export interface ExpiryScheduleTarget {
  readonly groupName: string;
  /** The role EventBridge Scheduler assumes: it may only send to the expiry queue. */
  readonly roleArn: string;
  readonly queueArn: string;
}

/** Schedule names: 1 to 64 of [0-9a-zA-Z-_.], unique within the group. */
const SCHEDULE_NAME_MAX = 64;

/** One schedule per expiry, named after what expires: scheduling it twice is a conflict, not a second schedule. */
export function scheduleNameOf(message: ExpiryMessage): string {
  return `${message.kind}-${message.id}`.replace(/[^0-9A-Za-z_.-]/g, '-').slice(0, SCHEDULE_NAME_MAX);
}

/**
 * Scheduler's one-time expression, UTC, whole seconds: rounded up, so the message never arrives
 * before the expiry it announces.
 */
export function atExpressionOf(at: string): string {
  const ms = Date.parse(at);
  if (Number.isNaN(ms)) throw new Error(`not a date: ${at}`);
  const seconds = new Date(Math.ceil(ms / 1000) * 1000).toISOString().slice(0, 19);
  return `at(${seconds})`;
}

/**
 * The EventBridge Scheduler adapter: a one-time schedule per expiry, targeting the expiry queue
 * with the message as its input, deleted by Scheduler once it has fired. A ConflictException
 * (a schedule of that name exists: a retried request) means it is already scheduled.
 */
export function eventBridgeExpiryScheduler(
  client: Pick<SchedulerClient, 'send'>,
  target: ExpiryScheduleTarget,
): ExpiryScheduler {
  return {
    async schedule(message, at) {
      try {
        await client.send(
          new CreateScheduleCommand({
            Name: scheduleNameOf(message),
            GroupName: target.groupName,
            ScheduleExpression: atExpressionOf(at),
            ScheduleExpressionTimezone: 'UTC',
            FlexibleTimeWindow: { Mode: FlexibleTimeWindowMode.OFF },
            ActionAfterCompletion: ActionAfterCompletion.DELETE,
            Target: { Arn: target.queueArn, RoleArn: target.roleArn, Input: JSON.stringify(message) },
          }),
        );
      } catch (error) {
        if ((error as { name?: unknown } | undefined)?.name === 'ConflictException') return;
        throw error;
      }
    },
  };
}

/** setTimeout's longest delay: a later expiry is delivered then, found not due, and received again. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The local scheduler: the message goes to the in-process expiry queue, delivered at `at` (already
 * divided by TIME_SCALE where the expiry was computed, as approvals' are).
 */
export function localExpiryScheduler(queueName: string, now: () => number = Date.now): ExpiryScheduler {
  const queue = localTransport.queue(queueName);
  return {
    async schedule(message, at) {
      queue.send(JSON.stringify(message), Math.min(MAX_TIMER_MS, Math.max(0, Date.parse(at) - now())));
    },
  };
}
