import { describe, expect, it } from 'vitest';
import { EMITTED_EVENT_NAMES, EVENT_DECLARATIONS } from '../../shared/domain/event-names.js';
import { walletsOfEvent } from '../../shared/domain/events/event-scope.js';
import { viewOf } from '../../shared/domain/view-registry.js';
import { exampleOf } from '../../shared/domain/views.js';

/**
 * The payload fields holding the wallets each event concerns, written here a second time on purpose
 * (each area declares them in its `<area>-events.ts`): a wallet-scoped key sees exactly these events
 * (the events API, GSI2/GSI3 of stored events).
 */
const WALLET_FIELDS: Record<string, readonly string[]> = {
  'deposit.initiated': ['walletId'],
  'deposit.completed': ['walletId'],
  'deposit.failed': ['walletId'],
  'deposit.cancelled': ['walletId'],
  'withdrawal.initiated': ['walletId'],
  'withdrawal.completed': ['walletId'],
  'withdrawal.failed': ['walletId'],
  'withdrawal.cancelled': ['walletId'],
  'wallet.funds_pending': ['walletId'],
  'wallet.funds_available': ['walletId'],
  'card.created': ['walletId'],
  'card.updated': ['walletId'],
  'card.cancelled': ['walletId'],
  'card.authorization.approved': ['walletId'],
  'card.authorization.declined': ['walletId'],
  'card.authorization.captured': ['walletId'],
  'card.authorization.reversed': ['walletId'],
  'card.refund.created': ['walletId'],
  'approval.requested': ['walletId'],
  'approval.approved': ['walletId'],
  'approval.rejected': ['walletId'],
  'approval.expired': ['walletId'],
  'payment.posted': ['from', 'to'],
  'payment.reversed': ['from', 'to'],
  'payment.failed': [],
  'agent.created': ['id'],
  'agent.paused': ['id'],
  'agent.resumed': ['id'],
  'agent.deleted': ['id'],
  'wallet.created': ['id'],
  'wallet.funded': ['walletId'],
  'organization.created': [],
  'webhook.test': [],
};

const exampleData = (name: keyof typeof EVENT_DECLARATIONS) =>
  exampleOf(viewOf(EVENT_DECLARATIONS[name].payload)) as Record<string, unknown>;

describe('the wallets an event concerns (declared by its area)', () => {
  it('every emitted event declares its wallets, and only those', () => {
    expect(Object.keys(EVENT_DECLARATIONS)).toEqual([...EMITTED_EVENT_NAMES]);
    expect(
      Object.values(EVENT_DECLARATIONS).filter((declaration) => typeof declaration.wallets !== 'function'),
    ).toEqual([]);
    expect(
      Object.keys(WALLET_FIELDS).filter((name) => !(EMITTED_EVENT_NAMES as readonly string[]).includes(name)),
    ).toEqual([]);
  });

  it.each(EMITTED_EVENT_NAMES.filter((name) => name in WALLET_FIELDS))(
    '%s: the wallets of its example payload',
    (name) => {
      const data = exampleData(name);
      const expected = [...new Set(WALLET_FIELDS[name]!.map((field) => data[field]))];
      expect(expected.every((wallet) => typeof wallet === 'string' && wallet.startsWith('wal_'))).toBe(true);
      expect(walletsOfEvent({ type: name, data })).toEqual(expected);
    },
  );

  it('drops what is not a wallet id (a system account), names a wallet once, and knows no undeclared type', () => {
    expect(walletsOfEvent({ type: 'payment.posted', data: { from: 'acc_SANDBOX_FUNDING', to: 'wal_b' } })).toEqual([
      'wal_b',
    ]);
    expect(walletsOfEvent({ type: 'payment.posted', data: { from: 'wal_a', to: 'wal_a' } })).toEqual(['wal_a']);
    expect(walletsOfEvent({ type: 'card.created', data: {} })).toEqual([]);
    expect(
      walletsOfEvent({ type: 'dispute.created', data: { payerWalletId: 'wal_a', receivingWalletId: 'wal_b' } }),
    ).toEqual(['wal_a', 'wal_b']);
    expect(walletsOfEvent({ type: 'toString', data: { walletId: 'wal_a' } })).toEqual([]);
  });
});
