import Big from 'big.js';
import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import {
  decideAuthorization,
  declineOfCommitFailure,
  merchantRecipientOf,
  normalizeMerchantName,
} from '../../shared/domain/cards/authorization-decision.js';
import {
  expiryOf,
  isLuhnValid,
  luhnCheckDigit,
  randomCvc,
  sandboxCardNumber,
  SANDBOX_BIN,
} from '../../shared/domain/cards/card-numbers.js';
import {
  cardExpired,
  cardSpendOf,
  categoryAllowed,
  exceededLimit,
  intervalKeyOf,
  isLiveKey,
  normalizeSpendingLimits,
  previousIntervalKeyOf,
} from '../../shared/domain/cards/card-rules.js';
import { isCountryCode } from '../../shared/domain/cards/countries.js';
import { answerNetworkRequest } from '../../shared/domain/cards/network-request.js';
import type { Card } from '../../shared/domain/cards/types.js';
import { ApiError } from '../../shared/domain/errors.js';
import type { Policy } from '../../shared/domain/policies/policy-types.js';
import type { Wallet } from '../../shared/domain/types.js';
import type { WalletSnapshot } from '../../shared/domain/wallets/ports.js';

const AT = new Date('2026-11-25T15:30:00.000Z');
const digit = () => randomInt(0, 10);

const card = (overrides: Partial<Card> = {}): Card => ({
  id: 'card_1',
  organizationId: 'org_1',
  environment: 'SANDBOX',
  walletId: 'wal_1',
  type: 'PERSISTENT',
  status: 'ACTIVE',
  brand: 'visa',
  last4: '1234',
  expMonth: 11,
  expYear: 2029,
  spendingLimits: [],
  version: 1,
  createdAt: AT.toISOString(),
  updatedAt: AT.toISOString(),
  ...overrides,
});

const wallet = (overrides: Partial<Wallet> = {}): Wallet => ({
  id: 'wal_1',
  organizationId: 'org_1',
  environment: 'SANDBOX',
  name: 'Agent',
  walletType: 'AGENT',
  isMain: false,
  status: 'ACTIVE',
  balance: new Big('100'),
  heldBalance: new Big(0),
  pendingBalance: new Big(0),
  currency: 'USD',
  createdAt: AT.toISOString(),
  ...overrides,
});

const snapshot = (w: Partial<Wallet> = {}, policies: Policy[] = []): WalletSnapshot => ({
  wallet: wallet(w),
  policies,
  counters: [],
});
const policy = (overrides: Partial<Policy>): Policy => ({
  id: 'pol_1',
  walletId: 'wal_1',
  organizationId: 'org_1',
  environment: 'SANDBOX',
  name: 'P',
  maxTransactionAmount: new Big(1000),
  requireHumanApproval: false,
  status: 'ACTIVE',
  createdAt: AT.toISOString(),
  updatedAt: AT.toISOString(),
  ...overrides,
});
const merchant = { name: 'OpenAI', category: '5734', country: 'US' };
const decide = (c: Card, s: WalletSnapshot | undefined, amount = '10.00', m = merchant) =>
  decideAuthorization({ card: c, snapshot: s, amount: new Big(amount), merchant: m, at: AT });
const reasonOf = (decision: ReturnType<typeof decide>) => (decision.approved ? 'approved' : decision.reason);

describe('card numbers', () => {
  it('computes the Luhn check digit of known numbers', () => {
    expect(luhnCheckDigit('424242424242424')).toBe('2');
    expect(luhnCheckDigit('7992739871')).toBe('3');
    expect(isLuhnValid('4242424242424242')).toBe(true);
    expect(isLuhnValid('4242424242424241')).toBe(false);
    expect(isLuhnValid('79927398713')).toBe(true);
    expect(isLuhnValid('4000 0000 0000 0002')).toBe(false);
  });

  it('makes 16-digit, Luhn-valid numbers with BIN 400000 and 3-digit CVCs', () => {
    const numbers = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const number = sandboxCardNumber(digit);
      expect(number).toMatch(/^400000\d{10}$/);
      expect(number.startsWith(SANDBOX_BIN)).toBe(true);
      expect(isLuhnValid(number)).toBe(true);
      numbers.add(number);
      expect(randomCvc(digit)).toMatch(/^\d{3}$/);
    }
    expect(numbers.size).toBeGreaterThan(990);
  });

  it('expires three years out, same month', () => {
    expect(expiryOf(new Date('2026-11-25T00:00:00Z'))).toEqual({ expMonth: 11, expYear: 2029 });
    expect(expiryOf(new Date('2026-01-01T00:00:00Z'))).toEqual({ expMonth: 1, expYear: 2029 });
  });

  it('knows ISO 3166-1 alpha-2 country codes, case-insensitively', () => {
    for (const code of ['US', 'de', 'GB', 'JP', 'SS', 'FR']) expect(isCountryCode(code)).toBe(true);
    for (const code of ['UK', 'XX', 'USA', 'EU', '']) expect(isCountryCode(code)).toBe(false);
  });
});

describe('spending limits: interval keys (calendar UTC)', () => {
  it('keys each interval', () => {
    expect(intervalKeyOf('daily', AT)).toBe('2026-11-25');
    expect(intervalKeyOf('weekly', AT)).toBe('2026-W48');
    expect(intervalKeyOf('monthly', AT)).toBe('2026-11');
    expect(intervalKeyOf('yearly', AT)).toBe('2026');
    expect(intervalKeyOf('all_time', AT)).toBe('all');
  });

  it('turns at midnight UTC, on Monday, on the 1st and on January 1st', () => {
    expect(intervalKeyOf('daily', new Date('2026-11-25T23:59:59.999Z'))).toBe('2026-11-25');
    expect(intervalKeyOf('daily', new Date('2026-11-26T00:00:00.000Z'))).toBe('2026-11-26');
    expect(intervalKeyOf('weekly', new Date('2026-11-29T23:59:59Z'))).toBe('2026-W48');
    expect(intervalKeyOf('weekly', new Date('2026-11-30T00:00:00Z'))).toBe('2026-W49');
    expect(intervalKeyOf('yearly', new Date('2027-01-01T00:00:00Z'))).toBe('2027');
    expect(previousIntervalKeyOf('daily', AT)).toBe('2026-11-24');
    expect(previousIntervalKeyOf('yearly', AT)).toBe('2025');
    expect(previousIntervalKeyOf('all_time', AT)).toBeUndefined();
  });

  it('keeps the current and the previous interval counters, drops older ones', () => {
    expect(isLiveKey({ interval: 'daily', key: '2026-11-25' }, AT)).toBe(true);
    expect(isLiveKey({ interval: 'daily', key: '2026-11-24' }, AT)).toBe(true);
    expect(isLiveKey({ interval: 'daily', key: '2026-11-23' }, AT)).toBe(false);
    const spend = cardSpendOf(
      card({
        counters: [
          { interval: 'daily', key: '2026-11-20', spent: '5' },
          { interval: 'all_time', key: 'all', spent: '5' },
        ],
      }),
      new Big(1),
      AT,
    );
    expect(spend.stale).toEqual([{ interval: 'daily', key: '2026-11-20' }]);
    expect(spend.intervals.map((i) => i.interval)).toEqual(['daily', 'weekly', 'monthly', 'yearly', 'all_time']);
  });
});

describe('spending limits: rules', () => {
  it('normalizes limits: amounts by the money rules, categories lower-cased and unique', () => {
    expect(
      normalizeSpendingLimits([
        {
          amount: '50',
          interval: 'daily',
          categories: ['Computer_Software_Stores', 'computer_software_stores', '5734'],
        },
      ]),
    ).toEqual([{ amount: '50.00', interval: 'daily', categories: ['computer_software_stores', '5734'] }]);
    expect(() => normalizeSpendingLimits([{ amount: '0', interval: 'daily' }])).toThrow(
      expect.objectContaining({ code: 'INVALID_AMOUNT', details: { field: 'spendingLimits[0].amount' } }),
    );
    expect(() => normalizeSpendingLimits([{ amount: '1.001', interval: 'daily' }])).toThrow(
      expect.objectContaining({ code: 'INVALID_AMOUNT' }),
    );
  });

  it('treats categories as an allow list: every limit with categories must admit the merchant', () => {
    expect(categoryAllowed([], '5812')).toBe(true);
    expect(categoryAllowed([{ amount: '10.00', interval: 'daily', categories: ['5734'] }], '5734')).toBe(true);
    expect(categoryAllowed([{ amount: '10.00', interval: 'daily', categories: ['5734'] }], '5812')).toBe(false);
    expect(
      categoryAllowed(
        [
          { amount: '10.00', interval: 'daily', categories: ['5734', '5812'] },
          { amount: '10.00', interval: 'weekly', categories: ['5812'] },
        ],
        '5734',
      ),
    ).toBe(false);
  });

  it('finds the limit an amount would break, per authorization first, with the tightest limit of an interval', () => {
    const limits = [
      { amount: '25.00', interval: 'per_authorization' as const },
      { amount: '40.00', interval: 'daily' as const },
      { amount: '30.00', interval: 'daily' as const },
    ];
    const c = card({ spendingLimits: limits, counters: [{ interval: 'daily', key: '2026-11-25', spent: '20' }] });
    expect(exceededLimit(c, cardSpendOf(c, new Big('26'), AT))).toMatchObject({ interval: 'per_authorization' });
    expect(exceededLimit(c, cardSpendOf(c, new Big('10.01'), AT))).toMatchObject({
      interval: 'daily',
      limit: new Big(30),
    });
    expect(exceededLimit(c, cardSpendOf(c, new Big('10'), AT))).toBeUndefined();
  });
});

describe('the authorization decision', () => {
  it('approves within every rule, with the card and wallet spend to count', () => {
    const decision = decide(card({ spendingLimits: [{ amount: '50.00', interval: 'daily' }] }), snapshot());
    expect(decision.approved).toBe(true);
    if (!decision.approved) return;
    expect(decision.cardSpend.intervals.find((i) => i.interval === 'daily')?.limit?.toFixed()).toBe('50');
    expect(decision.walletSpend.walletId).toBe('wal_1');
  });

  it('declines with each reason, in the documented order', () => {
    expect(reasonOf(decide(card({ status: 'CANCELLED' }), snapshot({ status: 'FROZEN' })))).toBe('card_cancelled');
    expect(reasonOf(decide(card({ status: 'INACTIVE' }), snapshot({ status: 'FROZEN' })))).toBe('card_inactive');
    expect(reasonOf(decide(card(), undefined))).toBe('wallet_closed');
    expect(reasonOf(decide(card(), snapshot({ deletedAt: AT.toISOString() })))).toBe('wallet_closed');
    expect(
      reasonOf(
        decide(
          card({ spendingLimits: [{ amount: '1.00', interval: 'daily', categories: ['5812'] }] }),
          snapshot({ status: 'FROZEN' }),
        ),
      ),
    ).toBe('wallet_frozen');
    expect(
      reasonOf(
        decide(card({ spendingLimits: [{ amount: '1.00', interval: 'daily', categories: ['5812'] }] }), snapshot()),
      ),
    ).toBe('category_blocked');
    expect(
      reasonOf(decide(card({ spendingLimits: [{ amount: '5.00', interval: 'per_authorization' }] }), snapshot())),
    ).toBe('spending_limit_exceeded');
    expect(
      reasonOf(
        decide(
          card({
            spendingLimits: [{ amount: '15.00', interval: 'monthly' }],
            counters: [{ interval: 'monthly', key: '2026-11', spent: '10' }],
          }),
          snapshot(),
        ),
      ),
    ).toBe('spending_limit_exceeded');
    expect(reasonOf(decide(card(), snapshot({ balance: new Big('9.99') })))).toBe('insufficient_funds');
  });

  it("applies the wallet's spend policies: maximum per transaction, period limits, blocked merchants, approvals", () => {
    expect(reasonOf(decide(card(), snapshot({}, [policy({ maxTransactionAmount: new Big(5) })])))).toBe(
      'policy_denied',
    );
    expect(reasonOf(decide(card(), snapshot({}, [policy({ dailyLimit: new Big(5) })])))).toBe('policy_denied');
    expect(reasonOf(decide(card(), snapshot({}, [policy({ blockedRecipients: ['merchant:openai'] })])))).toBe(
      'policy_denied',
    );
    expect(
      reasonOf(
        decide(card(), snapshot({}, [policy({ blockedRecipients: ['merchant:openai'] })]), '10.00', {
          name: 'Anthropic',
          category: '5734',
          country: 'US',
        }),
      ),
    ).toBe('approved');
    expect(reasonOf(decide(card(), snapshot({}, [policy({ requireHumanApproval: true })])))).toBe('policy_denied');
    const denied = decide(card(), snapshot({}, [policy({ dailyLimit: new Big(5) })]));
    expect(denied.approved === false && denied.detail).toEqual({ rule: 'dailyLimit' });
    expect(merchantRecipientOf({ name: ' OpenAI ', category: 'x' })).toBe('merchant:openai');
  });

  it('declines an expired card: valid through the last day of its expiry month (UTC)', () => {
    expect(cardExpired({ expMonth: 11, expYear: 2026 }, new Date('2026-11-30T23:59:59.999Z'))).toBe(false);
    expect(cardExpired({ expMonth: 11, expYear: 2026 }, new Date('2026-12-01T00:00:00.000Z'))).toBe(true);
    expect(cardExpired({ expMonth: 12, expYear: 2026 }, new Date('2026-12-31T23:59:59.999Z'))).toBe(false);
    expect(cardExpired({ expMonth: 12, expYear: 2026 }, new Date('2027-01-01T00:00:00.000Z'))).toBe(true);
    expect(cardExpired({ expMonth: 1, expYear: 2027 }, new Date('2026-12-31T23:59:59.999Z'))).toBe(false);
    // A freshly issued card is valid for three years.
    expect(cardExpired(expiryOf(AT), AT)).toBe(false);
    expect(reasonOf(decide(card({ expMonth: 10, expYear: 2026 }), snapshot()))).toBe('card_expired');
    expect(reasonOf(decide(card({ expMonth: 11, expYear: 2026 }), snapshot()))).toBe('approved');
    // After card_cancelled, before card_inactive.
    expect(reasonOf(decide(card({ status: 'CANCELLED', expMonth: 1, expYear: 2020 }), snapshot()))).toBe(
      'card_cancelled',
    );
    expect(reasonOf(decide(card({ status: 'INACTIVE', expMonth: 1, expYear: 2020 }), snapshot()))).toBe('card_expired');
  });

  it('declines a single-use card that has a live authorization (card_used); a persistent card is not marked', () => {
    expect(reasonOf(decide(card({ type: 'SINGLE_USE', usedBy: 'auth_1' }), snapshot()))).toBe('card_used');
    expect(reasonOf(decide(card({ type: 'SINGLE_USE' }), snapshot()))).toBe('approved');
    expect(reasonOf(decide(card({ type: 'SINGLE_USE', usedBy: 'auth_1', status: 'INACTIVE' }), snapshot()))).toBe(
      'card_inactive',
    );
    expect(declineOfCommitFailure(new ApiError('INVALID_STATE', 'x', { declineReason: 'card_used' }))).toBe(
      'card_used',
    );
  });

  it('compares card merchants with policy lists by normalized names (letters and digits, lower-cased)', () => {
    expect(normalizeMerchantName('OpenAI, Inc.')).toBe('openaiinc');
    expect(normalizeMerchantName('OPENAI *CHATGPT')).toBe('openaichatgpt');
    expect(normalizeMerchantName('  Open   AI ')).toBe('openai');
    expect(normalizeMerchantName('ＯｐｅｎＡＩ')).toBe('openai');
    expect(merchantRecipientOf({ name: 'Lucky Casino', category: '7995' })).toBe('merchant:luckycasino');
    const blocked = (entries: string[], name: string) =>
      reasonOf(decide(card(), snapshot({}, [policy({ blockedRecipients: entries })]), '10.00', { ...merchant, name }));
    expect(blocked(['merchant:openai'], 'OpenAI')).toBe('policy_denied');
    expect(blocked(['merchant:openai'], 'OPENAI')).toBe('policy_denied');
    expect(blocked(['merchant:openai'], 'Open-AI')).toBe('policy_denied');
    expect(blocked(['MERCHANT:Lucky-Casino'], 'LUCKY CASINO')).toBe('policy_denied');
    expect(blocked(['merchant:openai'], 'OpenAI Inc')).toBe('approved');
    // A domain entry matches the card merchant of the same letters and digits only.
    expect(blocked(['merchant:openai.com'], 'OpenAI.com')).toBe('policy_denied');
    expect(blocked(['merchant:openai.com'], 'OpenAI')).toBe('approved');
    // Wallet ids in a list are left as they are.
    expect(blocked(['wal_OpenAI'], 'OpenAI')).toBe('approved');
    const allowed = (entries: string[], name: string) =>
      reasonOf(decide(card(), snapshot({}, [policy({ allowedRecipients: entries })]), '10.00', { ...merchant, name }));
    expect(allowed(['merchant:openai'], 'OPEN AI')).toBe('approved');
    expect(allowed(['merchant:openai'], 'Anthropic')).toBe('policy_denied');
  });

  it('maps a condition that failed at commit to its decline, and lets other failures through', () => {
    expect(declineOfCommitFailure(new ApiError('INSUFFICIENT_FUNDS'))).toBe('insufficient_funds');
    expect(declineOfCommitFailure(new ApiError('WALLET_FROZEN'))).toBe('wallet_frozen');
    expect(declineOfCommitFailure(new ApiError('POLICY_DENIED', 'x', { rule: 'dailyLimit' }))).toBe('policy_denied');
    expect(
      declineOfCommitFailure(new ApiError('POLICY_DENIED', 'x', { declineReason: 'spending_limit_exceeded' })),
    ).toBe('spending_limit_exceeded');
    expect(declineOfCommitFailure(new ApiError('INVALID_STATE', 'x', { declineReason: 'card_inactive' }))).toBe(
      'card_inactive',
    );
    expect(declineOfCommitFailure(new ApiError('CONCURRENT_UPDATE'))).toBeUndefined();
    expect(declineOfCommitFailure(new ApiError('IDEMPOTENCY_KEY_IN_USE'))).toBeUndefined();
    expect(declineOfCommitFailure(new Error('boom'))).toBeUndefined();
  });
});

describe('the card network request', () => {
  const request = {
    networkId: 'iauth_1',
    cardId: 'card_1',
    amount: '42.00',
    currency: 'USD',
    merchant: { name: 'OpenAI', category: '5734', country: 'US' },
  };
  const silent = { error: () => {} };

  it('passes a well-formed request to the engine and answers its decision', async () => {
    const seen: unknown[] = [];
    const engine = {
      authorizeForNetwork: async (_action: unknown, input: unknown) => (
        seen.push(input),
        { approved: true, authorizationId: 'auth_1' }
      ),
    };
    expect(await answerNetworkRequest(engine, request, silent, 'SANDBOX', AUDIT.card.authorize)).toEqual({
      approved: true,
      authorizationId: 'auth_1',
    });
    expect(seen).toEqual([request]);
    // The merchant's name arrives trimmed.
    await answerNetworkRequest(
      engine,
      { ...request, merchant: { ...request.merchant, name: '  OpenAI  ' } },
      silent,
      'SANDBOX',
      AUDIT.card.authorize,
    );
    expect(seen[1]).toEqual(request);
  });

  it('declines a malformed request, and a failure, without approving or throwing', async () => {
    const engine = { authorizeForNetwork: async () => ({ approved: true }) };
    const named = (name: string) => ({ ...request, merchant: { ...request.merchant, name } });
    for (const bad of [
      null,
      {},
      { ...request, amount: '1.001' },
      { ...request, currency: 'EUR' },
      { ...request, cardId: 'wal_1' },
      { ...request, extra: 1 },
      named(''),
      named('   '),
      named(' *** '),
      named('x'.repeat(129)),
      named('Open\nAI'),
    ]) {
      expect(await answerNetworkRequest(engine, bad, silent, 'SANDBOX', AUDIT.card.authorize)).toEqual({
        approved: false,
        reason: 'invalid_request',
      });
    }
    const logged: unknown[][] = [];
    const failing = { authorizeForNetwork: async () => Promise.reject(new Error('DynamoDB down')) };
    expect(
      await answerNetworkRequest(
        failing,
        request,
        { error: (...args: unknown[]) => void logged.push(args) },
        'SANDBOX',
        AUDIT.card.authorize,
      ),
    ).toEqual({ approved: false, reason: 'processing_error' });
    expect(JSON.stringify(logged)).not.toContain('card_1');
  });

  it("answers the processor's own mistakes invalid_request without logging a failure: zero, out of range or padded amounts, a request id reused with other terms", async () => {
    const logged: unknown[][] = [];
    const log = { error: (...args: unknown[]) => void logged.push(args) };
    const calls: unknown[] = [];
    const engine = {
      authorizeForNetwork: async (_action: unknown, input: unknown) => (calls.push(input), { approved: true }),
    };
    for (const amount of ['0.00', '0', '01.00', '1000000001.00']) {
      expect(await answerNetworkRequest(engine, { ...request, amount }, log, 'SANDBOX', AUDIT.card.authorize)).toEqual({
        approved: false,
        reason: 'invalid_request',
      });
    }
    expect(calls).toEqual([]);
    const reused = { authorizeForNetwork: async () => Promise.reject(new ApiError('IDEMPOTENCY_KEY_REUSE')) };
    expect(await answerNetworkRequest(reused, request, log, 'SANDBOX', AUDIT.card.authorize)).toEqual({
      approved: false,
      reason: 'invalid_request',
    });
    expect(logged).toEqual([]);
  });
});
