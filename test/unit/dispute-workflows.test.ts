import { ExecutionAlreadyExists, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import type { DisputeDeadline, DisputeStepOutput } from '../../shared/domain/disputes/ports.js';
import type { Core } from '../../shared/runtime/core.js';
import { disputeWorkflows } from '../../shared/runtime/workflows.js';
import { disputeStepInputOf, runDisputeStep } from '../../shared/workflows/dispute-step-input.js';
import { localDisputeWorkflows, localWorkflows } from '../../shared/workflows/local-workflows.js';
import { stepFunctionsDisputeWorkflows } from '../../shared/workflows/step-functions.js';

const STATE_MACHINE_ARN = 'arn:aws:states:eu-west-1:123456789012:stateMachine:dispute';
const DISPUTE = { id: 'dsp_0123456789abcdefghijklmn', respondBy: '2026-12-04T21:00:00.000Z' };
const client = mockClient(SFNClient);
afterEach(() => client.reset());

describe('Step Functions adapter (dispute workflow)', () => {
  const workflows = () => stepFunctionsDisputeWorkflows(new SFNClient({ region: 'eu-west-1' }), STATE_MACHINE_ARN);

  it('starts one execution of the state machine, named after the dispute, with its id and respondBy as input', async () => {
    client
      .on(StartExecutionCommand)
      .resolves({ executionArn: `${STATE_MACHINE_ARN}:${DISPUTE.id}`, startDate: new Date() });
    await workflows().start(DISPUTE);

    const calls = client.commandCalls(StartExecutionCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      stateMachineArn: STATE_MACHINE_ARN,
      name: DISPUTE.id,
      input: JSON.stringify({ disputeId: DISPUTE.id, respondBy: DISPUTE.respondBy }),
    });
  });

  it("treats ExecutionAlreadyExists (the dispute's execution was started before) as started, and lets anything else through", async () => {
    client.on(StartExecutionCommand).rejects(
      new ExecutionAlreadyExists({
        message: `Execution Already Exists: '${STATE_MACHINE_ARN}:${DISPUTE.id}'`,
        $metadata: {},
      }),
    );
    await expect(workflows().start(DISPUTE)).resolves.toBeUndefined();
    client
      .on(StartExecutionCommand)
      .rejects(Object.assign(new Error('User is not authorized'), { name: 'AccessDeniedException' }));
    await expect(workflows().start(DISPUTE)).rejects.toThrow('User is not authorized');
  });

  it('refuses an id that can not name an execution rather than starting a differently named one', async () => {
    await expect(workflows().start({ ...DISPUTE, id: 'dsp/1' })).rejects.toThrow(/can not name an execution/);
    expect(client.commandCalls(StartExecutionCommand)).toHaveLength(0);
  });
});

describe('disputeWorkflows(core): the adapter chosen by DISPUTE_STATE_MACHINE_ARN', () => {
  const coreWith = (disputeStateMachineArn: string | undefined) =>
    ({ config: { region: 'eu-west-1', disputeStateMachineArn } }) as unknown as Core;

  it('Step Functions when the ARN is set', async () => {
    client.on(StartExecutionCommand).resolves({ executionArn: 'x', startDate: new Date() });
    await disputeWorkflows(coreWith(STATE_MACHINE_ARN)).start(DISPUTE);
    expect(client.commandCalls(StartExecutionCommand)[0]!.args[0].input.stateMachineArn).toBe(STATE_MACHINE_ARN);
  });

  it('the local runner otherwise (nothing registered: the start is counted and dropped)', async () => {
    const before = localWorkflows.dropped;
    await disputeWorkflows(coreWith(undefined)).start(DISPUTE);
    expect(localWorkflows.dropped).toBe(before + 1);
    expect(client.commandCalls(StartExecutionCommand)).toHaveLength(0);
  });
});

describe('local dispute workflows adapter', () => {
  it('hands the start to the registered runner, with the execution name and input of AWS', async () => {
    const started: [string, Record<string, string>][] = [];
    const off = localWorkflows.register('dispute', { start: (name, input) => void started.push([name, { ...input }]) });
    try {
      await localDisputeWorkflows().start(DISPUTE);
    } finally {
      off();
    }
    expect(started).toEqual([[DISPUTE.id, { disputeId: DISPUTE.id, respondBy: DISPUTE.respondBy }]]);
  });
});

describe('dispute step', () => {
  it('accepts what the definition passes and refuses anything else', () => {
    expect(disputeStepInputOf({ step: 'deadline', disputeId: DISPUTE.id })).toEqual({
      step: 'deadline',
      disputeId: DISPUTE.id,
    });
    for (const bad of [
      undefined,
      {},
      { step: 'settle', disputeId: DISPUTE.id },
      { step: 'deadline' },
      { step: 'deadline', disputeId: '' },
      { step: 'deadline', disputeId: 'dsp 1' },
    ]) {
      expect(() => disputeStepInputOf(bad), JSON.stringify(bad)).toThrow(/not a dispute step input/);
    }
  });

  /** A fake of the port: answers what it is told and records each call. */
  const fakeDeadline = (answer: DisputeStepOutput | Error) => {
    const calls: [string, Date | undefined][] = [];
    const deadline: DisputeDeadline = {
      runDeadline: async (disputeId, now) => {
        calls.push([disputeId, now]);
        if (answer instanceof Error) throw answer;
        return answer;
      },
    };
    return { deadline, calls };
  };

  it("runs the dispute's deadline now and answers its status as the port does", async () => {
    for (const answer of [
      { status: 'RESOLVED_AGENT' },
      { status: 'OPEN', respondBy: DISPUTE.respondBy },
      { status: 'RESPONDED' },
    ] as DisputeStepOutput[]) {
      const { deadline, calls } = fakeDeadline(answer);
      await expect(runDisputeStep(deadline, { step: 'deadline', disputeId: DISPUTE.id })).resolves.toEqual(answer);
      expect(calls).toEqual([[DISPUTE.id, undefined]]);
    }
  });

  it('throws (the Task fails and is retried) on a malformed input without calling the service, and on its failure', async () => {
    const { deadline, calls } = fakeDeadline({ status: 'OPEN' });
    await expect(runDisputeStep(deadline, { step: 'deadline' })).rejects.toThrow(/not a dispute step input/);
    expect(calls).toEqual([]);
    const failing = fakeDeadline(new Error('dispute dsp_x not found'));
    await expect(runDisputeStep(failing.deadline, { step: 'deadline', disputeId: DISPUTE.id })).rejects.toThrow(
      'not found',
    );
  });
});
