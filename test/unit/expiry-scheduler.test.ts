import { ConflictException, CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expiryMessageOf } from '../../shared/domain/expiries/ports.js';
import {
  atExpressionOf,
  eventBridgeExpiryScheduler,
  localExpiryScheduler,
  scheduleNameOf,
} from '../../shared/events/expiry-scheduler.js';
import { localTransport } from '../../shared/events/local-transport.js';

const TARGET = {
  groupName: 'allowance-expiries',
  roleArn: 'arn:aws:iam::123456789012:role/scheduler',
  queueArn: 'arn:aws:sqs:eu-west-1:123456789012:expiry',
};
const MESSAGE = { kind: 'approval', id: 'apr_0123456789abcdefghijkl' } as const;

describe('EventBridge Scheduler adapter (one-time expiries)', () => {
  const client = mockClient(SchedulerClient);
  afterEach(() => client.reset());

  it('creates one one-time schedule at the expiry, into the expiry queue, deleted after it fired, named after the approval', async () => {
    client
      .on(CreateScheduleCommand)
      .resolves({ ScheduleArn: 'arn:aws:scheduler:eu-west-1:123456789012:schedule/allowance-expiries/approval-apr_x' });
    await eventBridgeExpiryScheduler(new SchedulerClient({ region: 'eu-west-1' }), TARGET).schedule(
      MESSAGE,
      '2026-11-24T10:15:30.250Z',
    );

    const calls = client.commandCalls(CreateScheduleCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      Name: 'approval-apr_0123456789abcdefghijkl',
      GroupName: 'allowance-expiries',
      // Rounded up to the second: never before the expiry.
      ScheduleExpression: 'at(2026-11-24T10:15:31)',
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: { Arn: TARGET.queueArn, RoleArn: TARGET.roleArn, Input: JSON.stringify(MESSAGE) },
    });
    expect(expiryMessageOf(calls[0]!.args[0].input.Target!.Input!)).toEqual(MESSAGE);
  });

  it("names schedules deterministically, within Scheduler's 64 characters of [0-9a-zA-Z-_.]", () => {
    expect(scheduleNameOf(MESSAGE)).toBe(scheduleNameOf({ ...MESSAGE }));
    const odd = scheduleNameOf({ kind: 'approval', id: `apr_${'x'.repeat(80)}/:?` });
    expect(odd).toMatch(/^[0-9A-Za-z_.-]{1,64}$/);
    expect(atExpressionOf('2026-11-24T10:15:30.000Z')).toBe('at(2026-11-24T10:15:30)');
  });

  it('treats a ConflictException (the schedule exists: a retried request) as already scheduled', async () => {
    client.on(CreateScheduleCommand).rejects(
      new ConflictException({
        Message: 'Schedule approval-apr_x already exists.',
        message: 'Schedule approval-apr_x already exists.',
        $metadata: {},
      }),
    );
    await expect(
      eventBridgeExpiryScheduler(new SchedulerClient({ region: 'eu-west-1' }), TARGET).schedule(
        MESSAGE,
        '2026-11-24T10:15:30Z',
      ),
    ).resolves.toBeUndefined();
  });

  it('lets any other failure through (the payment service logs it and the sweep expires the approval)', async () => {
    client.on(CreateScheduleCommand).rejects(Object.assign(new Error('throttled'), { name: 'ThrottlingException' }));
    await expect(
      eventBridgeExpiryScheduler(new SchedulerClient({ region: 'eu-west-1' }), TARGET).schedule(
        MESSAGE,
        '2026-11-24T10:15:30Z',
      ),
    ).rejects.toThrow('throttled');
  });
});

describe('local expiry scheduler', () => {
  it('sends the message to the in-process expiry queue, delayed until the (already scaled) expiry', async () => {
    const sent: [string, number][] = [];
    const off = localTransport.registerQueue(
      'expiry-test',
      { send: (body, delayMs) => sent.push([body, delayMs]), deadLetter: vi.fn() },
      { busTarget: false },
    );
    try {
      const now = Date.parse('2026-11-24T10:00:00.000Z');
      const scheduler = localExpiryScheduler('expiry-test', () => now);
      await scheduler.schedule(MESSAGE, '2026-11-24T10:00:01.000Z');
      await scheduler.schedule(MESSAGE, '2026-11-24T09:00:00.000Z');
      expect(sent).toEqual([
        [JSON.stringify(MESSAGE), 1_000],
        [JSON.stringify(MESSAGE), 0],
      ]);
    } finally {
      off();
    }
  });
});
