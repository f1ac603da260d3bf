import * as z from 'zod/mini';
import { approvalView } from './approvals/approval-view.js';
import { authorizationView, cardRefundView, cardView } from './cards/card-view.js';
import type { EmittedEventName } from './event-names.js';
import { paymentView } from './payments/payment-view.js';
import { transferView } from './transfers/transfer-view.js';
import { balance, enumOf, id, lazy, money, text, timestamp, usd, view } from './views.js';
import { ERROR_CODES } from './errors.js';

/**
 * The payload (`data`) of every event the service emits today, built from the public views only:
 * an event never carries an internal record (hashes, requesting key ids, index attributes).
 * `eventChange` accepts nothing else, so a service can not put internal fields on the bus.
 */
export const EVENT_PAYLOADS = {
  'organization.created': /* @__PURE__ */ lazy(() => view({ id: id('organization', 'The new organization.'), name: text('Its name.') }, 'An organization was created.', { id: 'org_ipK5yfL5D6aVwx00', name: 'Acme' })),
  'wallet.created': /* @__PURE__ */ lazy(() => view(
    { id: id('wallet', 'The new wallet.'), name: text('Its name.'), walletType: enumOf(['ORG', 'AGENT'], 'ORG for organization wallets, AGENT for agent wallets.') },
    'A wallet was created.',
    { id: 'wal_3kTnYpLqW8rXbZ2m', name: 'Operations', walletType: 'ORG' },
  )),
  'wallet.funded': /* @__PURE__ */ lazy(() => view(
    { walletId: id('wallet', 'The funded wallet.'), transactionId: id('transaction', 'The funding transaction.'), amount: money('Amount added.'), currency: usd() },
    'Test money was added to a sandbox wallet.',
    { walletId: 'wal_3kTnYpLqW8rXbZ2m', transactionId: 'txn_9fQw2LmZr4Tb8Ks1', amount: '100.00', currency: 'USD' },
  )),
  'agent.created': /* @__PURE__ */ lazy(() => view(
    {
      id: id('wallet', 'The agent\'s wallet.'),
      name: text('The agent\'s name.'),
      apiKeyId: id('apiKey', 'The agent\'s key (never the raw value).'),
      permissions: z.array(z.string()).check(z.describe('Permissions of the agent\'s key.')),
      templateId: z.optional(text('The template it was created from, if any.')),
    },
    'An agent was created.',
    { id: 'wal_3kTnYpLqW8rXbZ2m', name: 'Research bot', apiKeyId: 'key_Tq8Lm2Zp4Rw9Xb1K', permissions: ['wallets:read', 'payments:write'] },
  )),
  'agent.paused': /* @__PURE__ */ lazy(() => view({ id: id('wallet', 'The agent\'s wallet.'), status: enumOf(['FROZEN'], 'Now FROZEN.') }, 'An agent was paused.', { id: 'wal_3kTnYpLqW8rXbZ2m', status: 'FROZEN' })),
  'agent.resumed': /* @__PURE__ */ lazy(() => view({ id: id('wallet', 'The agent\'s wallet.'), status: enumOf(['ACTIVE'], 'Now ACTIVE.') }, 'An agent was resumed.', { id: 'wal_3kTnYpLqW8rXbZ2m', status: 'ACTIVE' })),
  'agent.deleted': /* @__PURE__ */ lazy(() => view(
    { id: id('wallet', 'The agent\'s wallet, now closed.'), sweptAmount: balance('Balance moved back to the main wallet.') },
    'An agent was deleted.',
    { id: 'wal_3kTnYpLqW8rXbZ2m', sweptAmount: '12.50000000' },
  )),
  'payment.posted': paymentView,
  'payment.reversed': paymentView,
  'payment.failed': /* @__PURE__ */ lazy(() => view(
    { transactionId: id('transaction', 'The queued payment that failed.'), approvalId: id('approval', 'Its approval.'), failureCode: enumOf(ERROR_CODES, 'Why it could not post.') },
    'A queued payment was approved but could not post.',
    { transactionId: 'txn_9fQw2LmZr4Tb8Ks1', approvalId: 'apr_Lm4Zq8Tr2Wb9Xk1P', failureCode: 'INSUFFICIENT_FUNDS' },
  )),
  'approval.requested': approvalView,
  'approval.approved': approvalView,
  'approval.rejected': approvalView,
  'approval.expired': approvalView,
  'deposit.initiated': transferView,
  'deposit.completed': transferView,
  'deposit.failed': transferView,
  'deposit.cancelled': transferView,
  'withdrawal.initiated': transferView,
  'withdrawal.completed': transferView,
  'withdrawal.failed': transferView,
  'withdrawal.cancelled': transferView,
  'wallet.funds_pending': /* @__PURE__ */ lazy(() => view(
    { walletId: id('wallet', 'The wallet the deposit credited.'), transferId: id('transfer', 'The ACH deposit.'), amount: money('Amount now in `pendingBalance`.'), availableAt: timestamp('When it becomes available.') },
    'A completed ACH deposit is clearing: its net amount is in `pendingBalance` until `availableAt`.',
    { walletId: 'wal_3kTnYpLqW8rXbZ2m', transferId: 'tr_5Kq8ZtLm2Rw9Xb1KcV4nYs7D', amount: '248.75', availableAt: '2026-03-16T10:05:11.412Z' },
  )),
  'wallet.funds_available': /* @__PURE__ */ lazy(() => view(
    { walletId: id('wallet', 'The wallet the deposit credited.'), transferId: id('transfer', 'The ACH deposit.'), amount: money('Amount moved from `pendingBalance` to `balance`.') },
    'The clearing of an ACH deposit ended: its funds are available.',
    { walletId: 'wal_3kTnYpLqW8rXbZ2m', transferId: 'tr_5Kq8ZtLm2Rw9Xb1KcV4nYs7D', amount: '248.75' },
  )),
  'card.created': cardView,
  'card.updated': cardView,
  'card.cancelled': cardView,
  'card.authorization.approved': authorizationView,
  'card.authorization.declined': authorizationView,
  'card.authorization.captured': authorizationView,
  'card.authorization.reversed': authorizationView,
  'card.refund.created': cardRefundView,
  'webhook.test': /* @__PURE__ */ lazy(() => view({ webhookId: id('webhook', 'The webhook tested.') }, 'A test event, sent by POST /v1/webhooks/{id}/test to that webhook only.', { webhookId: 'whk_Tq8Lm2Zp4Rw9Xb1KLm2Zp4Rw' })),
} as const satisfies Record<EmittedEventName, z.ZodMiniType>;

export type EmittedEvent = keyof typeof EVENT_PAYLOADS;
export type EventData<N extends EmittedEvent> = z.output<(typeof EVENT_PAYLOADS)[N]>;
