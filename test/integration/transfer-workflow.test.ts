import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startLocalWorkers, type LocalWorkers } from '../../bin/local/workers.js';
import { startLocalWorkflows, type ExecutionOutcome, type LocalWorkflowRuns } from '../../bin/local/workflows.js';
import { TRANSFER_WORKFLOW } from '../../lib/workflows/transfer-workflow.js';
import type { TransferStepInput, TransferStepOutput } from '../../shared/domain/transfers/ports.js';
import { localTransferWorkflows } from '../../shared/workflows/local-workflows.js';
import { ENV } from '../../shared/config/env-names.js';
import { TRANSFER_STEPS_WORKER, TRANSFER_WORKFLOW_NAME, WORKERS } from '../../shared/workers.js';
import { startTestApp, type TestApp } from '../fixtures/service-app.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';

/**
 * The transfer workflow's definition (lib/workflows/transfer-workflow.ts), run by the local run's
 * runner (bin/local/workflows.ts, aws-local-stepfunctions) with stub steps: every branch of the
 * definition, the waits, the retries. Executions are started through the local adapter of the
 * TransferWorkflows port, as the transfer service starts them. Then the same runner with the real
 * step handler (functions/transfer-steps/handler.ts) over DynamoDB Local, as `npm start` runs it.
 */

type Step = (input: TransferStepInput, call: number) => TransferStepOutput | Promise<TransferStepOutput>;
interface Call {
  readonly step: TransferStepInput['step'];
  readonly at: number;
}

const SETTLE_DELAY_MS = 80;
const settleAtIn = (ms: number) => new Date(Date.now() + ms).toISOString();

let runs: LocalWorkflowRuns | undefined;
afterEach(async () => {
  await runs?.stop();
  runs = undefined;
});

/** Runs one transfer's execution with `steps` as the transfer-steps worker; answers its calls and outcome. */
async function runTransfer(steps: { submit: Step; settle?: Step }) {
  const calls: Call[] = [];
  const counts = { submit: 0, settle: 0 };
  const errors: unknown[][] = [];
  runs = startLocalWorkflows({
    workflows: [TRANSFER_WORKFLOW],
    handlerOf: () => async () => async (event: unknown) => {
      const input = event as TransferStepInput;
      calls.push({ step: input.step, at: Date.now() });
      counts[input.step] += 1;
      const step = input.step === 'submit' ? steps.submit : steps.settle;
      if (!step) throw new Error(`unexpected step ${input.step}`);
      return step(input, counts[input.step]);
    },
    retryDelayMs: 0,
    log: { error: (...args: unknown[]) => void errors.push(args) },
  });
  const transferId = `tr_${Math.random().toString(36).slice(2, 14)}`;
  await localTransferWorkflows().start({ id: transferId, organizationId: 'org_test', environment: 'SANDBOX' });
  const outcome = (await runs.outcome(TRANSFER_WORKFLOW_NAME, transferId)) as ExecutionOutcome;
  return { transferId, calls, outcome, errors, steps: calls.map((call) => call.step) };
}

const pending = (input: TransferStepInput, settleAt = settleAtIn(SETTLE_DELAY_MS)): TransferStepOutput => ({
  transferId: input.transferId,
  status: 'PENDING',
  settleAt,
});
const answer =
  (status: TransferStepOutput['status']) =>
  (input: TransferStepInput): TransferStepOutput => ({ transferId: input.transferId, status });
const lastStatus = (outcome: ExecutionOutcome) =>
  outcome.status === 'SUCCEEDED' ? (outcome.output as { step: TransferStepOutput }).step.status : undefined;
const errorOf = (outcome: ExecutionOutcome) => (outcome.status === 'FAILED' ? String(outcome.error) : '');

describe('transfer workflow', () => {
  it('submits, waits for the rail until settleAt (to the millisecond), then settles: COMPLETED', async () => {
    let settleAt = '';
    const run = await runTransfer({
      submit: (input) => {
        settleAt = settleAtIn(SETTLE_DELAY_MS);
        return pending(input, settleAt);
      },
      settle: answer('COMPLETED'),
    });
    expect(run.outcome.status).toBe('SUCCEEDED');
    expect(run.steps).toEqual(['submit', 'settle']);
    expect(lastStatus(run.outcome)).toBe('COMPLETED');
    expect(settleAt).toMatch(/\.\d{3}Z$/);
    expect(run.calls[1]!.at).toBeGreaterThanOrEqual(Date.parse(settleAt));
    expect(run.outcome.status === 'SUCCEEDED' && run.outcome.output).toMatchObject({ transferId: run.transferId });
  });

  it("passes the execution's transfer id to every step", async () => {
    const seen: TransferStepInput[] = [];
    const run = await runTransfer({
      submit: (input) => (seen.push(input), pending(input)),
      settle: (input) => (seen.push(input), answer('COMPLETED')(input)),
    });
    expect(seen).toEqual([
      { step: 'submit', transferId: run.transferId },
      { step: 'settle', transferId: run.transferId },
    ]);
  });

  it('ends without error when the rail fails the transfer at settlement', async () => {
    const run = await runTransfer({ submit: (input) => pending(input), settle: answer('FAILED') });
    expect(run.outcome.status).toBe('SUCCEEDED');
    expect(run.steps).toEqual(['submit', 'settle']);
    expect(lastStatus(run.outcome)).toBe('FAILED');
  });

  // No wall-clock bound (it failed under load at 1.2 s): the only waits of the definition are
  // WaitForRail, which needs a PENDING answer's settleAt, and NotSettledYet, which comes after a
  // settle; an execution that succeeds with the submit step alone passed neither.
  it('neither waits nor settles when the rail refuses the submission', async () => {
    const run = await runTransfer({ submit: answer('FAILED') });
    expect(run.outcome.status).toBe('SUCCEEDED');
    expect(run.steps).toEqual(['submit']);
    expect(lastStatus(run.outcome)).toBe('FAILED');
  });

  it('ends without error when a cancel won the race with the settlement', async () => {
    const run = await runTransfer({ submit: (input) => pending(input), settle: answer('CANCELLED') });
    expect(run.outcome.status).toBe('SUCCEEDED');
    expect(run.steps).toEqual(['submit', 'settle']);
    expect(lastStatus(run.outcome)).toBe('CANCELLED');
  });

  it.each(['COMPLETED', 'CANCELLED'] as const)(
    'ends after the submit step when it finds the transfer already %s (a test helper, a cancel)',
    async (status) => {
      const run = await runTransfer({ submit: answer(status) });
      expect(run.outcome.status).toBe('SUCCEEDED');
      expect(run.steps).toEqual(['submit']);
    },
  );

  it('retries a step that failed once (the step is idempotent)', async () => {
    const run = await runTransfer({
      submit: (input, call) => {
        if (call === 1) throw new Error('ProvisionedThroughputExceededException');
        return pending(input);
      },
      settle: (input, call) => {
        if (call === 1) throw Object.assign(new Error('Rate exceeded'), { name: 'Lambda.TooManyRequestsException' });
        return answer('COMPLETED')(input);
      },
    });
    expect(run.outcome.status).toBe('SUCCEEDED');
    expect(run.steps).toEqual(['submit', 'submit', 'settle', 'settle']);
    expect(lastStatus(run.outcome)).toBe('COMPLETED');
  });

  it("fails the execution (the alarm's case) when a step keeps failing, after its retries", async () => {
    const run = await runTransfer({
      submit: () => {
        throw new Error('the rail is down');
      },
    });
    expect(run.outcome.status).toBe('FAILED');
    // One attempt and the three retries of States.TaskFailed.
    expect(run.steps).toEqual(['submit', 'submit', 'submit', 'submit']);
    expect(errorOf(run.outcome)).toMatch(/the rail is down/);
    expect(run.errors).toHaveLength(1);
  });

  // AWS truncates a Wait timestamp to the second: a settle may come early and answer PENDING with
  // the rail's settleAt (past by then, once truncated); a production rail answers a later one.
  it.each([
    ['a past', -500],
    ['a later', 300],
  ])(
    'asks the rail again a second after %s settleAt when it has not settled yet (never in a tight loop)',
    async (_case, offsetMs) => {
      let again = 0;
      const run = await runTransfer({
        submit: (input) => pending(input),
        settle: (input, call) => {
          if (call > 1) return answer('COMPLETED')(input);
          again = Date.now() + offsetMs;
          return pending(input, new Date(again).toISOString());
        },
      });
      expect(run.outcome.status).toBe('SUCCEEDED');
      expect(run.steps).toEqual(['submit', 'settle', 'settle']);
      expect(run.calls[2]!.at - Math.max(again, run.calls[1]!.at)).toBeGreaterThanOrEqual(1_000 - 5);
      expect(lastStatus(run.outcome)).toBe('COMPLETED');
    },
  );

  it.each([
    ['INITIATED after submit', answer('INITIATED'), undefined],
    ['PENDING without settleAt after submit', answer('PENDING'), undefined],
    ['PENDING without settleAt after settle', (input: TransferStepInput) => pending(input), answer('PENDING')],
  ] as const)('fails the execution when a step answers %s', async (_case, submit, settle) => {
    const run = await runTransfer({ submit, ...(settle ? { settle } : {}) });
    expect(run.outcome.status).toBe('FAILED');
    expect(errorOf(run.outcome)).toMatch(/UnexpectedStatus|neither PENDING/);
  });

  it('runs one execution per transfer: a second start of the same transfer is the same execution', async () => {
    const run = await runTransfer({ submit: (input) => pending(input), settle: answer('COMPLETED') });
    await localTransferWorkflows().start({ id: run.transferId, organizationId: 'org_test', environment: 'SANDBOX' });
    await runs!.settled();
    expect(run.steps).toEqual(['submit', 'settle']);
  });
});

describe('transfer workflow with the real transfer-steps handler (DynamoDB Local)', () => {
  // A valid ABA routing number; the sandbox rail fails an account number ending in 0002 at settlement.
  const ROUTING_NUMBER = '021000021';
  let t: TestApp;
  let workers: LocalWorkers;
  const env: Record<string, string> = {
    [ENV.timeScale]: '100',
    [ENV.dataEncryptionKey]: randomBytes(32).toString('hex'),
  };

  beforeAll(async () => {
    t = await startTestApp(env);
    // The handler module builds its own core from the environment, as in Lambda.
    Object.assign(process.env, env, { [ENV.tableName]: t.table.tableName, [ENV.dynamodbEndpoint]: t.table.endpoint });
    workers = startLocalWorkers({ workers: WORKERS.filter((worker) => worker.name === TRANSFER_STEPS_WORKER) });
  });
  afterAll(async () => {
    await workers?.stop();
  });

  async function deposit(accountNumber: string) {
    const org = await t.createOrganization();
    const created = await t.app.services.transfers.deposit(org.ctx, AUDIT.transfer.deposit, {
      walletId: org.mainWalletId,
      amount: '100.00',
      currency: 'USD',
      counterparty: { type: 'FEDNOW', routingNumber: ROUTING_NUMBER, accountNumber },
    });
    const transferId = (created.body as { id: string }).id;
    const outcome = await workers.workflows!.outcome(TRANSFER_WORKFLOW_NAME, transferId);
    return { org, transferId, outcome, transfer: await t.app.services.transfers.get(org.ctx, transferId) };
  }

  it('submits a sandbox deposit, waits for the rail and settles it: COMPLETED, the wallet credited', async () => {
    const { org, outcome, transfer } = await deposit('123456789');
    expect(outcome).toMatchObject({ status: 'SUCCEEDED', output: { step: { status: 'COMPLETED' } } });
    expect(transfer.status).toBe('COMPLETED');
    const wallet = await t.app.services.wallets.get(org.ctx, org.mainWalletId);
    expect(wallet.balance.gt(0)).toBe(true);
  });

  it('ends without error when the sandbox rail fails the deposit at settlement', async () => {
    const { outcome, transfer } = await deposit('123450002');
    expect(outcome).toMatchObject({ status: 'SUCCEEDED', output: { step: { status: 'FAILED' } } });
    expect(transfer.status).toBe('FAILED');
  });

  it('neither waits nor settles when the sandbox rail refuses the submission (account ending 0003): FAILED at once', async () => {
    const { outcome, transfer } = await deposit('123450003');
    expect(outcome).toMatchObject({ status: 'SUCCEEDED', output: { step: { status: 'FAILED' } } });
    expect(transfer).toMatchObject({ status: 'FAILED', failureReason: 'SUBMISSION_REJECTED' });
    expect(transfer.submittedAt).toBeUndefined();
  });

  it('a cancel committed while the execution waits for the rail wins: the settle step finds CANCELLED, the hold is released once', async () => {
    const org = await t.createOrganization();
    await t.app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, org.mainWalletId, '100.00');
    const created = await t.app.services.transfers.withdraw(org.ctx, AUDIT.transfer.withdraw, {
      walletId: org.mainWalletId,
      amount: '40.00',
      currency: 'USD',
      counterparty: { type: 'ACH', routingNumber: ROUTING_NUMBER, accountNumber: '123456789' },
    });
    const transferId = (created.body as { id: string }).id;
    // ACH settles after 3 minutes / TIME_SCALE 100 = 1.8 s: the execution is in its Wait state.
    for (let i = 0; i < 100 && (await t.app.services.transfers.get(org.ctx, transferId)).status !== 'PENDING'; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await t.app.services.transfers.cancel(org.ctx, AUDIT.transfer.cancel, transferId)).toMatchObject({
      status: 'CANCELLED',
    });
    const outcome = await workers.workflows!.outcome(TRANSFER_WORKFLOW_NAME, transferId);
    expect(outcome).toMatchObject({ status: 'SUCCEEDED', output: { step: { status: 'CANCELLED' } } });
    const wallet = await t.app.services.wallets.get(org.ctx, org.mainWalletId);
    expect([wallet.balance.toFixed(2), wallet.heldBalance.toFixed(2)]).toEqual(['100.00', '0.00']);
  });
});
