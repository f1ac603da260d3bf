import { randomBytes } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createBankAccountService,
  type BankAccountService,
} from '../../shared/domain/bank-accounts/bank-account-service.js';
import { MAX_VERIFICATION_ATTEMPTS } from '../../shared/domain/bank-accounts/bank-account-rules.js';
import { sealingContexts } from '../../shared/domain/bank-accounts/types.js';
import { systemClock } from '../../shared/domain/clock.js';
import { ApiError } from '../../shared/domain/errors.js';
import { newId } from '../../shared/domain/ids.js';
import { ORGANIZATION_PERMISSIONS, type Environment, type RequestContext } from '../../shared/domain/tenancy.js';
import { createBankAccountStore, readBankAccount } from '../../shared/persistence/bank-account-store.js';
import { bankAccountKeys } from '../../shared/persistence/entities/bank-account.js';
import { getItem, type TableContext } from '../../shared/persistence/table-context.js';
import type { Sealer } from '../../shared/domain/sealing.js';
import { localSealer } from '../../shared/sealing/local-sealer.js';
import { createTestTable } from '../fixtures/table.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';

const ACCOUNT_NUMBER = '987650004321';
const input = {
  routingNumber: '021000021',
  accountNumber: ACCOUNT_NUMBER,
  accountName: 'Acme Operating',
  accountType: 'CHECKING' as const,
};
const WRONG = ['0.11', '0.22'];

const ctxOf = (organizationId: string, environment: Environment = 'SANDBOX'): RequestContext => ({
  principal: {
    kind: 'ORGANIZATION',
    keyId: 'key_admin',
    organizationId,
    environment,
    permissions: [...ORGANIZATION_PERMISSIONS],
    walletId: null,
  },
  actor: { actorType: 'API_KEY', actorId: 'key_admin', ipAddress: '198.51.100.7' },
  requestId: 'req_1',
});

/** Every item of the (fresh) table, as stored. */
async function scanAll(table: TableContext) {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.client.send(
      new ScanCommand({ TableName: table.tableName, ...(startKey ? { ExclusiveStartKey: startKey } : {}) }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => 'VERIFIED',
    (error: unknown) => (error instanceof ApiError ? error.code : Promise.reject(error)),
  );

describe('bank accounts (DynamoDB Local)', () => {
  let table: TableContext;
  let sealer: Sealer;
  let service: BankAccountService;
  const ctx = ctxOf('org_bank');

  beforeAll(async () => {
    table = await createTestTable();
    sealer = localSealer(randomBytes(32).toString('hex'));
    service = createBankAccountService({
      store: createBankAccountStore(table),
      clock: systemClock,
      ids: newId,
      sealer,
      randomCents: () => 50,
    });
  });

  it('stores the account number only sealed: no item of the table holds it in clear', async () => {
    const account = await service.create(ctx, AUDIT.bankAccount.create, input);
    const item = (await getItem(table, bankAccountKeys.primary(account.id)))!;
    expect(item).toMatchObject({
      entityType: 'BANK_ACCOUNT',
      status: 'PENDING_VERIFICATION',
      last4: '4321',
      routingNumber: '021000021',
    });
    expect(JSON.stringify(item)).not.toContain(ACCOUNT_NUMBER);
    expect(await sealer.open(String(item.accountNumberSealed), sealingContexts.accountNumber(account.id))).toBe(
      ACCOUNT_NUMBER,
    );
    // The account item and its audit entry (with their index entries): nothing anywhere holds the number.
    const everything = JSON.stringify(await scanAll(table));
    expect(everything).toContain(account.id);
    expect(everything).not.toContain(ACCOUNT_NUMBER);
  });

  it('reads through readBankAccount for its organization only, never a deleted one', async () => {
    const account = await service.create(ctx, AUDIT.bankAccount.create, input);
    expect(
      await readBankAccount(table, { organizationId: 'org_bank', environment: 'SANDBOX' }, account.id),
    ).toMatchObject({
      id: account.id,
      status: 'PENDING_VERIFICATION',
      accountNumberSealed: expect.stringMatching(/^lk1\./),
    });
    // The other environment of the same organization is returned (the caller answers ENVIRONMENT_MISMATCH).
    expect(
      await readBankAccount(table, { organizationId: 'org_bank', environment: 'PRODUCTION' }, account.id),
    ).toMatchObject({ environment: 'SANDBOX' });
    expect(
      await readBankAccount(table, { organizationId: 'org_other', environment: 'SANDBOX' }, account.id),
    ).toBeUndefined();
    await service.remove(ctx, AUDIT.bankAccount.delete, account.id);
    expect(
      await readBankAccount(table, { organizationId: 'org_bank', environment: 'SANDBOX' }, account.id),
    ).toBeUndefined();
    const item = (await getItem(table, bankAccountKeys.primary(account.id)))!;
    expect(item).toMatchObject({ status: 'DELETED' });
    expect(item.accountNumberSealed).toBeUndefined();
    expect(item.microDepositsSealed).toBeUndefined();
    expect(item.GSI1PK).toBeUndefined();
  });

  it('fails the account on the third wrong answer and refuses the right one after it', async () => {
    const { id } = await service.create(ctx, AUDIT.bankAccount.create, input);
    const codes = [];
    for (let i = 0; i < MAX_VERIFICATION_ATTEMPTS; i += 1)
      codes.push(await outcome(service.verify(ctx, AUDIT.bankAccount.verify, id, WRONG)));
    expect(codes).toEqual(Array(3).fill('BANK_ACCOUNT_VERIFICATION_FAILED'));
    expect(await outcome(service.verify(ctx, AUDIT.bankAccount.verify, id, ['0.32', '0.45']))).toBe('INVALID_STATE');
    expect(await getItem(table, bankAccountKeys.primary(id))).toMatchObject({ status: 'VERIFICATION_FAILED' });
  });

  it('10 concurrent wrong answers: exactly 3 are counted and the account is VERIFICATION_FAILED', async () => {
    const { id } = await service.create(ctx, AUDIT.bankAccount.create, input);
    const codes = await Promise.all(
      Array.from({ length: 10 }, () => outcome(service.verify(ctx, AUDIT.bankAccount.verify, id, WRONG))),
    );
    expect(codes.filter((code) => code === 'BANK_ACCOUNT_VERIFICATION_FAILED')).toHaveLength(3);
    expect(codes.filter((code) => code === 'INVALID_STATE' || code === 'CONCURRENT_UPDATE')).toHaveLength(7);
    const item = (await getItem(table, bankAccountKeys.primary(id)))!;
    expect(item.status).toBe('VERIFICATION_FAILED');
    expect(Number(String(item.failedVerificationAttempts))).toBe(3);
  });

  it('a right answer racing wrong ones: either it verifies first, or three wrong ones fail the account first', async () => {
    const { id } = await service.create(ctx, AUDIT.bankAccount.create, input);
    const codes = await Promise.all([
      ...Array.from({ length: 6 }, () => outcome(service.verify(ctx, AUDIT.bankAccount.verify, id, WRONG))),
      outcome(service.verify(ctx, AUDIT.bankAccount.verify, id, ['0.45', '0.32'])),
    ]);
    const item = (await getItem(table, bankAccountKeys.primary(id)))!;
    const counted = Number(String(item.failedVerificationAttempts ?? 0));
    expect(counted).toBeLessThanOrEqual(3);
    if (item.status === 'VERIFIED') expect(codes.at(-1)).toBe('VERIFIED');
    else expect([item.status, counted, codes.at(-1)]).toEqual(['VERIFICATION_FAILED', 3, 'INVALID_STATE']);
  });

  describe('a burst of guesses (every pair of amounts at once)', () => {
    /** About 2 000 DynamoDB Local calls (each guess reads and writes up to 4 times): slow on a loaded machine. */
    const BURST_TIMEOUT_MS = 240_000;
    const RIGHT = ['0.32', '0.45'];
    const cents = Array.from({ length: 20 }, (_, i) => (0.3 + i / 100).toFixed(2));
    /** Every unordered pair of 0.30..0.49 (210 guesses), the right one last: sent all at once. */
    const burst = () => {
      const pairs = cents.flatMap((a, i) => cents.slice(i).map((b) => [a, b]));
      const wrong = pairs.filter(([a, b]) => !(a === RIGHT[0] && b === RIGHT[1]));
      return [...wrong, RIGHT];
    };

    it(
      'counts at most three wrong answers, never verifies once three are counted, and every answer told "wrong" was counted',
      { timeout: BURST_TIMEOUT_MS },
      async () => {
        const { id } = await service.create(ctx, AUDIT.bankAccount.create, input);
        const guesses = burst();
        expect(guesses.length).toBeGreaterThanOrEqual(200);

        const codes = await Promise.all(
          guesses.map((amounts) => outcome(service.verify(ctx, AUDIT.bankAccount.verify, id, amounts))),
        );

        const item = (await getItem(table, bankAccountKeys.primary(id)))!;
        const counted = Number(String(item.failedVerificationAttempts));
        const toldWrong = codes.filter((code) => code === 'BANK_ACCOUNT_VERIFICATION_FAILED').length;
        expect(counted).toBeLessThanOrEqual(MAX_VERIFICATION_ATTEMPTS);
        expect(toldWrong).toBe(counted);
        expect(
          codes.filter((code) => !['VERIFIED', 'BANK_ACCOUNT_VERIFICATION_FAILED', 'INVALID_STATE'].includes(code)),
        ).toEqual([]);
        if (counted === MAX_VERIFICATION_ATTEMPTS) expect(item.status).toBe('VERIFICATION_FAILED');
        if (item.status === 'VERIFIED')
          expect([counted < MAX_VERIFICATION_ATTEMPTS, codes.at(-1)]).toEqual([true, 'VERIFIED']);
        // Which answer wins the account is a race (the right one, sent last, rarely does now that it
        // competes for its turn like the wrong ones); the test below pins the condition that makes
        // every answer commit on the state it was decided on, whatever the order.
      },
    );

    it('refuses to mark an account verified over a stale count of wrong answers: the verify write carries the count it read', async () => {
      const store = createBankAccountStore(table);
      const { id } = await service.create(ctx, AUDIT.bankAccount.create, input);
      expect(await outcome(service.verify(ctx, AUDIT.bankAccount.verify, id, WRONG))).toBe(
        'BANK_ACCOUNT_VERIFICATION_FAILED',
      );

      // A right answer decided on a read from before that wrong answer was counted.
      const stale = store.commit([
        { type: 'verifyBankAccount', bankAccountId: id, failedAttempts: 0, verifiedAt: new Date().toISOString() },
      ]);
      await expect(stale).rejects.toMatchObject({ code: 'CONCURRENT_UPDATE' });
      const unchanged = (await getItem(table, bankAccountKeys.primary(id)))!;
      expect([unchanged.status, Number(String(unchanged.failedVerificationAttempts))]).toEqual([
        'PENDING_VERIFICATION',
        1,
      ]);

      // Decided again on the count it commits on, it verifies (within the limit).
      await store.commit([
        { type: 'verifyBankAccount', bankAccountId: id, failedAttempts: 1, verifiedAt: new Date().toISOString() },
      ]);
      expect((await getItem(table, bankAccountKeys.primary(id)))!.status).toBe('VERIFIED');
    });

    it('still verifies a right answer sent with two wrong ones at once (within the limit)', async () => {
      for (let round = 0; round < 5; round += 1) {
        const { id } = await service.create(ctx, AUDIT.bankAccount.create, input);

        const codes = await Promise.all([
          outcome(service.verify(ctx, AUDIT.bankAccount.verify, id, WRONG)),
          outcome(service.verify(ctx, AUDIT.bankAccount.verify, id, ['0.45', '0.32'])),
          outcome(service.verify(ctx, AUDIT.bankAccount.verify, id, ['0.33', '0.45'])),
        ]);

        expect(codes[1]).toBe('VERIFIED');
        const item = (await getItem(table, bankAccountKeys.primary(id)))!;
        expect(item.status).toBe('VERIFIED');
        expect(Number(String(item.failedVerificationAttempts))).toBe(
          codes.filter((code) => code === 'BANK_ACCOUNT_VERIFICATION_FAILED').length,
        );
      }
    });
  });

  it('lists the live accounts of the organization environment, newest first', async () => {
    const scoped = ctxOf('org_list');
    const first = await service.create(scoped, AUDIT.bankAccount.create, input);
    const second = await service.create(scoped, AUDIT.bankAccount.create, { ...input, accountType: 'SAVINGS' });
    const third = await service.create(scoped, AUDIT.bankAccount.create, input);
    await service.remove(scoped, AUDIT.bankAccount.delete, third.id);
    await service.create(ctxOf('org_list', 'PRODUCTION'), AUDIT.bankAccount.create, input);
    const page = await service.list(scoped, { limit: 10 });
    expect(page.items.map((account) => account.id)).toEqual([second.id, first.id]);
  });
});
