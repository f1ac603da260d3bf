import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import type { Policy } from '../../shared/domain/policies/policy-types.js';
import type { Approval, AuditEntry, Wallet } from '../../shared/domain/types.js';
import * as entities from '../../shared/persistence/entities/index.js';
import type { Item } from '../../shared/persistence/item.js';
import { GSI } from '../../shared/persistence/table-schema.js';
import {
  INDEX_USAGE,
  WALLET_INDEXES_SHARED_ACROSS_ORGANIZATIONS,
} from '../../shared/persistence/entities/index-usage.js';

const AT = '2026-11-21T10:00:00.000Z';
const scope = { organizationId: 'org_1', environment: 'SANDBOX' as const };

/** One item of each indexed entity, with every optional index attribute present. */
const samples: Record<keyof typeof INDEX_USAGE, Item> = {
  API_KEY: entities.apiKeyCodec.toItem({
    id: 'key_1',
    hash: 'h',
    name: 'K',
    prefix: 'svc_test_',
    last4: 'abcd',
    ...scope,
    permissions: [],
    walletId: null,
    status: 'ACTIVE',
    createdAt: AT,
  }),
  TRANSACTION: entities.transactionCodec.toItem({
    id: 'txn_1',
    type: 'PAYMENT',
    ...scope,
    createdAt: AT,
    from: 'wal_1',
    to: 'wal_2',
  }),
  POLICY: entities.policyCodec.toItem({
    id: 'pol_1',
    walletId: 'wal_1',
    ...scope,
    name: 'P',
    maxTransactionAmount: new Big(1),
    requireHumanApproval: false,
    status: 'ACTIVE',
    createdAt: AT,
    updatedAt: AT,
  } satisfies Policy),
  APPROVAL: entities.approvalCodec.toItem({
    id: 'apr_1',
    ...scope,
    walletId: 'wal_1',
    status: 'PENDING',
    payment: { from: 'wal_1', to: 'wal_2', amount: '1.00' },
    transactionId: 'txn_1',
    reason: 'r',
    requestedByKeyId: 'key_1',
    createdAt: AT,
    expiresAt: AT,
  } satisfies Approval),
  AUDIT_ENTRY: entities.auditEntryCodec.toItem({
    id: 'log_1',
    ...scope,
    actorType: 'API_KEY',
    actorId: 'key_1',
    action: 'wallet.create',
    resource: 'wallet',
    resourceId: 'wal_1',
    metadata: {},
    ipAddress: '127.0.0.1',
    createdAt: AT,
    walletId: 'wal_1',
  } satisfies AuditEntry),
  BANK_ACCOUNT: entities.bankAccountCodec.toItem({
    id: 'ba_1',
    ...scope,
    accountName: 'A',
    accountType: 'CHECKING',
    routingNumber: '011000015',
    last4: '6789',
    accountNumberSealed: 'lk1.a.b.c',
    microDepositsSealed: 'lk1.a.b.c',
    status: 'PENDING_VERIFICATION',
    failedVerificationAttempts: 0,
    createdAt: AT,
    verifiedAt: null,
    deletedAt: null,
  }),
  WEBHOOK: entities.webhookCodec.toItem({
    id: 'whk_1',
    ...scope,
    url: 'https://example.com/hook',
    events: ['*'],
    description: null,
    status: 'ENABLED',
    secret: 'a:b:c',
    createdAt: AT,
  }),
  TRANSFER: entities.transferCodec.toItem({
    id: 'tr_1',
    ...scope,
    walletId: 'wal_1',
    toWalletId: 'wal_2',
    direction: 'INTERNAL',
    rail: 'INTERNAL',
    currency: 'USD',
    amount: '1',
    fee: '0.00',
    status: 'PENDING',
    reconcileAt: AT,
    createdAt: AT,
  }),
  CARD: entities.cardCodec.toItem({
    id: 'card_1',
    ...scope,
    walletId: 'wal_1',
    type: 'PERSISTENT',
    status: 'ACTIVE',
    brand: 'visa',
    last4: '4242',
    expMonth: 11,
    expYear: 2029,
    spendingLimits: [],
    version: 1,
    createdAt: AT,
    updatedAt: AT,
  }),
  CARDHOLDER: entities.cardholderCodec.toItem({
    id: 'crh_1',
    ...scope,
    name: 'A',
    billingAddress: { line1: 'l', city: 'c', state: 's', postalCode: 'p', country: 'US' },
    createdAt: AT,
  }),
  CUSTOMER: entities.customerCodec.toItem({
    id: 'cus_1',
    ...scope,
    walletId: 'wal_1',
    email: 'a@example.com',
    name: 'A',
    defaultPaymentMethodId: null,
    paymentMethodCount: 0,
    version: 0,
    createdAt: AT,
    updatedAt: AT,
  }),
  PAYMENT_METHOD: entities.paymentMethodCodec.toItem({
    id: 'pm_1',
    ...scope,
    customerId: 'cus_1',
    walletId: 'wal_1',
    type: 'card',
    brand: 'visa',
    last4: '4242',
    numberSealed: 'lk1.a.b.c',
    processorToken: 'sbxpm_card_ok_1',
    createdAt: AT,
  }),
  CARD_AUTHORIZATION: entities.cardAuthorizationCodec.toItem({
    id: 'auth_1',
    ...scope,
    cardId: 'card_1',
    walletId: 'wal_1',
    amount: '1.00',
    capturedAmount: '0.00',
    refundedAmount: '0.00',
    status: 'APPROVED',
    holdId: 'txn_1',
    merchant: { name: 'M', category: '5734' },
    createdAt: AT,
    expiresAt: AT,
  }),
  EVENT: entities.storedEventCodec.toItem(
    { id: 'evt_1', type: 'payment.posted', ...scope, createdAt: AT, data: { from: 'wal_1', to: 'wal_2' } },
    AT,
  ),
  INVOICE: entities.invoiceCodec.toItem({
    id: 'inv_1',
    ...scope,
    walletId: 'wal_1',
    customerId: 'cus_1',
    status: 'DRAFT',
    currency: 'USD',
    lineItems: [{ description: 'd', quantity: 1, unitPrice: '1.00', amount: '1.00' }],
    total: '1.00',
    amountPaid: '0.00',
    number: null,
    slug: null,
    createdAt: AT,
  }),
  USDC_RECEIPT: entities.collectionCodec.receiptItem({
    id: 'ucr_1',
    ...scope,
    address: '0x0000000000000000000000000000000000000001',
    amount: '1.00',
    reason: 'unknown_address',
    status: 'UNMATCHED',
    receivedAt: AT,
  }),
  PAYMENT_LINK: entities.paymentLinkCodec.toItem({
    id: 'lnk_1',
    ...scope,
    walletId: 'wal_1',
    slug: 'AbCdEfGhIjKlMnOpQrStUv',
    amount: '10.00',
    currency: 'USD',
    fee: '0.25',
    expiresAt: AT,
    status: 'ACTIVE',
    holdId: 'txn_1',
    createdByKeyId: 'key_1',
    createdAt: AT,
    updatedAt: AT,
  }),
  DISPUTE: entities.disputeCodec.toItem({
    id: 'dsp_1',
    ...scope,
    transactionId: 'txn_1',
    respondentOrgId: 'org_2',
    payerWalletId: 'wal_1',
    receivingWalletId: 'wal_2',
    type: 'FRAUD',
    amount: '10.00',
    currency: 'USD',
    reason: 'Not delivered',
    status: 'OPEN',
    respondBy: AT,
    holdTransactionId: 'txn_2',
    requestedByKeyId: 'key_1',
    createdAt: AT,
    updatedAt: AT,
  }),
  USER: entities.userCodec.toItem({
    id: 'usr_1',
    organizationId: 'org_1',
    email: 'ada@example.com',
    role: 'admin',
    status: 'INVITED',
    createdAt: AT,
    invitedBy: 'key_1',
    invitationHash: 'h',
    invitationExpiresAt: AT,
  }),
  SESSION: entities.sessionCodec.toItem({
    id: 'ses_1',
    hash: 'h',
    userId: 'usr_1',
    email: 'a@example.com',
    role: 'owner',
    organizationId: 'org_1',
    environment: 'SANDBOX',
    csrfToken: 'c',
    createdAt: AT,
    lastSeenAt: AT,
    expiresAt: AT,
    verifiedAt: AT,
    ipAddress: '127.0.0.1',
    userAgent: 'test',
  }),
};

/** Sample items whose index names the other party's wallet: its partition names that party's organization (a dispute's receiving wallet). */
const WALLET_OWNED_BY_OTHER_PARTY: Partial<Record<keyof typeof INDEX_USAGE, Partial<Record<string, string>>>> = {
  DISPUTE: { GSI4: 'org_2' },
};

describe('table schema', () => {
  it('names in INDEX_USAGE only entity types that an entity module declares', () => {
    const declared = Object.entries(entities)
      .filter(([name]) => name.endsWith('_ENTITY'))
      .map(([, value]) => value);
    for (const entityType of Object.keys(INDEX_USAGE)) expect(declared).toContain(entityType);
  });

  it('writes wallet items with no index attribute: a balance change writes no index entry', () => {
    const wallet = entities.walletCodec.toItem({
      id: 'wal_1',
      ...scope,
      name: 'W',
      walletType: 'ORG',
      isMain: true,
      status: 'ACTIVE',
      balance: new Big(0),
      pendingBalance: new Big(0),
      heldBalance: new Big(0),
      currency: 'USD',
      createdAt: AT,
    } satisfies Wallet);
    expect(Object.values(GSI).filter((index) => wallet[index.partition] !== undefined)).toEqual([]);
    expect(INDEX_USAGE).not.toHaveProperty('WALLET');
  });

  it.each(Object.keys(INDEX_USAGE) as (keyof typeof INDEX_USAGE)[])(
    'writes %s items with exactly the indexes INDEX_USAGE declares',
    (entityType) => {
      const item = samples[entityType];
      expect(item.entityType).toBe(entityType);
      const used = Object.values(GSI)
        .filter((index) => item[index.partition] !== undefined)
        .map((index) => index.name);
      expect(used.sort()).toEqual(Object.keys(INDEX_USAGE[entityType]).sort());
      for (const name of used) expect(typeof item[GSI[name].sort]).toBe('string');
    },
  );

  it.each(Object.keys(INDEX_USAGE) as (keyof typeof INDEX_USAGE)[])(
    'names the organization and environment in every %s index partition that names a wallet',
    (entityType) => {
      const item = samples[entityType];
      const shared: readonly string[] = WALLET_INDEXES_SHARED_ACROSS_ORGANIZATIONS[entityType] ?? [];
      for (const index of Object.values(GSI)) {
        const partition = item[index.partition];
        if (typeof partition !== 'string' || !partition.includes('wal_') || shared.includes(index.name)) continue;
        const owner = WALLET_OWNED_BY_OTHER_PARTY[entityType]?.[index.name] ?? scope.organizationId;
        expect(partition, `${entityType} ${index.name}`).toContain(`${owner}#${scope.environment}#`);
      }
    },
  );
});
