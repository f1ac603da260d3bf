import { randomBytes } from 'node:crypto';
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { accessibleBankAccount } from '../../shared/domain/bank-accounts/access.js';
import { BANK_ACCOUNT_STATES } from '../../shared/domain/bank-accounts/bank-account-states.js';
import {
  isValidAccountNumber,
  isValidRoutingNumber,
  MAX_VERIFICATION_ATTEMPTS,
  microDepositsFor,
  microDepositsMatch,
} from '../../shared/domain/bank-accounts/bank-account-rules.js';
import { createBankAccountService } from '../../shared/domain/bank-accounts/bank-account-service.js';
import { presentBankAccount } from '../../shared/domain/bank-accounts/bank-account-view.js';
import { sealingContexts } from '../../shared/domain/bank-accounts/types.js';
import { fixedClock } from '../../shared/domain/clock.js';
import { ApiError } from '../../shared/domain/errors.js';
import { newId } from '../../shared/domain/ids.js';
import { canTransition } from '../../shared/domain/state-table.js';
import { ORGANIZATION_PERMISSIONS, type Environment, type RequestContext } from '../../shared/domain/tenancy.js';
import { localSealer } from '../../shared/sealing/local-sealer.js';
import { memoryBankAccountStore } from '../fakes/memory-bank-account-store.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';

const ACCOUNT_NUMBER = '000123456789';
const input = {
  routingNumber: '011000015',
  accountNumber: ACCOUNT_NUMBER,
  accountName: 'Acme Operating',
  accountType: 'CHECKING' as const,
};

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

function world() {
  const memory = memoryBankAccountStore();
  const sealer = localSealer(randomBytes(32).toString('hex'));
  const clock = fixedClock(new Date('2026-11-22T10:00:00.000Z'));
  const service = createBankAccountService({ store: memory.store, clock, ids: newId, sealer, randomCents: () => 7 });
  return { memory, sealer, clock, service, ctx: ctxOf('org_1') };
}

const codeOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return 'OK';
  } catch (error) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
};

describe('ABA routing numbers', () => {
  it.each(['011000015', '021000021', '026009593', '121000358', '111000025', '322271627'])(
    'accepts %s (valid checksum)',
    (routing) => {
      expect(isValidRoutingNumber(routing)).toBe(true);
    },
  );

  it.each([
    ['011000016', 'last digit off by one'],
    ['021000012', 'two digits swapped'],
    ['123456789', 'checksum 3(1+4+7)+7(2+5+8)+(3+6+9) = 153'],
    ['12345678', 'eight digits'],
    ['0110000150', 'ten digits'],
    ['01100001a', 'a letter'],
    [' 11000015', 'a space'],
    ['０11000015', 'a full-width digit'],
    ['', 'empty'],
  ])('refuses %s (%s)', (routing) => {
    expect(isValidRoutingNumber(routing)).toBe(false);
  });

  it('catches every single-digit change of a valid number', () => {
    const valid = '021000021';
    for (let i = 0; i < 9; i += 1) {
      for (let d = 0; d <= 9; d += 1) {
        if (String(d) === valid[i]) continue;
        expect(isValidRoutingNumber(valid.slice(0, i) + d + valid.slice(i + 1)), `${i}:${d}`).toBe(false);
      }
    }
  });
});

describe('bank account rules', () => {
  it('takes account numbers of 4 to 17 digits only', () => {
    for (const ok of ['1234', '00001234', '12345678901234567']) expect(isValidAccountNumber(ok)).toBe(true);
    for (const bad of ['123', '123456789012345678', '1234-5678', '12 34', ''])
      expect(isValidAccountNumber(bad)).toBe(false);
  });

  it('sends 0.32 and 0.45 in the sandbox, and random cents elsewhere', () => {
    expect(microDepositsFor('SANDBOX', () => 1)).toEqual(['0.32', '0.45']);
    expect(microDepositsFor('PRODUCTION', () => 7)).toEqual(['0.07', '0.07']);
  });

  it('compares micro-deposits as money, in any order', () => {
    const answer = (...amounts: string[]) => amounts.map((a) => new Big(a));
    expect(microDepositsMatch(['0.32', '0.45'], answer('0.45', '0.32'))).toBe(true);
    expect(microDepositsMatch(['0.32', '0.45'], answer('0.320', '0.45'))).toBe(true);
    expect(microDepositsMatch(['0.32', '0.45'], answer('0.32', '0.32'))).toBe(false);
    expect(microDepositsMatch(['0.32', '0.45'], answer('0.32'))).toBe(false);
  });

  it('declares the transitions: pending verifies or fails; anything live is deleted; nothing leaves DELETED', () => {
    expect(canTransition(BANK_ACCOUNT_STATES, 'PENDING_VERIFICATION', 'verify')).toBe(true);
    expect(canTransition(BANK_ACCOUNT_STATES, 'VERIFIED', 'verify')).toBe(false);
    expect(canTransition(BANK_ACCOUNT_STATES, 'VERIFICATION_FAILED', 'verify')).toBe(false);
    expect(canTransition(BANK_ACCOUNT_STATES, 'PENDING_VERIFICATION', 'failVerification')).toBe(true);
    for (const state of ['PENDING_VERIFICATION', 'VERIFIED', 'VERIFICATION_FAILED'] as const)
      expect(canTransition(BANK_ACCOUNT_STATES, state, 'delete')).toBe(true);
    for (const trigger of ['verify', 'failVerification', 'delete'] as const)
      expect(canTransition(BANK_ACCOUNT_STATES, 'DELETED', trigger)).toBe(false);
  });
});

describe('bank account service', () => {
  it('links an account PENDING_VERIFICATION with last4 and the number sealed under the account id only', async () => {
    const { service, memory, sealer, ctx } = world();
    const account = await service.create(ctx, AUDIT.bankAccount.create, input);
    expect(account).toMatchObject({
      status: 'PENDING_VERIFICATION',
      last4: '6789',
      routingNumber: '011000015',
      failedVerificationAttempts: 0,
      verifiedAt: null,
    });
    expect(account.id).toMatch(/^ba_/);
    const stored = memory.accounts.get(account.id)!;
    expect(JSON.stringify(stored)).not.toContain(ACCOUNT_NUMBER);
    expect(await sealer.open(stored.accountNumberSealed, sealingContexts.accountNumber(account.id))).toBe(
      ACCOUNT_NUMBER,
    );
    await expect(sealer.open(stored.accountNumberSealed, sealingContexts.microDeposits(account.id))).rejects.toThrow();
    expect(
      JSON.parse(await sealer.open(stored.microDepositsSealed!, sealingContexts.microDeposits(account.id))),
    ).toEqual(['0.32', '0.45']);
    expect(memory.audit.map((entry) => entry.action)).toEqual(['bank-account.create']);
    expect(JSON.stringify(memory.audit)).not.toContain(ACCOUNT_NUMBER);
    expect(JSON.stringify(presentBankAccount(account))).not.toContain(ACCOUNT_NUMBER);
    expect(Object.keys(presentBankAccount(account))).not.toContain('accountNumberSealed');
  });

  it('refuses a routing number with a bad checksum and a malformed account number, naming the field', async () => {
    const { service, ctx } = world();
    await expect(
      service.create(ctx, AUDIT.bankAccount.create, { ...input, routingNumber: '011000016' }),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'routingNumber' } });
    const refused = await service
      .create(ctx, AUDIT.bankAccount.create, { ...input, accountNumber: `${ACCOUNT_NUMBER}x` })
      .catch((error: ApiError) => error);
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'accountNumber' } });
    expect(
      JSON.stringify({ message: (refused as ApiError).message, details: (refused as ApiError).details }),
    ).not.toContain(ACCOUNT_NUMBER);
  });

  it('verifies with the right amounts in any order, and forgets the micro-deposits', async () => {
    const { service, memory, ctx } = world();
    const { id } = await service.create(ctx, AUDIT.bankAccount.create, input);
    const verified = await service.verify(ctx, AUDIT.bankAccount.verify, id, ['0.45', '0.32']);
    expect(verified).toMatchObject({ status: 'VERIFIED', verifiedAt: '2026-11-22T10:00:00.000Z' });
    expect(memory.accounts.get(id)).toMatchObject({ status: 'VERIFIED', microDepositsSealed: null });
    expect(await codeOf(service.verify(ctx, AUDIT.bankAccount.verify, id, ['0.32', '0.45']))).toBe('INVALID_STATE');
  });

  it('counts wrong answers and fails the account on the third, then answers INVALID_STATE', async () => {
    const { service, memory, ctx } = world();
    const { id } = await service.create(ctx, AUDIT.bankAccount.create, input);
    const remaining: unknown[] = [];
    for (let i = 0; i < MAX_VERIFICATION_ATTEMPTS; i += 1) {
      const error = await service.verify(ctx, AUDIT.bankAccount.verify, id, ['0.12', '0.34']).catch((e: ApiError) => e);
      expect(error).toMatchObject({ code: 'BANK_ACCOUNT_VERIFICATION_FAILED' });
      remaining.push((error as ApiError).details?.attemptsRemaining);
    }
    expect(remaining).toEqual([2, 1, 0]);
    expect(memory.accounts.get(id)).toMatchObject({ status: 'VERIFICATION_FAILED', failedVerificationAttempts: 3 });
    expect(await codeOf(service.verify(ctx, AUDIT.bankAccount.verify, id, ['0.32', '0.45']))).toBe('INVALID_STATE');
    expect(memory.audit.map((entry) => entry.action)).toEqual([
      'bank-account.create',
      ...Array(3).fill('bank-account.verification-failed'),
    ]);
    expect(memory.audit.at(-1)!.metadata).toEqual({ attempt: 3, attemptsRemaining: 0, status: 'VERIFICATION_FAILED' });
  });

  it('counts a wrong answer after one that raced it (read again), never both as the same attempt', async () => {
    const { service, memory, ctx } = world();
    const { id } = await service.create(ctx, AUDIT.bankAccount.create, input);
    // Between this answer's read and its write another wrong answer is counted.
    memory.interleave(() => {
      const account = memory.accounts.get(id)!;
      memory.accounts.set(id, { ...account, failedVerificationAttempts: account.failedVerificationAttempts + 1 });
    });
    const error = await service.verify(ctx, AUDIT.bankAccount.verify, id, ['0.01', '0.02']).catch((e: ApiError) => e);
    expect(error).toMatchObject({ code: 'BANK_ACCOUNT_VERIFICATION_FAILED', details: { attemptsRemaining: 1 } });
    expect(memory.accounts.get(id)!.failedVerificationAttempts).toBe(2);
  });

  it('parses amounts as money before looking the account up', async () => {
    const { service, ctx } = world();
    await expect(service.verify(ctx, AUDIT.bankAccount.verify, 'ba_unknown', ['0.32', 'abc'])).rejects.toMatchObject({
      code: 'INVALID_AMOUNT',
      details: { field: 'amounts.1' },
    });
    await expect(service.verify(ctx, AUDIT.bankAccount.verify, 'ba_unknown', ['0.32', '0.451'])).rejects.toMatchObject({
      code: 'INVALID_AMOUNT',
    });
    // A JSON number is read through its shortest decimal text (decisions.md section 2).
    const { id } = await service.create(ctx, AUDIT.bankAccount.create, input);
    expect((await service.verify(ctx, AUDIT.bankAccount.verify, id, [0.45, 0.32])).status).toBe('VERIFIED');
    expect(await codeOf(service.verify(ctx, AUDIT.bankAccount.verify, 'ba_unknown', ['0.32', '0.45']))).toBe(
      'BANK_ACCOUNT_NOT_FOUND',
    );
  });

  it("hides other organizations' accounts, answers ENVIRONMENT_MISMATCH for its own other environment, 404 once deleted", async () => {
    const { service, ctx } = world();
    const { id } = await service.create(ctx, AUDIT.bankAccount.create, input);
    expect(await codeOf(service.get(ctxOf('org_2'), id))).toBe('BANK_ACCOUNT_NOT_FOUND');
    expect(await codeOf(service.get(ctxOf('org_1', 'PRODUCTION'), id))).toBe('ENVIRONMENT_MISMATCH');
    expect(await codeOf(service.remove(ctxOf('org_2'), AUDIT.bankAccount.delete, id))).toBe('BANK_ACCOUNT_NOT_FOUND');
    const removed = await service.remove(ctx, AUDIT.bankAccount.delete, id);
    expect(removed.status).toBe('DELETED');
    expect(await codeOf(service.get(ctx, id))).toBe('BANK_ACCOUNT_NOT_FOUND');
    expect(await codeOf(service.remove(ctx, AUDIT.bankAccount.delete, id))).toBe('BANK_ACCOUNT_NOT_FOUND');
    expect(await codeOf(service.verify(ctx, AUDIT.bankAccount.verify, id, ['0.32', '0.45']))).toBe(
      'BANK_ACCOUNT_NOT_FOUND',
    );
    expect((await service.list(ctx, { limit: 10 })).items).toEqual([]);
  });

  it("lists the organization environment's accounts, newest first", async () => {
    const { service, clock, ctx } = world();
    const first = await service.create(ctx, AUDIT.bankAccount.create, input);
    clock.advance(1000);
    const second = await service.create(ctx, AUDIT.bankAccount.create, { ...input, accountType: 'SAVINGS' });
    await service.create(ctxOf('org_2'), AUDIT.bankAccount.create, input);
    expect((await service.list(ctx, { limit: 10 })).items.map((a) => a.id)).toEqual([second.id, first.id]);
  });

  it('accessibleBankAccount: absent, deleted or foreign -> 404 (with the field), other environment -> 403', () => {
    const scope = { organizationId: 'org_1', environment: 'SANDBOX' as const };
    const base = {
      id: 'ba_1',
      organizationId: 'org_1',
      environment: 'SANDBOX' as const,
      accountName: 'A',
      accountType: 'CHECKING' as const,
      routingNumber: '011000015',
      last4: '6789',
      accountNumberSealed: 'x',
      microDepositsSealed: null,
      status: 'VERIFIED' as const,
      failedVerificationAttempts: 0,
      createdAt: 'now',
      verifiedAt: null,
      deletedAt: null,
    };
    expect(accessibleBankAccount(scope, base, 'ba_1')).toBe(base);
    expect(() => accessibleBankAccount(scope, undefined, 'ba_9', 'bankAccountId')).toThrow(
      expect.objectContaining({
        code: 'BANK_ACCOUNT_NOT_FOUND',
        message: 'No bank account with id ba_9 was found.',
        details: { field: 'bankAccountId' },
      }),
    );
    expect(() => accessibleBankAccount(scope, { ...base, status: 'DELETED' }, 'ba_1')).toThrow(
      expect.objectContaining({ code: 'BANK_ACCOUNT_NOT_FOUND', message: 'No bank account with id ba_1 was found.' }),
    );
    // Another organization's account answers as one that exists nowhere: the message names the id asked for.
    expect(() =>
      accessibleBankAccount(scope, { ...base, organizationId: 'org_2', environment: 'PRODUCTION' }, 'ba_1'),
    ).toThrow(
      expect.objectContaining({ code: 'BANK_ACCOUNT_NOT_FOUND', message: 'No bank account with id ba_1 was found.' }),
    );
    expect(() => accessibleBankAccount(scope, { ...base, environment: 'PRODUCTION' }, 'ba_1')).toThrow(
      expect.objectContaining({ code: 'ENVIRONMENT_MISMATCH' }),
    );
  });
});
