import Big from 'big.js';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startLocalWorkers, type LocalWorkers } from '../../bin/local/workers.js';
import { startLocalWorkflows, type ExecutionOutcome, type LocalWorkflowRuns } from '../../bin/local/workflows.js';
import { DISPUTE_WORKFLOW } from '../../lib/workflows/dispute-workflow.js';
import { ENV } from '../../shared/config/env-names.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { DISPUTE_RESPONSE_MS } from '../../shared/domain/disputes/dispute-rules.js';
import type { DisputeStepInput, DisputeStepOutput } from '../../shared/domain/disputes/ports.js';
import type { Dispute } from '../../shared/domain/disputes/types.js';
import { SYSTEM_ACCOUNTS } from '../../shared/domain/ledger/posting.js';
import { checkLedger } from '../../shared/persistence/ledger-check.js';
import { DISPUTE_STEPS_WORKER, DISPUTE_WORKFLOW_NAME, WORKERS } from '../../shared/workers.js';
import { localDisputeWorkflows } from '../../shared/workflows/local-workflows.js';
import { startTestApp, type TestApp } from '../fixtures/service-app.js';
import { sumOf, systemAccountEntries, walletEntries } from '../fixtures/table-reads.js';

/**
 * The dispute deadline workflow's definition (lib/workflows/dispute-workflow.ts), run by the local
 * run's runner (bin/local/workflows.ts, aws-local-stepfunctions) with stub steps: every branch, the
 * waits, the retries. Executions are started through the local adapter of the DisputeWorkflows
 * port, as the disputes service starts them. Then the same runner with the real step handler
 * (functions/dispute-steps/handler.ts) over DynamoDB Local, as `npm start` runs it: an unanswered
 * dispute lapses, and a response racing the deadline round after round moves the money once.
 */

type Step = (input: DisputeStepInput, call: number) => DisputeStepOutput | Promise<DisputeStepOutput>;

const WINDOW_MS = 80;
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

let runs: LocalWorkflowRuns | undefined;
afterEach(async () => {
  await runs?.stop();
  runs = undefined;
});

/** Runs one dispute's execution with `step` as the dispute-steps worker; answers its calls and outcome. */
async function runDispute(step: Step, respondBy = inMs(WINDOW_MS)) {
  const calls: { input: DisputeStepInput; at: number }[] = [];
  const errors: unknown[][] = [];
  runs = startLocalWorkflows({
    workflows: [DISPUTE_WORKFLOW],
    handlerOf: () => async () => async (event: unknown) => {
      const input = event as DisputeStepInput;
      calls.push({ input, at: Date.now() });
      return step(input, calls.length);
    },
    retryDelayMs: 0,
    log: { error: (...args: unknown[]) => void errors.push(args) },
  });
  const disputeId = `dsp_${Math.random().toString(36).slice(2, 14)}`;
  const startedAt = Date.now();
  await localDisputeWorkflows().start({ id: disputeId, respondBy });
  const outcome = (await runs.outcome(DISPUTE_WORKFLOW_NAME, disputeId)) as ExecutionOutcome;
  return { disputeId, respondBy, startedAt, calls, outcome, errors };
}

const answer = (status: DisputeStepOutput['status'], respondBy?: string) => (): DisputeStepOutput => ({
  status,
  ...(respondBy ? { respondBy } : {}),
});
const lastStatus = (outcome: ExecutionOutcome) =>
  outcome.status === 'SUCCEEDED' ? (outcome.output as { step: DisputeStepOutput }).step.status : undefined;

describe('dispute deadline workflow', () => {
  it("waits until the input's respondBy (to the millisecond), then runs the deadline step once on that dispute: RESOLVED_AGENT ends it", async () => {
    const run = await runDispute(answer('RESOLVED_AGENT'));
    expect(run.outcome.status).toBe('SUCCEEDED');
    expect(lastStatus(run.outcome)).toBe('RESOLVED_AGENT');
    expect(run.calls.map((call) => call.input)).toEqual([{ step: 'deadline', disputeId: run.disputeId }]);
    expect(run.calls[0]!.at).toBeGreaterThanOrEqual(Date.parse(run.respondBy));
    expect(run.outcome.status === 'SUCCEEDED' && run.outcome.output).toMatchObject({
      disputeId: run.disputeId,
      respondBy: run.respondBy,
    });
  });

  it.each(['RESPONDED', 'RESOLVED_MERCHANT', 'CLOSED'] as const)(
    'ends without error after one step when the dispute is already %s (answered or resolved first)',
    async (status) => {
      const run = await runDispute(answer(status));
      expect(run.outcome.status).toBe('SUCCEEDED');
      expect(run.calls).toHaveLength(1);
      expect(lastStatus(run.outcome)).toBe(status);
    },
  );

  it('runs the step at once when respondBy is past (a start that came late)', async () => {
    const run = await runDispute(answer('RESOLVED_AGENT'), inMs(-60_000));
    expect(run.outcome.status).toBe('SUCCEEDED');
    expect(run.calls).toHaveLength(1);
    expect(run.calls[0]!.at - run.startedAt).toBeLessThan(1_000);
  });

  // AWS truncates a Wait timestamp to the second: the step may come early and answer OPEN with the
  // dispute's respondBy; it is asked again a second after that respondBy, never in a tight loop.
  it.each([
    ['a past', -500],
    ['a later', 300],
  ])('asks again a second after %s respondBy when the step answers OPEN (it ran early)', async (_case, offsetMs) => {
    let again = 0;
    const run = await runDispute((_input, call) => {
      if (call > 1) return answer('RESOLVED_AGENT')();
      again = Date.now() + offsetMs;
      return answer('OPEN', new Date(again).toISOString())();
    });
    expect(run.outcome.status).toBe('SUCCEEDED');
    expect(run.calls).toHaveLength(2);
    expect(run.calls[1]!.at - Math.max(again, run.calls[0]!.at)).toBeGreaterThanOrEqual(1_000 - 5);
    expect(lastStatus(run.outcome)).toBe('RESOLVED_AGENT');
  });

  it('retries a step that failed once (the step is idempotent)', async () => {
    const run = await runDispute((_input, call) => {
      if (call === 1) throw new Error('ProvisionedThroughputExceededException');
      return answer('RESOLVED_AGENT')();
    });
    expect(run.outcome.status).toBe('SUCCEEDED');
    expect(run.calls).toHaveLength(2);
  });

  it("fails the execution (the alarm's case) when the step keeps failing, after its retries", async () => {
    const run = await runDispute(() => {
      throw new Error('dispute dsp_x not found');
    });
    expect(run.outcome.status).toBe('FAILED');
    // One attempt and the three retries of States.TaskFailed.
    expect(run.calls).toHaveLength(4);
    expect(run.outcome.status === 'FAILED' && String(run.outcome.error)).toMatch(/not found/);
    expect(run.errors).toHaveLength(1);
  });

  it('fails the execution when the step answers OPEN without respondBy (it can not act on it)', async () => {
    const run = await runDispute(answer('OPEN'));
    expect(run.outcome.status).toBe('FAILED');
    expect(run.outcome.status === 'FAILED' && String(run.outcome.error)).toMatch(/UnexpectedStatus|neither OPEN/);
  });

  it('runs one execution per dispute: a second start of the same dispute is the same execution', async () => {
    const run = await runDispute(answer('RESOLVED_AGENT'));
    await localDisputeWorkflows().start({ id: run.disputeId, respondBy: run.respondBy });
    await runs!.settled();
    expect(run.calls).toHaveLength(1);
  });
});

describe('dispute deadline workflow with the real dispute-steps handler (DynamoDB Local)', () => {
  /** The response window: 7 days in 300 ms (SANDBOX divides it by TIME_SCALE). */
  const SCALED_WINDOW_MS = 300;
  const env: Record<string, string> = { [ENV.timeScale]: String(DISPUTE_RESPONSE_MS / SCALED_WINDOW_MS) };
  let t: TestApp;
  let workers: LocalWorkers;

  beforeAll(async () => {
    t = await startTestApp(env);
    // The handler module builds its own core from the environment, as in Lambda.
    Object.assign(process.env, env, { [ENV.tableName]: t.table.tableName, [ENV.dynamodbEndpoint]: t.table.endpoint });
    workers = startLocalWorkers({ workers: WORKERS.filter((worker) => worker.name === DISPUTE_STEPS_WORKER) });
  });
  afterAll(async () => {
    await workers?.stop();
  });

  const balanceOf = async (ctx: Awaited<ReturnType<TestApp['createOrganization']>>['ctx'], walletId: string) =>
    (await t.app.services.wallets.get(ctx, walletId)).balance.toFixed(2);
  const ledgerProblems = async () => (await checkLedger(t.table.client, t.table.tableName)).problems;
  /** What acc_SUSPENSE holds now (the disputed amounts not yet resolved). */
  const suspense = async () =>
    sumOf(await systemAccountEntries(t.table, 'SANDBOX', SYSTEM_ACCOUNTS.suspense)).toFixed(2);

  /** A paying and a receiving organization, and the payer's wallet funded with `funds`. */
  async function parties(funds: string) {
    const payer = await t.createOrganization('Disputing Org');
    const payee = await t.createOrganization('Merchant Org');
    await t.app.services.wallets.fund(payer.ctx, AUDIT.wallet.fund, payer.mainWalletId, funds);
    return { payer, payee };
  }

  /** A posted payment of `amount` from the payer to the payee, disputed in full: the workflow starts. */
  async function disputedPayment({ payer, payee }: Awaited<ReturnType<typeof parties>>, amount: string) {
    const payment = await t.app.services.payments.create(payer.ctx, AUDIT.payment.create, {
      from: payer.mainWalletId,
      to: payee.mainWalletId,
      amount,
    });
    const opened = await t.app.services.disputes.open(payer.ctx, AUDIT.dispute.create, {
      transactionId: (payment.body as { id: string }).id,
      type: 'SERVICE_ISSUE',
      amount,
      reason: 'The credits never arrived.',
    });
    return opened.body as { id: string; respondBy: string; createdAt: string; status: string };
  }

  it('an unanswered dispute lapses RESOLVED_AGENT after the scaled wait, its money paid to the initiator once', async () => {
    const world = await parties('100.00');
    const dispute = await disputedPayment(world, '40.00');
    expect(dispute.status).toBe('OPEN');
    expect(Date.parse(dispute.respondBy) - Date.parse(dispute.createdAt)).toBe(SCALED_WINDOW_MS);
    expect(await balanceOf(world.payer.ctx, world.payer.mainWalletId)).toBe('60.00');
    expect(await balanceOf(world.payee.ctx, world.payee.mainWalletId)).toBe('0.00');
    expect(await suspense()).toBe('40.00');

    const outcome = await workers.workflows!.outcome(DISPUTE_WORKFLOW_NAME, dispute.id);
    expect(outcome).toMatchObject({ status: 'SUCCEEDED', output: { step: { status: 'RESOLVED_AGENT' } } });
    const lapsed: Dispute = await t.app.services.disputes.get(world.payer.ctx, dispute.id);
    expect(lapsed).toMatchObject({
      status: 'RESOLVED_AGENT',
      resolvedBy: 'DEADLINE',
      creditedWalletId: world.payer.mainWalletId,
      resolutionTransactionId: expect.stringMatching(/^txn_/),
    });
    expect(Date.parse(lapsed.resolvedAt!)).toBeGreaterThanOrEqual(Date.parse(dispute.respondBy));

    expect(await balanceOf(world.payer.ctx, world.payer.mainWalletId)).toBe('100.00');
    expect(await balanceOf(world.payee.ctx, world.payee.mainWalletId)).toBe('0.00');
    expect(await suspense()).toBe('0.00');
    const resolutions = (await walletEntries(t.table, world.payer.mainWalletId)).filter(
      (leg) => leg.transactionType === 'DISPUTE_RESOLUTION',
    );
    expect(resolutions).toEqual([expect.objectContaining({ transactionId: lapsed.resolutionTransactionId })]);
    expect(await ledgerProblems()).toEqual([]);
  });

  it('a response racing the deadline, round after round: exactly one outcome each, the money moved once, the ledger clean', async () => {
    const ROUNDS = 16;
    const AMOUNT = '5.00';
    const world = await parties(new Big(AMOUNT).times(ROUNDS).toFixed(2));
    const outcomes: { id: string; offsetMs: number; answer: string }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const dispute = await disputedPayment(world, AMOUNT);
      // Fired around respondBy (from 120 ms before, as a response takes a few reads before it
      // checks the deadline, to 20 ms after), when the workflow's step runs: a response checked
      // before it races the step's lapse, one after it races the service's own lapse with the step's.
      const offsetMs = (round % 8) * 20 - 120;
      await delay(Math.max(0, Date.parse(dispute.respondBy) + offsetMs - Date.now()));
      const answer = await t.app.services.disputes
        .respond(world.payee.ctx, AUDIT.dispute.respond, dispute.id, { response: 'Delivered as agreed.' })
        .then(
          (responded) => responded.status,
          (error: { code?: string; details?: { status?: string } }) => `${error.code}:${error.details?.status}`,
        );
      outcomes.push({ id: dispute.id, offsetMs, answer });
      const execution = await workers.workflows!.outcome(DISPUTE_WORKFLOW_NAME, dispute.id);
      const final = await t.app.services.disputes.get(world.payee.ctx, dispute.id);

      // Exactly one outcome: the response (RESPONDED, the money still in suspense) or the lapse
      // (RESOLVED_AGENT, the response refused with that status); the workflow ends on either.
      expect(execution, dispute.id).toMatchObject({ status: 'SUCCEEDED', output: { step: { status: final.status } } });
      if (answer === 'RESPONDED') {
        expect(final, dispute.id).toMatchObject({ status: 'RESPONDED', response: 'Delivered as agreed.' });
        expect(final.resolutionTransactionId, dispute.id).toBeUndefined();
      } else {
        expect(answer, dispute.id).toBe('INVALID_STATE:RESOLVED_AGENT');
        expect(final, dispute.id).toMatchObject({ status: 'RESOLVED_AGENT', resolvedBy: 'DEADLINE' });
        expect(final.response, dispute.id).toBeUndefined();
      }
    }

    const lapsed = outcomes.filter((outcome) => outcome.answer !== 'RESPONDED');
    const responded = outcomes.length - lapsed.length;
    // The money: each lapse paid the payer back once; each response left its amount in suspense.
    const amount = new Big(AMOUNT);
    expect(await balanceOf(world.payer.ctx, world.payer.mainWalletId)).toBe(amount.times(lapsed.length).toFixed(2));
    expect(await balanceOf(world.payee.ctx, world.payee.mainWalletId)).toBe('0.00');
    expect(await suspense()).toBe(amount.times(responded).toFixed(2));
    const resolutions = (await walletEntries(t.table, world.payer.mainWalletId)).filter(
      (leg) => leg.transactionType === 'DISPUTE_RESOLUTION',
    );
    expect(resolutions).toHaveLength(lapsed.length);
    expect(await ledgerProblems()).toEqual([]);
    // Both outcomes happened (the race was run on both sides of the deadline).
    expect(lapsed.length, JSON.stringify(outcomes)).toBeGreaterThan(0);
    expect(responded, JSON.stringify(outcomes)).toBeGreaterThan(0);
  });
});
