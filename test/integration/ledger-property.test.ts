import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from '../../shared/auth/authenticate.js';
import { loadConfig } from '../../shared/config/config.js';
import { ApiError } from '../../shared/domain/errors.js';
import { OPERATOR_PERMISSION, ORGANIZATION_PERMISSIONS, type RequestContext } from '../../shared/domain/tenancy.js';
import type { Approval } from '../../shared/domain/types.js';
import { checkLedger } from '../../shared/persistence/ledger-check.js';
import { createContainer, type Container } from '../../shared/runtime/container.js';
import {
  APPROVAL_THRESHOLD_CENTS,
  APPROVAL_WALLET,
  centsToAmount,
  centsToBalance,
  commandsArbitrary,
  describeAction,
  LedgerModel,
  POLICY_MAX_TRANSACTION,
  THRESHOLD_WALLET,
  WALLET_NAMES,
  type Command,
  type Expected,
  type ModelApproval,
  type ModelPayment,
} from '../fixtures/payments-model.js';
import { createTestTable } from '../fixtures/table.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';

/**
 * Random sequences of fund, pay, reverse, approve and reject over four wallets of a fresh
 * organization, driven through the domain services on DynamoDB Local. After every step: the
 * outcome code is the model's, every wallet balance equals the model's (integer cents), the
 * touched payments and approvals have the model's status, and checkLedger finds no problem.
 *
 * Reproduce a failure with what fast-check prints: LEDGER_PROPERTY_SEED=<seed> and
 * LEDGER_PROPERTY_PATH=<path> (LEDGER_PROPERTY_RUNS / LEDGER_PROPERTY_STEPS run more or longer
 * sequences).
 */
const NUM_RUNS = Number(process.env.LEDGER_PROPERTY_RUNS ?? 20);
const MAX_STEPS = Number(process.env.LEDGER_PROPERTY_STEPS ?? 25);
const SEED = process.env.LEDGER_PROPERTY_SEED === undefined ? undefined : Number(process.env.LEDGER_PROPERTY_SEED);
const PATH = process.env.LEDGER_PROPERTY_PATH;
/** Long hunts: LEDGER_PROPERTY_CHECK_EVERY=<n> scans the ledger every n steps (and after the last). */
const CHECK_EVERY = Number(process.env.LEDGER_PROPERTY_CHECK_EVERY ?? 1);
/** LEDGER_PROPERTY_STATS=1 prints how often each outcome occurred. */
const STATS: Record<string, number> | undefined = process.env.LEDGER_PROPERTY_STATS === '1' ? {} : undefined;
/**
 * A bound on the whole property (runs and shrinking, which replays whole sequences against
 * DynamoDB Local), so the test always ends; the default runs take well under a minute, so hitting
 * it counts as a failure.
 */
const TIME_LIMIT_MS = Number(process.env.LEDGER_PROPERTY_TIME_LIMIT_MS ?? 240_000);

type Table = Awaited<ReturnType<typeof createTestTable>>;

interface World {
  walletIds: string[];
  /** The organization's sandbox key: funds, pays, reverses (and so requests every approval). */
  requester: RequestContext;
  /** A second organization-level key with `admin`: decides approvals. */
  approver: RequestContext;
}

/** What a service call did, reduced to a code comparable with the model's prediction. */
interface Observed {
  code: string;
  body?: Record<string, unknown>;
  approval?: Approval;
  fund?: { amount: string; newBalance: string };
  error?: ApiError;
}

const operator: RequestContext = {
  principal: {
    kind: 'OPERATOR',
    keyId: 'ledger-property',
    organizationId: null,
    environment: null,
    permissions: [OPERATOR_PERMISSION],
    walletId: null,
  },
  actor: { actorType: 'SYSTEM', actorId: 'ledger-property', ipAddress: '127.0.0.1' },
  requestId: 'ledger-property',
};

async function contextOf(app: Container, rawKey: string): Promise<RequestContext> {
  const { principal, apiKey } = await authenticate(app.core.authKeys, `Bearer ${rawKey}`, new Date());
  return {
    principal,
    actor: { actorType: 'API_KEY', actorId: apiKey.id, ipAddress: '127.0.0.1' },
    requestId: `ledger-property-${apiKey.id}`,
  };
}

let worlds = 0;

/** A fresh organization with the four wallets of the model (see payments-model.ts) and two keys. */
async function newWorld(app: Container): Promise<World> {
  const created = await app.services.organizations.create(operator, AUDIT.organization.create, {
    name: `Ledger property ${++worlds}`,
  });
  const requester = await contextOf(app, created.sandboxKey);
  const approverKey = await app.services.apiKeys.create(requester, AUDIT.apiKey.create, {
    name: 'Approver',
    permissions: [...ORGANIZATION_PERMISSIONS],
  });
  const approver = await contextOf(app, approverKey.raw);
  const walletIds = [created.mainWalletId];
  for (const name of WALLET_NAMES.slice(1))
    walletIds.push((await app.services.wallets.create(requester, AUDIT.wallet.create, { name })).id);
  await app.services.policies.create(requester, AUDIT.policy.create, {
    walletId: walletIds[THRESHOLD_WALLET]!,
    name: 'Approval above 50',
    maxTransactionAmount: POLICY_MAX_TRANSACTION,
    requireHumanApproval: false,
    approvalThreshold: centsToAmount(APPROVAL_THRESHOLD_CENTS),
  });
  await app.services.policies.create(requester, AUDIT.policy.create, {
    walletId: walletIds[APPROVAL_WALLET]!,
    name: 'Human approval',
    maxTransactionAmount: POLICY_MAX_TRANSACTION,
    requireHumanApproval: true,
  });
  return { walletIds, requester, approver };
}

async function observe(call: () => Promise<Observed>): Promise<Observed> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, error };
    throw error;
  }
}

function idOf<T extends { id?: string }>(item: T, what: string): string {
  if (!item.id) throw new Error(`${what} has no id yet (the step that created it did not answer as predicted)`);
  return item.id;
}

/** Runs the resolved action against the services. */
async function execute(app: Container, world: World, model: LedgerModel, expected: Expected): Promise<Observed> {
  const { action } = expected;
  const s = app.services;
  switch (action.kind) {
    case 'none':
      return { code: 'NONE' };
    case 'fund':
      return observe(async () => {
        const result = await s.wallets.fund(
          world.requester,
          AUDIT.wallet.fund,
          world.walletIds[action.wallet]!,
          centsToAmount(action.cents),
        );
        return { code: 'FUNDED', fund: result };
      });
    case 'pay':
      return observe(async () => {
        const response = await s.payments.create(world.requester, AUDIT.payment.create, {
          from: world.walletIds[action.from]!,
          to: world.walletIds[action.to]!,
          amount: centsToAmount(action.cents),
        });
        const body = response.body as Record<string, unknown> & { error?: { code: string } };
        if (response.status === 200) return { code: String(body.status), body };
        if (response.status === 202) return { code: body.error?.code ?? 'HTTP_202', body };
        return { code: `HTTP_${response.status}`, body };
      });
    case 'reverse': {
      const original = model.payments[action.paymentRef]!;
      return observe(async () => {
        const response = await s.payments.reverse(
          world.requester,
          AUDIT.payment.reverse,
          idOf(original, `p${original.ref}`),
          undefined,
        );
        const body = response.body as Record<string, unknown>;
        return { code: response.status === 200 ? 'REVERSED' : `HTTP_${response.status}`, body };
      });
    }
    case 'approve':
    case 'reject': {
      const approval = model.approvals[action.approvalRef]!;
      const ctx = action.asRequester ? world.requester : world.approver;
      return observe(async () => {
        const id = idOf(approval, `a${approval.ref}`);
        const decided =
          action.kind === 'approve'
            ? await s.approvals.approve(ctx, AUDIT.approval.approve, id, undefined)
            : await s.approvals.reject(ctx, AUDIT.approval.reject, id, 'property test');
        return { code: decided.status, approval: decided };
      });
    }
  }
}

/** Checks the answer's details and records the ids the services assigned. */
function checkAnswer(
  world: World,
  model: LedgerModel,
  expected: Expected,
  observed: Observed,
  where: () => string,
): void {
  const { action } = expected;
  if (action.kind === 'fund') {
    expect(observed.fund?.amount, where()).toBe(centsToAmount(action.cents));
    expect(observed.fund?.newBalance, where()).toBe(centsToBalance(model.balances[action.wallet]!));
  }
  if (expected.newPaymentRef !== undefined) {
    const payment = model.payments[expected.newPaymentRef]!;
    const body = observed.body ?? {};
    if (expected.code === 'APPROVAL_REQUIRED') {
      const details = (body.error as { details: { approvalId: string; transactionId: string } }).details;
      payment.id = details.transactionId;
      model.approvals[expected.newApprovalRef!]!.id = details.approvalId;
    } else {
      expect(
        { type: body.type, from: body.from, to: body.to, amount: body.amount, status: body.status },
        where(),
      ).toEqual({
        type: payment.type,
        from: world.walletIds[payment.from],
        to: world.walletIds[payment.to],
        amount: centsToAmount(payment.cents),
        status: 'POSTED',
      });
      payment.id = String(body.id);
      if (payment.reversalOf !== undefined)
        expect(body.reversalOf, where()).toBe(model.payments[payment.reversalOf]!.id);
    }
  }
  if (observed.approval) {
    const approval = model.approvals[(action as { approvalRef: number }).approvalRef]!;
    expect({ status: observed.approval.status, failureCode: observed.approval.failureCode }, where()).toEqual({
      status: approval.status,
      failureCode: approval.failureCode,
    });
  }
}

async function checkPayment(
  app: Container,
  world: World,
  model: LedgerModel,
  payment: ModelPayment,
  where: () => string,
): Promise<void> {
  const stored = await app.services.payments.get(world.requester, idOf(payment, `p${payment.ref}`));
  const ref = (r: number | undefined) => (r === undefined ? undefined : model.payments[r]!.id);
  expect(
    {
      ref: `p${payment.ref}`,
      type: stored.type,
      status: stored.status,
      amount: stored.amount,
      from: stored.from,
      to: stored.to,
      failureCode: stored.failureCode,
      reversedBy: stored.reversedBy,
      reversalOf: stored.reversalOf,
    },
    where(),
  ).toEqual({
    ref: `p${payment.ref}`,
    type: payment.type,
    status: payment.status,
    amount: centsToAmount(payment.cents),
    from: world.walletIds[payment.from],
    to: world.walletIds[payment.to],
    failureCode: payment.failureCode,
    reversedBy: ref(payment.reversedBy),
    reversalOf: ref(payment.reversalOf),
  });
}

async function checkApproval(
  app: Container,
  world: World,
  model: LedgerModel,
  approval: ModelApproval,
  where: () => string,
): Promise<void> {
  const stored = await app.services.approvals.get(world.requester, idOf(approval, `a${approval.ref}`));
  const payment = model.payments[approval.paymentRef]!;
  expect(
    {
      ref: `a${approval.ref}`,
      status: stored.status,
      failureCode: stored.failureCode,
      transactionId: stored.transactionId,
      amount: stored.payment.amount,
    },
    where(),
  ).toEqual({
    ref: `a${approval.ref}`,
    status: approval.status,
    failureCode: approval.failureCode,
    transactionId: payment.id,
    amount: centsToAmount(payment.cents),
  });
}

/** Every wallet balance equals the model, and the whole table passes the ledger check. */
async function checkBalancesAndLedger(
  app: Container,
  table: Table,
  world: World,
  model: LedgerModel,
  where: () => string,
  scanLedger = true,
): Promise<void> {
  const wallets = await Promise.all(world.walletIds.map((id) => app.services.wallets.get(world.requester, id)));
  const actual = Object.fromEntries(wallets.map((w, i) => [WALLET_NAMES[i], w.balance.toFixed(8)]));
  const predicted = Object.fromEntries(model.balances.map((cents, i) => [WALLET_NAMES[i], centsToBalance(cents)]));
  expect(actual, where()).toEqual(predicted);
  if (!scanLedger) return;
  const report = await checkLedger(table.client, table.tableName);
  expect(report.problems, where()).toEqual([]);
}

async function runSequence(app: Container, table: Table, commands: Command[]): Promise<void> {
  const world = await newWorld(app);
  const model = new LedgerModel();
  const log: string[] = [];
  const where = () =>
    `after steps:\n  ${log.join('\n  ')}\nmodel balances: ${model.balances.map((c, i) => `${WALLET_NAMES[i]}=${centsToAmount(c)}`).join(' ')}`;

  for (const [index, command] of commands.entries()) {
    const expected = model.step(command);
    if (expected.action.kind === 'none') continue;
    const observed = await execute(app, world, model, expected);
    log.push(
      `#${index} ${describeAction(expected.action, model)} => expected ${expected.code}, got ${observed.code}${observed.error ? ` (${observed.error.message})` : ''}`,
    );
    expect(observed.code, where()).toBe(expected.code);
    if (STATS)
      STATS[`${expected.action.kind}:${expected.code}`] = (STATS[`${expected.action.kind}:${expected.code}`] ?? 0) + 1;
    checkAnswer(world, model, expected, observed, where);
    for (const ref of expected.touchedPayments) await checkPayment(app, world, model, model.payments[ref]!, where);
    for (const ref of expected.touchedApprovals) await checkApproval(app, world, model, model.approvals[ref]!, where);
    await checkBalancesAndLedger(app, table, world, model, where, (index + 1) % CHECK_EVERY === 0);
  }
  await checkBalancesAndLedger(app, table, world, model, where);

  // At the end, every payment and approval of the run once more (earlier steps may not touch them again).
  for (const payment of model.payments) await checkPayment(app, world, model, payment, where);
  for (const approval of model.approvals) await checkApproval(app, world, model, approval, where);
}

describe('ledger model property (DynamoDB Local)', () => {
  let table: Table;
  let app: Container;
  beforeAll(async () => {
    table = await createTestTable();
    app = createContainer(loadConfig({ TABLE_NAME: table.tableName, DYNAMODB_ENDPOINT: table.endpoint }), { table });
  });

  it(
    'keeps every balance equal to the model and the ledger balanced over random fund/pay/reverse/approve/reject sequences',
    async () => {
      await fc.assert(
        fc.asyncProperty(commandsArbitrary(MAX_STEPS), (commands) => runSequence(app, table, commands)),
        {
          numRuns: NUM_RUNS,
          interruptAfterTimeLimit: TIME_LIMIT_MS,
          markInterruptAsFailure: true,
          ...(SEED === undefined ? {} : { seed: SEED }),
          ...(PATH === undefined ? {} : { path: PATH }),
        },
      );
      if (STATS) console.log(JSON.stringify(STATS));
    },
    TIME_LIMIT_MS + 60_000,
  );
});
