import { ExecutionAlreadyExists, ExecutionLimitExceeded, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { localTransferWorkflows, localWorkflows } from '../../shared/workflows/local-workflows.js';
import { stepFunctionsTransferWorkflows } from '../../shared/workflows/step-functions.js';
import { executionNameOf } from '../../shared/workflows/step-input.js';
import { transferStepInputOf } from '../../shared/workflows/transfer-step-input.js';

const STATE_MACHINE_ARN = 'arn:aws:states:eu-west-1:123456789012:stateMachine:transfer';
const TRANSFER = {
  id: 'tr_0123456789abcdefghijklmn',
  organizationId: 'org_0123456789abcdefghijklmn',
  environment: 'SANDBOX',
};

describe('Step Functions adapter (transfer workflow)', () => {
  const client = mockClient(SFNClient);
  afterEach(() => client.reset());
  const workflows = () => stepFunctionsTransferWorkflows(new SFNClient({ region: 'eu-west-1' }), STATE_MACHINE_ARN);

  it('starts one execution of the state machine, named after the transfer, with the transfer id as input', async () => {
    client
      .on(StartExecutionCommand)
      .resolves({ executionArn: `${STATE_MACHINE_ARN}:${TRANSFER.id}`, startDate: new Date() });
    await workflows().start(TRANSFER);

    const calls = client.commandCalls(StartExecutionCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      stateMachineArn: STATE_MACHINE_ARN,
      name: TRANSFER.id,
      input: JSON.stringify({ transferId: TRANSFER.id }),
    });
  });

  it("treats ExecutionAlreadyExists (the transfer's execution was started before) as started", async () => {
    client.on(StartExecutionCommand).rejects(
      new ExecutionAlreadyExists({
        message: `Execution Already Exists: '${STATE_MACHINE_ARN}:${TRANSFER.id}'`,
        $metadata: {},
      }),
    );
    await expect(workflows().start(TRANSFER)).resolves.toBeUndefined();
  });

  it('lets throttling and any other failure through to the transfer service', async () => {
    client
      .on(StartExecutionCommand)
      .rejects(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }));
    await expect(workflows().start(TRANSFER)).rejects.toThrow('Rate exceeded');
    client
      .on(StartExecutionCommand)
      .rejects(new ExecutionLimitExceeded({ message: 'too many executions', $metadata: {} }));
    await expect(workflows().start(TRANSFER)).rejects.toThrow('too many executions');
  });

  it('refuses an id that can not name an execution rather than starting a differently named one', async () => {
    await expect(workflows().start({ ...TRANSFER, id: 'tr with space' })).rejects.toThrow(/can not name an execution/);
    expect(executionNameOf(TRANSFER.id)).toBe(TRANSFER.id);
    expect(() => executionNameOf('x'.repeat(81))).toThrow();
    expect(client.commandCalls(StartExecutionCommand)).toHaveLength(0);
  });
});

describe('local workflows adapter', () => {
  it('hands the start to the registered runner, with the execution name and input of AWS', async () => {
    const started: [string, Record<string, string>][] = [];
    const off = localWorkflows.register('transfer', {
      start: (name, input) => void started.push([name, { ...input }]),
    });
    try {
      await localTransferWorkflows().start(TRANSFER);
    } finally {
      off();
    }
    expect(started).toEqual([[TRANSFER.id, { transferId: TRANSFER.id }]]);
  });

  it('counts and drops a start when no local run registered a runner (unit tests)', async () => {
    const before = localWorkflows.dropped;
    await localTransferWorkflows().start(TRANSFER);
    expect(localWorkflows.dropped).toBe(before + 1);
  });
});

describe('transfer step input', () => {
  it('accepts what the definition passes and refuses anything else', () => {
    expect(transferStepInputOf({ step: 'settle', transferId: TRANSFER.id })).toEqual({
      step: 'settle',
      transferId: TRANSFER.id,
    });
    for (const bad of [
      undefined,
      {},
      { step: 'advance', transferId: TRANSFER.id },
      { step: 'submit' },
      { step: 'submit', transferId: '' },
    ]) {
      expect(() => transferStepInputOf(bad), JSON.stringify(bad)).toThrow(/not a transfer step input/);
    }
  });
});
