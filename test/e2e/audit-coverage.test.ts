import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from '../../shared/domain/audit/actions.js';
import { OPERATOR_AUDIT_ORGANIZATION } from '../../shared/domain/users/user-rules.js';
import { ROUTES, routeKeyOf, type RouteDefinition } from '../../shared/http/routes.js';
import { fillPath } from '../../shared/operations/paths.js';
import { auditPartition, type AuditItem } from '../fixtures/audit-reads.js';
import { auditFactories, type AuditFactories } from '../fixtures/fresh-resources.js';
import { invoiceSeed } from '../fixtures/invoice-seed.js';
import { GOOD_CARD, KYB_BODY } from '../fixtures/organizations.js';
import { startTestService, type ApiResponse, type TestService } from '../fixtures/local-service.js';

/**
 * Walks every mutating route of the route table: each successful call leaves exactly one audit
 * entry, named by the route's `audit`. A mutating route without a case here fails this file.
 */

/** One prepared call: the path parameters, body and key for the route, and whose audit trail it writes. */
interface PreparedCall {
  key: string;
  params?: Record<string, string>;
  body?: unknown;
  /** The organization whose audit partitions receive the entry (known only after the call for organization creation). */
  organizationId: string | ((response: ApiResponse) => string);
  /** Who the entry names when no key acts (public routes: the customer on a hosted page); default: the calling key. */
  actor?: { actorType: string; actorId: RegExp };
}

type Case = (make: AuditFactories, service: TestService) => Promise<PreparedCall>;

/** A user invited (with the organization's key) for a case that changes one. */
async function invitedUser(service: TestService, key: string): Promise<string> {
  const response = await service.call('POST', '/v1/users', {
    key,
    body: { email: 'someone@people.test', role: 'viewer' },
  });
  if (response.status !== 201) throw new Error(response.text);
  return response.body.id as string;
}

const payment = (from: string, to: string) => ({ from, to, amount: '5.00' });

const CASES: Record<string, Case> = {
  createOrganization: async (_make, service) => ({
    key: service.adminKey,
    body: { name: 'Audited on birth' },
    organizationId: (response) => response.body.organization.id,
  }),
  decideKyb: async (make, service) => {
    const org = await make.organization();
    return {
      key: service.adminKey,
      params: { id: org.organizationId },
      body: { status: 'VERIFIED' },
      organizationId: org.organizationId,
    };
  },
  setWalletHotMode: async (make, service) => {
    const org = await make.organization();
    return {
      key: service.adminKey,
      params: { walletId: org.mainWalletId },
      body: { enabled: true },
      organizationId: org.organizationId,
    };
  },
  suspendMerchant: async (make, service) => {
    const org = await make.organization();
    return { key: service.adminKey, params: { domain: await make.merchant(org) }, organizationId: org.organizationId };
  },
  createUser: async (make) => {
    const org = await make.organization();
    return { key: org.key, body: { email: 'audited@people.test', role: 'viewer' }, organizationId: org.organizationId };
  },
  updateUser: async (make, service) => {
    const org = await make.organization();
    return {
      key: org.key,
      params: { id: await invitedUser(service, org.key) },
      body: { role: 'approver' },
      organizationId: org.organizationId,
    };
  },
  deleteUser: async (make, service) => {
    const org = await make.organization();
    return { key: org.key, params: { id: await invitedUser(service, org.key) }, organizationId: org.organizationId };
  },
  renewUserInvitation: async (make, service) => {
    const org = await make.organization();
    return { key: org.key, params: { id: await invitedUser(service, org.key) }, organizationId: org.organizationId };
  },
  createOrganizationUser: async (make, service) => {
    const org = await make.organization();
    return {
      key: service.adminKey,
      params: { id: org.organizationId },
      body: { email: 'founder@people.test', role: 'owner' },
      organizationId: org.organizationId,
    };
  },
  // The operator's people belong to no organization: their entries go to the operator's partition.
  createOperatorUser: async (_make, service) => ({
    key: service.adminKey,
    body: { email: 'audited-operator@allowance.test' },
    organizationId: OPERATOR_AUDIT_ORGANIZATION,
  }),
  createApiKey: async (make) => {
    const org = await make.organization();
    return {
      key: org.key,
      body: { name: 'Audited key', permissions: ['payments:read'] },
      organizationId: org.organizationId,
    };
  },
  revokeApiKey: async (make) => {
    const org = await make.organization();
    return { key: org.key, params: { id: (await make.apiKey(org)).id }, organizationId: org.organizationId };
  },
  createWallet: async (make) => {
    const org = await make.organization();
    return { key: org.key, body: { name: 'Audited wallet' }, organizationId: org.organizationId };
  },
  fundWallet: async (make) => {
    const org = await make.organization();
    return {
      key: org.key,
      params: { id: org.mainWalletId },
      body: { amount: '25.00' },
      organizationId: org.organizationId,
    };
  },
  createPayment: async (make) => {
    const org = await make.organization();
    const { payer, payee } = await make.walletPair(org);
    return { key: org.key, body: payment(payer, payee), organizationId: org.organizationId };
  },
  createBatch: async (make) => {
    const org = await make.organization();
    const { payer, payee } = await make.walletPair(org);
    return { key: org.key, body: { payments: [payment(payer, payee)] }, organizationId: org.organizationId };
  },
  reversePayment: async (make) => {
    const org = await make.organization();
    return { key: org.key, params: { id: await make.postedPayment(org) }, organizationId: org.organizationId };
  },
  putMerchantProfile: async (make) => {
    const org = await make.organization();
    const walletId = await make.wallet(org);
    return {
      key: org.key,
      body: {
        domain: `audited-${org.organizationId.slice(4, 12).toLowerCase()}.example.com`,
        displayName: 'Audited shop',
        walletId,
        closedLoop: false,
      },
      organizationId: org.organizationId,
    };
  },
  createAgent: async (make) => {
    const org = await make.organization();
    return { key: org.key, body: { name: 'Audited agent' }, organizationId: org.organizationId };
  },
  createAgentFromTemplate: async (make) => {
    const org = await make.organization();
    return {
      key: org.key,
      body: { name: 'Audited researcher', templateId: 'research' },
      organizationId: org.organizationId,
    };
  },
  adjustBudget: async (make) => {
    const org = await make.organization();
    const agent = await make.agent(org);
    await make.fund(org, org.mainWalletId, '20.00');
    return { key: org.key, params: { id: agent.id }, body: { amount: '7.50' }, organizationId: org.organizationId };
  },
  pauseAgent: async (make) => {
    const org = await make.organization();
    return { key: org.key, params: { id: (await make.agent(org)).id }, organizationId: org.organizationId };
  },
  resumeAgent: async (make) => {
    const org = await make.organization();
    return { key: org.key, params: { id: (await make.pausedAgent(org)).id }, organizationId: org.organizationId };
  },
  rotateAgentKey: async (make) => {
    const org = await make.organization();
    return { key: org.key, params: { id: (await make.agent(org)).id }, organizationId: org.organizationId };
  },
  deleteAgent: async (make) => {
    const org = await make.organization();
    return { key: org.key, params: { id: (await make.agent(org)).id }, organizationId: org.organizationId };
  },
  createPolicy: async (make) => {
    const org = await make.organization();
    const walletId = await make.wallet(org);
    return {
      key: org.key,
      body: { walletId, name: 'Audited policy', maxTransactionAmount: '20.00', requireHumanApproval: false },
      organizationId: org.organizationId,
    };
  },
  updatePolicy: async (make) => {
    const org = await make.organization();
    return {
      key: org.key,
      params: { id: await make.policy(org) },
      body: { maxTransactionAmount: '30.00' },
      organizationId: org.organizationId,
    };
  },
  deletePolicy: async (make) => {
    const org = await make.organization();
    return { key: org.key, params: { id: await make.policy(org) }, organizationId: org.organizationId };
  },
  approveApproval: async (make) => {
    const org = await make.organization();
    const { approvalId, approverKey } = await make.pendingApproval(org);
    return { key: approverKey, params: { id: approvalId }, organizationId: org.organizationId };
  },
  rejectApproval: async (make) => {
    const org = await make.organization();
    const { approvalId, approverKey } = await make.pendingApproval(org);
    return {
      key: approverKey,
      params: { id: approvalId },
      body: { reason: 'Not in budget' },
      organizationId: org.organizationId,
    };
  },
  acceptTos: async (make) => {
    const org = await make.organization();
    return { key: org.key, body: { tosVersion: '2026-01' }, organizationId: org.organizationId };
  },
  submitKyb: async (make) => {
    const org = await make.organization();
    return { key: org.key, body: KYB_BODY, organizationId: org.organizationId };
  },
  addBillingMethod: async (make) => {
    const org = await make.organization();
    return { key: org.key, body: { type: 'card', number: GOOD_CARD }, organizationId: org.organizationId };
  },
  activateProduction: async (make) => {
    const org = await make.organization();
    await make.readyForActivation(org);
    return { key: org.key, organizationId: org.organizationId };
  },
  createWebhook: async (make) => {
    const org = await make.organization();
    return { key: org.key, body: { url: HOOK_URL, events: ['*'] }, organizationId: org.organizationId };
  },
  deleteWebhook: async (make, service) => {
    const org = await make.organization();
    return { key: org.key, params: { id: await webhookOf(service, org.key) }, organizationId: org.organizationId };
  },
  testWebhook: async (make, service) => {
    const org = await make.organization();
    return { key: org.key, params: { id: await webhookOf(service, org.key) }, organizationId: org.organizationId };
  },
  retryWebhookDelivery: async (make, service) => {
    const org = await make.organization();
    const id = await webhookOf(service, org.key);
    const tested = await service.call('POST', `/v1/webhooks/${id}/test`, { key: org.key });
    return {
      key: org.key,
      params: { id, deliveryId: tested.body.deliveryId as string },
      organizationId: org.organizationId,
    };
  },
  createBankAccount: async (make) => {
    const org = await make.organization();
    return { key: org.key, body: BANK_ACCOUNT, organizationId: org.organizationId };
  },
  verifyBankAccount: async (make, service) => {
    const org = await make.organization();
    return {
      key: org.key,
      params: { id: await bankAccountOf(service, org.key) },
      body: { amounts: ['0.32', '0.45'] },
      organizationId: org.organizationId,
    };
  },
  deleteBankAccount: async (make, service) => {
    const org = await make.organization();
    return { key: org.key, params: { id: await bankAccountOf(service, org.key) }, organizationId: org.organizationId };
  },
  createDeposit: async (make) => {
    const org = await make.organization();
    return {
      key: org.key,
      body: { walletId: org.mainWalletId, amount: '100.00', currency: 'USD', source: ACH_SOURCE },
      organizationId: org.organizationId,
    };
  },
  createWithdrawal: async (make, service) => {
    const org = await make.organization();
    await fundMain(service, org);
    return {
      key: org.key,
      body: { walletId: org.mainWalletId, amount: '10.00', currency: 'USD', destination: ACH_SOURCE },
      organizationId: org.organizationId,
    };
  },
  createInternalTransfer: async (make) => {
    const org = await make.organization();
    const { payer, payee } = await make.walletPair(org);
    return {
      key: org.key,
      body: { fromWalletId: payer, toWalletId: payee, amount: '5.00' },
      organizationId: org.organizationId,
    };
  },
  cancelTransfer: async (make, service) => {
    const org = await make.organization();
    await fundMain(service, org);
    const id = await transferOf(service, org, 'withdraw');
    // The workflow submits it at once (PENDING); the test helper does if the workflow has not yet.
    const advanced = await service.call('POST', `/v1/test-helpers/transfers/${id}/advance`, {
      key: org.key,
      body: { to: 'PENDING' },
    });
    const now = await service.call('GET', `/v1/transfers/${id}`, { key: org.key });
    if (now.body.status !== 'PENDING') throw new Error(`transfer not pending: ${advanced.text} ${now.text}`);
    return { key: org.key, params: { id }, organizationId: org.organizationId };
  },
  advanceTransfer: async (make, service) => {
    const org = await make.organization();
    return {
      key: org.key,
      params: { id: await transferOf(service, org, 'deposit') },
      body: { to: 'COMPLETED' },
      organizationId: org.organizationId,
    };
  },
  // A payment: the payer's one entry is payment.created (the seller's invoice.pay is in its own log).
  payInvoiceFromWallet: async (make, service) => {
    const seller = await make.organization();
    const payer = await make.organization();
    await fundMain(service, payer);
    const invoice = await invoiceSeed(service).finalized({
      key: seller.key,
      walletId: seller.mainWalletId,
      total: '5.00',
    });
    return {
      key: payer.key,
      params: { slug: invoice.slug },
      body: { walletId: payer.mainWalletId },
      organizationId: payer.organizationId,
    };
  },
  ...CARD_CASES(),
  ...CUSTOMER_CASES(),
  ...INVOICE_CASES(),
  ...PAYMENT_LINK_CASES(),
  ...DISPUTE_CASES(),
};

/** The invoices area: an invoice of a fresh organization's main wallet, in the state the route needs. */
function INVOICE_CASES(): Record<string, Case> {
  const CARD = { type: 'card', number: '4242424242424242', expMonth: 12, expYear: 2030 };
  const must = async (response: Promise<ApiResponse>, status: number) => {
    const answered = await response;
    if (answered.status !== status) throw new Error(`invoice preparation failed: ${answered.text}`);
    return answered.body;
  };
  const customerOf = async (service: TestService, key: string, withMethod = false) => {
    const email = `billed-${randomBytes(6).toString('hex')}@example.com`;
    const customer = await must(service.call('POST', '/v1/customers', { key, body: { email, name: 'Billed' } }), 201);
    if (withMethod)
      await must(
        service.call('POST', `/v1/test-helpers/customers/${customer.id}/payment-methods`, { key, body: {} }),
        201,
      );
    return customer.id as string;
  };
  const invoiceOf = async (make: AuditFactories, service: TestService, state: 'DRAFT' | 'FINALIZED' | 'PAID') => {
    const org = await make.organization();
    const body = {
      walletId: org.mainWalletId,
      customerId: await customerOf(service, org.key),
      lineItems: [{ description: 'Audited', unitPrice: '20.00' }],
    };
    const draft = await must(service.call('POST', '/v1/invoices', { key: org.key, body }), 201);
    if (state === 'DRAFT') return { org, id: draft.id as string, slug: '' };
    const finalized = await must(service.call('POST', `/v1/invoices/${draft.id}/finalize`, { key: org.key }), 200);
    if (state === 'PAID') {
      await must(service.call('POST', `/v1/invoices/pay/${finalized.slug}/payments`, { body: CARD }), 200);
      await fundMain(service, org);
    }
    return { org, id: draft.id as string, slug: finalized.slug as string };
  };
  const byKey =
    (state: 'DRAFT' | 'FINALIZED' | 'PAID'): Case =>
    async (make, service) => {
      const { org, id } = await invoiceOf(make, service, state);
      return { key: org.key, params: { id }, organizationId: org.organizationId };
    };
  const bySlug =
    (body?: unknown): Case =>
    async (make, service) => {
      const { org, slug } = await invoiceOf(make, service, 'FINALIZED');
      return {
        key: '',
        params: { slug },
        ...(body ? { body } : {}),
        organizationId: org.organizationId,
        // No key acts: the invoice's customer does, on the hosted page.
        actor: { actorType: 'USER', actorId: /^cus_/ },
      };
    };
  return {
    createInvoice: async (make, service) => {
      const org = await make.organization();
      return {
        key: org.key,
        body: {
          walletId: org.mainWalletId,
          customerId: await customerOf(service, org.key),
          lineItems: [{ description: 'Audited', quantity: 2, unitPrice: '5.00' }],
        },
        organizationId: org.organizationId,
      };
    },
    finalizeInvoice: byKey('DRAFT'),
    createInvoiceCheckout: byKey('FINALIZED'),
    voidInvoice: byKey('FINALIZED'),
    refundInvoice: byKey('PAID'),
    chargeCustomer: async (make, service) => {
      const org = await make.organization();
      return {
        key: org.key,
        body: {
          walletId: org.mainWalletId,
          customerId: await customerOf(service, org.key, true),
          amount: '12.00',
          description: 'Audited charge',
        },
        organizationId: org.organizationId,
      };
    },
    createPayableInvoiceCheckout: bySlug(),
    payInvoice: bySlug(CARD),
    createInvoiceUsdcDeposit: bySlug(),
    createTestUsdcIncoming: async (make) => {
      const org = await make.organization();
      const address = `0x${randomBytes(20).toString('hex')}`;
      return { key: org.key, body: { address, amount: '10.00' }, organizationId: org.organizationId };
    },
    cancelInvoiceRecurring: async (make, service) => {
      const org = await make.organization();
      const body = {
        walletId: org.mainWalletId,
        customerId: await customerOf(service, org.key, true),
        amount: '12.00',
        description: 'Audited subscription',
        recurring: { interval: 'yearly' },
      };
      const first = await must(service.call('POST', '/v1/invoices/charge', { key: org.key, body }), 201);
      return { key: org.key, params: { id: first.id as string }, organizationId: org.organizationId };
    },
  };
}

/** The customers area: a customer (and a saved method or an open setup link) of a fresh organization. */
function CUSTOMER_CASES(): Record<string, Case> {
  const customerOf = async (service: TestService, key: string, withMethod = false): Promise<string> => {
    const made = await service.call('POST', '/v1/customers', {
      key,
      body: { email: `audited-${randomBytes(6).toString('hex')}@example.com`, name: 'Audited customer' },
    });
    if (made.status !== 201) throw new Error(`customer creation failed: ${made.text}`);
    if (withMethod) await methodOf(service, key, made.body.id as string);
    return made.body.id as string;
  };
  const methodOf = async (service: TestService, key: string, customerId: string): Promise<string> => {
    const saved = await service.call('POST', `/v1/test-helpers/customers/${customerId}/payment-methods`, {
      key,
      body: {},
    });
    if (saved.status !== 201) throw new Error(`payment method failed: ${saved.text}`);
    return saved.body.id as string;
  };
  const keyed = async (make: AuditFactories, service: TestService, withMethod = false) => {
    const org = await make.organization();
    return { org, customerId: await customerOf(service, org.key, withMethod) };
  };
  return {
    createCustomer: async (make) => {
      const org = await make.organization();
      return {
        key: org.key,
        body: { email: 'audited@example.com', name: 'Audited' },
        organizationId: org.organizationId,
      };
    },
    updateCustomer: async (make, service) => {
      const { org, customerId } = await keyed(make, service);
      return {
        key: org.key,
        params: { id: customerId },
        body: { name: 'Renamed' },
        organizationId: org.organizationId,
      };
    },
    createPaymentMethodSetupUrl: async (make, service) => {
      const { org, customerId } = await keyed(make, service);
      return { key: org.key, params: { id: customerId }, organizationId: org.organizationId };
    },
    createPaymentUpdateUrl: async (make, service) => {
      const { org, customerId } = await keyed(make, service, true);
      return { key: org.key, params: { id: customerId }, organizationId: org.organizationId };
    },
    attachTestPaymentMethod: async (make, service) => {
      const { org, customerId } = await keyed(make, service);
      return { key: org.key, params: { id: customerId }, body: {}, organizationId: org.organizationId };
    },
    deletePaymentMethod: async (make, service) => {
      const { org, customerId } = await keyed(make, service);
      const paymentMethodId = await methodOf(service, org.key, customerId);
      return { key: org.key, params: { id: customerId, paymentMethodId }, organizationId: org.organizationId };
    },
    completePaymentMethodSession: async (make, service) => {
      const { org, customerId } = await keyed(make, service);
      const link = await service.call('POST', `/v1/customers/${customerId}/payment-methods/setup`, { key: org.key });
      if (link.status !== 201) throw new Error(`setup link failed: ${link.text}`);
      return {
        key: '',
        params: { token: new URL(link.body.url as string).pathname.split('/').pop()! },
        body: { type: 'card', number: '4242424242424242', expMonth: 12, expYear: 2030 },
        organizationId: org.organizationId,
        // No key acts: the customer does, on the hosted page.
        actor: { actorType: 'USER', actorId: /^cus_/ },
      };
    },
  };
}

/** ACH settles after 3 s at the default TIME_SCALE: long enough for a cancel from PENDING. */
const ACH_SOURCE = { type: 'ACH', routingNumber: '021000021', accountNumber: '000123456789' };
async function fundMain(service: TestService, org: { key: string; mainWalletId: string }): Promise<void> {
  const funded = await service.call('POST', `/v1/wallets/${org.mainWalletId}/fund`, {
    key: org.key,
    body: { amount: '100.00' },
  });
  if (funded.status !== 200) throw new Error(`funding failed: ${funded.text}`);
}
async function transferOf(
  service: TestService,
  org: { key: string; mainWalletId: string },
  kind: 'deposit' | 'withdraw',
): Promise<string> {
  const body = {
    walletId: org.mainWalletId,
    amount: '50.00',
    currency: 'USD',
    [kind === 'deposit' ? 'source' : 'destination']: ACH_SOURCE,
  };
  const response = await service.call('POST', `/v1/transfers/${kind}`, { key: org.key, body });
  if (response.status !== 202 && response.status !== 201) throw new Error(`transfer failed: ${response.text}`);
  return response.body.id as string;
}

/** Cards (docs/api.md "Cards"): a card on the funded main wallet, authorizations by the sandbox test helper. */
function CARD_CASES(): Record<string, Case> {
  const cardOf = async (service: TestService, org: { key: string; mainWalletId: string }) => {
    await fundMain(service, org);
    const response = await service.call('POST', '/v1/cards', {
      key: org.key,
      body: { walletId: org.mainWalletId, type: 'PERSISTENT' },
    });
    if (response.status !== 201) throw new Error(`card creation failed: ${response.text}`);
    return response.body.id as string;
  };
  const authorizationOf = async (
    service: TestService,
    org: { key: string; mainWalletId: string },
    captured = false,
  ) => {
    const cardId = await cardOf(service, org);
    const response = await service.call('POST', `/v1/test-helpers/cards/${cardId}/authorizations`, {
      key: org.key,
      body: { amount: '10.00', merchant: { name: 'Shop', category: '5734' } },
    });
    if (response.body?.status !== 'APPROVED') throw new Error(`authorization failed: ${response.text}`);
    if (captured)
      await service.call('POST', `/v1/test-helpers/authorizations/${response.body.id}/capture`, {
        key: org.key,
        body: {},
      });
    return response.body.id as string;
  };
  const onCard =
    (body?: unknown): Case =>
    async (make, service) => {
      const org = await make.organization();
      return {
        key: org.key,
        params: { id: await cardOf(service, org) },
        ...(body ? { body } : {}),
        organizationId: org.organizationId,
      };
    };
  return {
    createCardholder: async (make) => {
      const org = await make.organization();
      return {
        key: org.key,
        body: {
          name: 'Audited holder',
          billingAddress: { line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
        },
        organizationId: org.organizationId,
      };
    },
    createCard: async (make) => {
      const org = await make.organization();
      return {
        key: org.key,
        body: { walletId: org.mainWalletId, type: 'PERSISTENT' },
        organizationId: org.organizationId,
      };
    },
    updateCard: onCard({ spendingLimits: [{ amount: '10.00', interval: 'daily' }] }),
    freezeCard: onCard(),
    unfreezeCard: async (make, service) => {
      const org = await make.organization();
      const id = await cardOf(service, org);
      await service.call('POST', `/v1/cards/${id}/freeze`, { key: org.key });
      return { key: org.key, params: { id }, organizationId: org.organizationId };
    },
    cancelCard: onCard(),
    createTestAuthorization: onCard({ amount: '5.00', merchant: { name: 'Shop', category: '5734' } }),
    captureTestAuthorization: async (make, service) => {
      const org = await make.organization();
      return {
        key: org.key,
        params: { id: await authorizationOf(service, org) },
        body: { amount: '5.00' },
        organizationId: org.organizationId,
      };
    },
    reverseTestAuthorization: async (make, service) => {
      const org = await make.organization();
      return { key: org.key, params: { id: await authorizationOf(service, org) }, organizationId: org.organizationId };
    },
    refundTestAuthorization: async (make, service) => {
      const org = await make.organization();
      return {
        key: org.key,
        params: { id: await authorizationOf(service, org, true) },
        body: { amount: '5.00' },
        organizationId: org.organizationId,
      };
    },
  };
}

/** Payment links: a link on a freshly funded wallet; the public claim is audited as a fixed actor (SYSTEM, payment-link-claimant: the claimant is unknown). */
function PAYMENT_LINK_CASES(): Record<string, Case> {
  const linkOf = async (make: AuditFactories, service: TestService) => {
    const org = await make.organization();
    const walletId = await make.wallet(org, '50.00');
    const response = await service.call('POST', '/v1/payment-links', {
      key: org.key,
      body: { walletId, amount: '10.00' },
    });
    if (response.status !== 201) throw new Error(`payment link creation failed: ${response.text}`);
    return { org, link: response.body as { id: string; slug: string } };
  };
  return {
    createPaymentLink: async (make) => {
      const org = await make.organization();
      return {
        key: org.key,
        body: { walletId: await make.wallet(org, '50.00'), amount: '10.00' },
        organizationId: org.organizationId,
      };
    },
    updatePaymentLink: async (make, service) => {
      const { org, link } = await linkOf(make, service);
      return {
        key: org.key,
        params: { id: link.id },
        body: { status: 'CANCELLED' },
        organizationId: org.organizationId,
      };
    },
    claimPaymentLink: async (make, service) => {
      const { org, link } = await linkOf(make, service);
      const claimant = await make.organization();
      return {
        key: '',
        params: { slug: link.slug },
        body: { method: 'wallet', destination: { type: 'WALLET', walletId: claimant.mainWalletId } },
        organizationId: org.organizationId,
        actor: { actorType: 'SYSTEM', actorId: /^payment-link-claimant$/ },
      };
    },
  };
}

/**
 * Disputes: a payment from one organization to another, disputed by the payer; the respondent's
 * answer and the operator's outcome each leave one entry in the organization named (the other
 * party's entry of an opening or a resolution is in its own organization).
 */
function DISPUTE_CASES(): Record<string, Case> {
  const paid = async (make: AuditFactories, service: TestService) => {
    const payer = await make.organization();
    const payee = await make.organization();
    const from = await make.wallet(payer, '50.00');
    const response = await service.call('POST', '/v1/payments', {
      key: payer.key,
      body: payment(from, payee.mainWalletId),
    });
    if (response.status !== 200) throw new Error(`payment failed: ${response.text}`);
    return { payer, payee, paymentId: response.body.id as string };
  };
  const disputed = async (make: AuditFactories, service: TestService) => {
    const world = await paid(make, service);
    const response = await service.call('POST', '/v1/disputes', {
      key: world.payer.key,
      body: { transactionId: world.paymentId, type: 'FRAUD', amount: '5.00', reason: 'Audited' },
    });
    if (response.status !== 201) throw new Error(`dispute failed: ${response.text}`);
    return { ...world, disputeId: response.body.id as string };
  };
  return {
    openDispute: async (make, service) => {
      const { payer, paymentId } = await paid(make, service);
      return {
        key: payer.key,
        body: { transactionId: paymentId, type: 'FRAUD', amount: '5.00', reason: 'Audited' },
        organizationId: payer.organizationId,
      };
    },
    respondToDispute: async (make, service) => {
      const { payee, disputeId } = await disputed(make, service);
      return {
        key: payee.key,
        params: { id: disputeId },
        body: { response: 'Audited answer' },
        organizationId: payee.organizationId,
      };
    },
    resolveDispute: async (make, service) => {
      const { payer, disputeId } = await disputed(make, service);
      return {
        key: service.adminKey,
        params: { id: disputeId },
        body: { outcome: 'RESOLVED_AGENT' },
        organizationId: payer.organizationId,
      };
    },
  };
}

const BANK_ACCOUNT = {
  routingNumber: '011000015',
  accountNumber: '000123456789',
  accountName: 'Audited account',
  accountType: 'CHECKING',
};
async function bankAccountOf(service: TestService, key: string): Promise<string> {
  const response = await service.call('POST', '/v1/bank-accounts', { key, body: BANK_ACCOUNT });
  if (response.status !== 201) throw new Error(`bank account creation failed: ${response.text}`);
  return response.body.id as string;
}

/** Nothing listens there: deliveries fail and are retried in the background, which this file ignores. */
const HOOK_URL = 'http://127.0.0.1:9/hook';
async function webhookOf(service: TestService, key: string): Promise<string> {
  const response = await service.call('POST', '/v1/webhooks', { key, body: { url: HOOK_URL, events: ['*'] } });
  if (response.status !== 201) throw new Error(`webhook creation failed: ${response.text}`);
  return response.body.id as string;
}

const MUTATING = ROUTES.filter((route) => route.mutating);

/** The route's path with its `{param}` placeholders filled (URL-encoded). */
function pathOf(route: RouteDefinition, params: Record<string, string> = {}): string {
  return fillPath(route.path, (name) => {
    const value = params[name];
    if (value === undefined) throw new Error(`case for ${route.operation} gives no value for {${name}}`);
    return encodeURIComponent(value);
  });
}

/** Every audit entry of the organization, both environments. */
async function entriesOf(service: TestService, organizationId: string): Promise<AuditItem[]> {
  return [
    ...(await auditPartition(service.table, organizationId, 'SANDBOX')),
    ...(await auditPartition(service.table, organizationId, 'PRODUCTION')),
  ];
}

describe('audit coverage: every mutating route writes exactly one audit entry', () => {
  let service: TestService;
  let make: AuditFactories;
  beforeAll(async () => {
    service = await startTestService({
      WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    });
    make = auditFactories(service);
  });
  afterAll(() => service.close());

  it('has a coverage case for every mutating route, and no case for a route that does not exist', () => {
    const operations = MUTATING.map((route) => route.operation);
    expect(operations.filter((operation) => !(operation in CASES))).toEqual([]);
    expect(Object.keys(CASES).filter((operation) => !operations.includes(operation))).toEqual([]);
  });

  it('names a known audit action on every mutating route', () => {
    const unnamed = MUTATING.filter(
      (route) => route.audit === undefined || !(AUDIT_ACTIONS as readonly string[]).includes(route.audit),
    ).map(routeKeyOf);
    expect(unnamed).toEqual([]);
  });

  it.each(MUTATING.map((route) => [routeKeyOf(route), route] as const))(
    '%s leaves exactly one entry with its audit action',
    async (_routeKey, route) => {
      // Prepare
      const prepare = CASES[route.operation];
      if (!prepare) throw new Error(`no audit coverage case for ${route.operation}: add one to CASES`);
      const prepared = await prepare(make, service);
      const knownOrganization = typeof prepared.organizationId === 'string' ? prepared.organizationId : undefined;
      // Movements' audit entries are projected from the journal (visible within 2 s): the
      // preparation's are in before counting, and the call's are in before reading what it added.
      await service.projected();
      const before = new Set(
        knownOrganization ? (await entriesOf(service, knownOrganization)).map((entry) => entry.id) : [],
      );

      // Act
      const response = await service.call(route.method, pathOf(route, prepared.params), {
        key: prepared.key,
        ...(prepared.body !== undefined ? { body: prepared.body } : {}),
      });
      await service.projected();

      // Assess
      expect(response.status, response.text).toBeGreaterThanOrEqual(200);
      expect(response.status, response.text).toBeLessThan(300);
      const organizationId = knownOrganization ?? (prepared.organizationId as (r: ApiResponse) => string)(response);
      const added = (await entriesOf(service, organizationId)).filter((entry) => !before.has(entry.id));
      expect(
        added.map((entry) => entry.action),
        JSON.stringify(added),
      ).toEqual([route.audit]);
      expect(added[0]).toMatchObject({
        organizationId,
        actorType: prepared.actor?.actorType ?? 'API_KEY',
        actorId: expect.stringMatching(prepared.actor?.actorId ?? /^key_/),
        resourceId: expect.stringMatching(/\S/),
      });
    },
  );
});
