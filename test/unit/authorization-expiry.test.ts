import { describe, expect, it } from 'vitest';
import { AUTHORIZATION_EXPIRY_MS, authorizationExpiresAt } from '../../shared/domain/cards/authorization-engine.js';
import type { Authorization } from '../../shared/domain/cards/types.js';
import { cardAuthorizationCodec, cardAuthorizationKeys } from '../../shared/persistence/entities/card-authorization.js';

const AT = new Date('2026-11-25T10:00:00.000Z');

describe('authorization expiry', () => {
  it('is 7 days after the approval in production, whatever TIME_SCALE', () => {
    expect(AUTHORIZATION_EXPIRY_MS).toBe(7 * 24 * 3600_000);
    expect(authorizationExpiresAt('PRODUCTION', AT, 60)).toBe('2026-12-02T10:00:00.000Z');
    expect(authorizationExpiresAt('PRODUCTION', AT, 1_000_000_000)).toBe('2026-12-02T10:00:00.000Z');
  });

  it('is divided by TIME_SCALE in the sandbox, never less than 1 s', () => {
    expect(authorizationExpiresAt('SANDBOX', AT, 1)).toBe('2026-12-02T10:00:00.000Z');
    expect(authorizationExpiresAt('SANDBOX', AT, 60)).toBe(new Date(AT.getTime() + 10_080_000).toISOString());
    expect(authorizationExpiresAt('SANDBOX', AT, 1_000_000)).toBe('2026-11-25T10:00:01.000Z');
    expect(authorizationExpiresAt('SANDBOX', AT, Number.MAX_SAFE_INTEGER)).toBe('2026-11-25T10:00:01.000Z');
  });

  it('puts only an APPROVED authorization with an expiry on the expiry index (GSI4), sorted by expiresAt', () => {
    const base: Authorization = {
      id: 'auth_1',
      organizationId: 'org_1',
      environment: 'SANDBOX',
      cardId: 'card_1',
      walletId: 'wal_1',
      amount: '1.00',
      capturedAmount: '0.00',
      refundedAmount: '0.00',
      status: 'APPROVED',
      merchant: { name: 'M', category: '5734' },
      createdAt: AT.toISOString(),
    };
    const expiresAt = '2026-11-25T12:48:00.000Z';
    const approved = cardAuthorizationCodec.toItem({ ...base, holdId: 'txn_1', expiresAt });
    expect(approved).toMatchObject({ ...cardAuthorizationKeys.open('auth_1'), GSI4SK: `${expiresAt}#auth_1` });
    expect(cardAuthorizationKeys.openShards()).toContain(approved.GSI4PK);
    expect(cardAuthorizationCodec.toItem({ ...base, status: 'DECLINED', reason: 'card_inactive' })).not.toHaveProperty(
      'GSI4PK',
    );
    expect(cardAuthorizationCodec.toItem({ ...base, status: 'REVERSED', expiresAt })).not.toHaveProperty('GSI4PK');
    // Read back without the index attributes.
    expect(cardAuthorizationCodec.fromItem(approved)).not.toHaveProperty('GSI4PK');
    // Due strictly before now.
    expect(`${expiresAt}#auth_1` < cardAuthorizationKeys.dueBefore(new Date(expiresAt))).toBe(false);
    expect(`${expiresAt}#auth_1` < cardAuthorizationKeys.dueBefore(new Date(Date.parse(expiresAt) + 1))).toBe(true);
  });
});
