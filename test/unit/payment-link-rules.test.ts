import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/domain/errors.js';
import { linkPolicyOutcome } from '../../shared/domain/payment-links/payment-link-policy.js';
import {
  assertDestinationMatches,
  assertRecipientAllowed,
  claimableStatusOf,
  expiresAtOf,
  linkFeeOf,
  newPaymentLinkSlug,
  normalizedRestrictions,
  railDestinationOf,
} from '../../shared/domain/payment-links/payment-link-rules.js';
import type { Policy } from '../../shared/domain/policies/policy-types.js';
import { walletOf } from '../contracts/money-fixtures.js';

const NOW = new Date('2026-11-27T10:00:00.000Z');
const DAY = 24 * 3600_000;

function codeOf(run: () => unknown): string | { code: string; field?: unknown } {
  try {
    run();
    return 'OK';
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const field = (error.details as { field?: unknown } | undefined)?.field;
    return field === undefined ? { code: error.code } : { code: error.code, field };
  }
}

describe('payment link rules', () => {
  it('reserves a withdrawal fee: 0.5 % half-up to the cent, at least 0.25', () => {
    expect(linkFeeOf(new Big('1.00')).toFixed(2)).toBe('0.25');
    expect(linkFeeOf(new Big('50.00')).toFixed(2)).toBe('0.25');
    expect(linkFeeOf(new Big('51.00')).toFixed(2)).toBe('0.26'); // 0.255 half-up
    expect(linkFeeOf(new Big('1000.00')).toFixed(2)).toBe('5.00');
  });

  it('makes slugs of 22 base62 characters, each new', () => {
    const slugs = new Set(Array.from({ length: 50 }, newPaymentLinkSlug));
    expect(slugs.size).toBe(50);
    for (const slug of slugs) expect(slug).toMatch(/^[A-Za-z0-9]{22}$/);
  });

  it('defaults expiresAt to 30 days; refuses the past, now and beyond 90 days (VALIDATION_ERROR expiresAt)', () => {
    expect(expiresAtOf(undefined, NOW)).toBe(new Date(NOW.getTime() + 30 * DAY).toISOString());
    expect(expiresAtOf('2026-11-27T11:00:00+01:00', new Date('2026-11-27T09:59:00Z'))).toBe('2026-11-27T10:00:00.000Z');
    expect(expiresAtOf(new Date(NOW.getTime() + 90 * DAY).toISOString(), NOW)).toBe(
      new Date(NOW.getTime() + 90 * DAY).toISOString(),
    );
    for (const given of [
      NOW.toISOString(),
      '2026-11-26T10:00:00Z',
      new Date(NOW.getTime() + 90 * DAY + 1).toISOString(),
    ])
      expect(codeOf(() => expiresAtOf(given, NOW))).toEqual({ code: 'VALIDATION_ERROR', field: 'expiresAt' });
  });

  it('stores restrictions lower-cased and deduplicated; none when both lists are empty', () => {
    expect(
      normalizedRestrictions({ emails: ['Jane@Example.com', 'jane@example.COM'], walletIds: ['wal_a', 'wal_a'] }),
    ).toEqual({
      emails: ['jane@example.com'],
      walletIds: ['wal_a'],
    });
    expect(normalizedRestrictions({ emails: [], walletIds: [] })).toBeUndefined();
    expect(normalizedRestrictions(undefined)).toBeUndefined();
  });

  it('lets a claim through an unrestricted link, a named wallet (wallet claims only) or a named email', () => {
    const open = { recipientRestrictions: undefined };
    const named = { recipientRestrictions: { emails: ['jane@example.com'], walletIds: ['wal_named'] } };
    const check = (link: typeof open | typeof named, claim: Parameters<typeof assertRecipientAllowed>[1]) =>
      codeOf(() => assertRecipientAllowed(link, claim));
    expect(check(open, { method: 'ach' })).toBe('OK');
    expect(check(named, { method: 'wallet', walletId: 'wal_named' })).toBe('OK');
    expect(check(named, { method: 'ach', recipientEmail: 'JANE@example.com' })).toBe('OK');
    expect(check(named, { method: 'wallet', walletId: 'wal_other' })).toEqual({ code: 'RECIPIENT_NOT_ALLOWED' });
    expect(check(named, { method: 'usdc', walletId: 'wal_named' })).toEqual({ code: 'RECIPIENT_NOT_ALLOWED' });
    expect(check(named, { method: 'ach', recipientEmail: 'john@example.com' })).toEqual({
      code: 'RECIPIENT_NOT_ALLOWED',
    });
  });

  it('checks the destination: its type matches the method, bank numbers and USDC addresses are valid', () => {
    expect(
      codeOf(() => assertDestinationMatches('wallet', { type: 'ACH', routingNumber: '1', accountNumber: '1' })),
    ).toEqual({
      code: 'VALIDATION_ERROR',
      field: 'destination.type',
    });
    expect(
      railDestinationOf({ type: 'ACH', routingNumber: '021000021', accountNumber: '000123456789', accountName: 'J' }),
    ).toEqual({ type: 'ACH', routingNumber: '021000021', accountNumber: '000123456789', accountName: 'J' });
    expect(codeOf(() => railDestinationOf({ type: 'ACH', routingNumber: '021000022', accountNumber: '1234' }))).toEqual(
      {
        code: 'VALIDATION_ERROR',
        field: 'destination.routingNumber',
      },
    );
    expect(codeOf(() => railDestinationOf({ type: 'ACH', routingNumber: '021000021', accountNumber: '123' }))).toEqual({
      code: 'VALIDATION_ERROR',
      field: 'destination.accountNumber',
    });
    expect(railDestinationOf({ type: 'USDC', address: '0x52908400098527886E0F7030069857D2E4169EE7' })).toEqual({
      type: 'USDC',
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      chain: 'Ethereum',
    });
    expect(codeOf(() => railDestinationOf({ type: 'USDC', address: '0x1234' }))).toEqual({
      code: 'VALIDATION_ERROR',
      field: 'destination.address',
    });
    expect(codeOf(() => railDestinationOf({ type: 'USDC', address: '0x1234', chain: 'Dogecoin' }))).toEqual({
      code: 'VALIDATION_ERROR',
      field: 'destination.chain',
    });
  });

  it('shows a claimant EXPIRED once expiresAt has passed, before the schedule fires', () => {
    const link = { expiresAt: NOW.toISOString() };
    expect(claimableStatusOf({ ...link, status: 'ACTIVE' }, new Date(NOW.getTime() - 1))).toBe('ACTIVE');
    expect(claimableStatusOf({ ...link, status: 'ACTIVE' }, NOW)).toBe('EXPIRED');
    expect(claimableStatusOf({ ...link, status: 'PENDING_APPROVAL' }, NOW)).toBe('EXPIRED');
    expect(claimableStatusOf({ ...link, status: 'SETTLED' }, NOW)).toBe('SETTLED');
  });
});

describe('payment link policies at creation', () => {
  const scope = { organizationId: 'org_policy', environment: 'SANDBOX' as const };
  const wallet = { ...walletOf(scope, '1000.00'), id: 'wal_funding' };
  const policy = (overrides: Partial<Policy>): Policy => ({
    id: 'pol_1',
    walletId: wallet.id,
    ...scope,
    name: 'Agent policy',
    maxTransactionAmount: new Big('500.00'),
    requireHumanApproval: false,
    status: 'ACTIVE',
    createdAt: NOW.toISOString(),
    updatedAt: NOW.toISOString(),
    ...overrides,
  });
  const outcome = (policies: Policy[], walletIds: string[] = [], total = '10.25') =>
    codeOf(() =>
      linkPolicyOutcome(
        { wallet, policies, counters: [] },
        walletIds.length ? { emails: [], walletIds } : undefined,
        new Big(total),
        NOW,
      ),
    );

  it('counts amount + fee against the per-transaction maximum and the period limits', () => {
    expect(outcome([policy({ maxTransactionAmount: new Big('10.25') })])).toBe('OK');
    expect(outcome([policy({ maxTransactionAmount: new Big('10.24') })])).toEqual({ code: 'POLICY_DENIED' });
    expect(outcome([policy({ dailyLimit: new Big('10.00') })])).toEqual({ code: 'POLICY_DENIED' });
    const counted = linkPolicyOutcome(
      { wallet, policies: [policy({ dailyLimit: new Big('20.00') })], counters: [] },
      undefined,
      new Big('10.25'),
      NOW,
    );
    expect(counted.spend.amount.toFixed(2)).toBe('10.25');
    expect(counted.spend.periods.find((period) => period.period === 'DAY')?.limit?.toFixed(2)).toBe('20.00');
  });

  it('refuses a link that names no wallet where a policy lists recipients, and checks each named wallet', () => {
    const allowing = policy({ allowedRecipients: ['wal_ok'] });
    expect(outcome([allowing])).toEqual({ code: 'POLICY_DENIED' });
    expect(outcome([policy({ blockedRecipients: ['wal_bad'] })])).toEqual({ code: 'POLICY_DENIED' });
    expect(outcome([allowing], ['wal_ok'])).toBe('OK');
    expect(outcome([allowing], ['wal_ok', 'wal_other'])).toEqual({ code: 'POLICY_DENIED' });
    expect(outcome([policy({ blockedRecipients: ['wal_bad'] })], ['wal_fine', 'wal_bad'])).toEqual({
      code: 'POLICY_DENIED',
    });
  });

  it('refuses a link naming an email beside its wallets where a policy lists recipients (an email claims anywhere)', () => {
    const withEmail = (policies: Policy[]) =>
      codeOf(() =>
        linkPolicyOutcome(
          { wallet, policies, counters: [] },
          { emails: ['anyone@example.com'], walletIds: ['wal_ok'] },
          new Big('10.25'),
          NOW,
        ),
      );
    expect(withEmail([policy({ allowedRecipients: ['wal_ok'] })])).toEqual({ code: 'POLICY_DENIED' });
    expect(withEmail([policy({ blockedRecipients: ['wal_bad'] })])).toEqual({ code: 'POLICY_DENIED' });
    expect(withEmail([policy({ allowedRecipients: ['wal_ok'], status: 'DELETED' })])).toBe('OK');
    expect(withEmail([policy({})])).toBe('OK');
  });

  it('asks for approval when a policy requires it (or above its threshold)', () => {
    const run = (policies: Policy[]) =>
      linkPolicyOutcome({ wallet, policies, counters: [] }, undefined, new Big('10.25'), NOW).approvalReason;
    expect(run([policy({ requireHumanApproval: true })])).toBe('requireHumanApproval');
    expect(run([policy({ approvalThreshold: new Big('10.00') })])).toBe('approvalThreshold');
    expect(run([policy({ approvalThreshold: new Big('10.25') })])).toBeUndefined();
    expect(run([policy({ status: 'DELETED', requireHumanApproval: true })])).toBeUndefined();
  });
});
