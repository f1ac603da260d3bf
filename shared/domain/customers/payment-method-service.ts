import { AUDIT, type AuditAction } from '../audit/actions.js';
import { auditChange, eventChange } from '../audit/audit.js';
import type { AuditChange } from '../audit/ports.js';
import { ApiError, notFound } from '../errors.js';
import { HOSTED_PATHS } from '../hosted-urls.js';
import { randomBase62 } from '../ids.js';
import type { PaymentMethodInput, PaymentMethodType } from '../payment-methods/processor.js';
import { sandboxMethodInput, type SandboxMethodRequest } from '../payment-methods/sandbox-processor.js';
import { requireConfigured } from '../payment-methods/unconfigured-processor.js';
import type { Actor, OrganizationScope, RequestContext } from '../tenancy.js';
import type { Page, PageRequest } from '../types.js';
import {
  defaultAfterRemoval,
  MAX_PAYMENT_METHODS,
  SESSION_TOKEN_LENGTH,
  sessionExpiry,
  sessionStatus,
  tokenHashOf,
} from './customer-rules.js';
import { presentPaymentMethod, type PaymentMethodSessionView } from './customer-view.js';
import { commitOnCustomer } from './customer-commit.js';
import type { CustomerChange, CustomerServiceDeps } from './ports.js';
import {
  paymentMethodNumberContext,
  type Customer,
  type PaymentMethod,
  type PaymentMethodSession,
  type SessionKind,
} from './types.js';

const RESOURCE = 'customer';
const SESSION_TOKEN = new RegExp(`^[A-Za-z0-9]{${SESSION_TOKEN_LENGTH}}$`);

/** What the invoices area charges: never the number, the processor's handle instead. */
export interface ChargeableMethod {
  id: string;
  type: PaymentMethodType;
  brand: string;
  last4: string;
  processorToken: string;
}

type PaymentMethodEvent =
  'customer.payment_method.saved' | 'customer.payment_method.updated' | 'customer.payment_method.removed';

/**
 * Payment methods of customers: setup and update links (a token of ~190 random bits, stored only
 * as its SHA-256, single use, 24 hours), saving through the processor port (the number sealed
 * under the method's id, never in an event, audit entry, log or error), listing, removal and the
 * default (the first saved; after removing the default, the newest remaining one).
 */
export function createPaymentMethodService(
  deps: CustomerServiceDeps,
  load: (ctx: RequestContext, id: string) => Promise<Customer>,
) {
  const { store, clock, ids, sealer, processors } = deps;

  const withDefault = (method: PaymentMethod, defaultId: string | null) => ({
    ...method,
    isDefault: method.id === defaultId,
  });

  const methodEvent = (type: PaymentMethodEvent, method: PaymentMethod, defaultId: string | null, at: string) =>
    eventChange(
      {
        organizationId: method.organizationId,
        environment: method.environment,
        type,
        data: presentPaymentMethod(withDefault(method, defaultId)),
        createdAt: at,
      },
      ids,
    );

  const audit = (actor: Actor, action: AuditAction, customer: Customer, at: string, metadata: object) =>
    auditChange(
      {
        organizationId: customer.organizationId,
        environment: customer.environment,
        actor,
        action,
        resource: RESOURCE,
        resourceId: customer.id,
        metadata: { ...metadata },
        ...(customer.walletId ? { walletId: customer.walletId } : {}),
        createdAt: at,
      },
      ids,
    );

  /**
   * Tokenizes (validation first), seals the number, and saves the method: as the default when it
   * is the first, or when it replaces the default (`replace`: an update link). `session`: the link
   * it completes, in the same transaction.
   */
  async function save(
    customer: Customer,
    input: PaymentMethodInput,
    how: { actor: Actor; action: AuditAction; replace: boolean; sessionTokenHash?: string },
  ): Promise<PaymentMethod & { isDefault: boolean }> {
    const tokenized = await processors(customer.environment).tokenize(input);
    const id = ids('paymentMethod');
    const at = clock.now().toISOString();
    const number = input.type === 'card' ? input.number : input.accountNumber;
    const method: PaymentMethod = {
      id,
      organizationId: customer.organizationId,
      environment: customer.environment,
      customerId: customer.id,
      walletId: customer.walletId,
      type: tokenized.type,
      brand: tokenized.brand,
      last4: tokenized.last4,
      ...(tokenized.expMonth !== undefined ? { expMonth: tokenized.expMonth } : {}),
      ...(tokenized.expYear !== undefined ? { expYear: tokenized.expYear } : {}),
      ...(input.type === 'us_bank_account'
        ? {
            routingNumber: input.routingNumber,
            accountHolderName: input.accountHolderName,
            accountType: input.accountType,
          }
        : {}),
      numberSealed: await sealer.seal(number, paymentMethodNumberContext(id)),
      processorToken: tokenized.processorToken,
      createdAt: at,
    };
    const defaultId = await commitOnCustomer(store, customer, customer.id, async (current) => {
      const replaced = how.replace ? current.defaultPaymentMethodId : null;
      const count = current.paymentMethodCount + 1 - (replaced ? 1 : 0);
      if (count > MAX_PAYMENT_METHODS)
        throw new ApiError(
          'INVALID_STATE',
          `A customer has at most ${MAX_PAYMENT_METHODS} payment methods; remove one first.`,
          { paymentMethodCount: current.paymentMethodCount },
        );
      const defaultId = how.replace || current.defaultPaymentMethodId === null ? id : current.defaultPaymentMethodId;
      const changes: (CustomerChange | AuditChange)[] = [
        { type: 'putPaymentMethod', paymentMethod: method },
        ...(replaced ? [{ type: 'removePaymentMethod' as const, paymentMethodId: replaced, removedAt: at }] : []),
        {
          type: 'setCustomerPaymentMethods',
          customerId: current.id,
          version: current.version,
          paymentMethodCount: count,
          defaultPaymentMethodId: defaultId,
          updatedAt: at,
        },
        ...(how.sessionTokenHash
          ? [
              {
                type: 'completePaymentMethodSession' as const,
                tokenHash: how.sessionTokenHash,
                paymentMethodId: id,
                completedAt: at,
              },
            ]
          : []),
        methodEvent(
          how.replace && replaced ? 'customer.payment_method.updated' : 'customer.payment_method.saved',
          method,
          defaultId,
          at,
        ),
        audit(how.actor, how.action, current, at, {
          paymentMethodId: id,
          type: method.type,
          brand: method.brand,
          last4: method.last4,
          ...(replaced ? { replacedPaymentMethodId: replaced } : {}),
        }),
      ];
      return { changes, result: defaultId };
    });
    return withDefault(method, defaultId);
  }

  /** The session a public token names: a malformed or unknown token answers PAYMENT_METHOD_SESSION_NOT_FOUND. */
  async function sessionOf(token: string): Promise<{ session: PaymentMethodSession; customer: Customer }> {
    const missing = () => new ApiError('PAYMENT_METHOD_SESSION_NOT_FOUND', 'No such payment-method link.');
    if (!SESSION_TOKEN.test(token)) throw missing();
    const session = await store.getPaymentMethodSession(await tokenHashOf(token));
    if (!session) throw missing();
    const customer = await store.getCustomer(session, session.customerId);
    if (!customer) throw missing();
    return { session, customer };
  }

  async function createLink(ctx: RequestContext, action: AuditAction, customerId: string, kind: SessionKind) {
    const customer = await load(ctx, customerId);
    // A link whose form could never save (no processor in the environment): refused, not sent.
    requireConfigured(processors(customer.environment));
    if (kind === 'update' && customer.defaultPaymentMethodId === null)
      throw new ApiError('INVALID_STATE', 'The customer has no payment method to update; send a setup link instead.');
    const token = randomBase62(SESSION_TOKEN_LENGTH);
    const now = clock.now();
    const at = now.toISOString();
    const session: PaymentMethodSession = {
      tokenHash: await tokenHashOf(token),
      kind,
      organizationId: customer.organizationId,
      environment: customer.environment,
      customerId: customer.id,
      status: 'OPEN',
      createdAt: at,
      expiresAt: sessionExpiry(now),
      completedAt: null,
      paymentMethodId: null,
    };
    await store.commit([
      { type: 'putPaymentMethodSession', session },
      audit(ctx.actor, action, customer, at, { kind, expiresAt: session.expiresAt }),
    ]);
    return { url: deps.hostedUrl(HOSTED_PATHS.paymentMethodSession(token)), expiresAt: session.expiresAt };
  }

  return {
    createSetupLink: (ctx: RequestContext, action: AuditAction, customerId: string) =>
      createLink(ctx, action, customerId, 'setup'),

    createUpdateLink: (ctx: RequestContext, action: AuditAction, customerId: string) =>
      createLink(ctx, action, customerId, 'update'),

    /** Public (the hosted page): what the link is for; never ids or metadata. */
    async getSession(token: string): Promise<PaymentMethodSessionView> {
      const { session, customer } = await sessionOf(token);
      const current =
        session.kind === 'update' && customer.defaultPaymentMethodId
          ? await store.getPaymentMethod(customer.id, customer.defaultPaymentMethodId)
          : undefined;
      return {
        kind: session.kind,
        status: sessionStatus(session, clock.now()),
        merchantName: (await store.organizationName(customer.organizationId)) ?? '',
        customerName: customer.name,
        ...(current ? { currentMethod: { type: current.type, brand: current.brand, last4: current.last4 } } : {}),
        expiresAt: session.expiresAt,
        environment: customer.environment,
      };
    },

    /**
     * Public (the hosted page's form): saves the method the customer typed. A setup link adds it
     * (the default if first); an update link makes it the default and removes the one it replaces.
     * The link is used up in the same transaction; used or expired: INVALID_STATE. The customer
     * acts, not a key: the audit entry's actor is the customer (USER) at the caller's address.
     */
    async completeSession(ctx: RequestContext, action: AuditAction, token: string, input: PaymentMethodInput) {
      const { session, customer } = await sessionOf(token);
      const status = sessionStatus(session, clock.now());
      if (status !== 'OPEN')
        throw new ApiError('INVALID_STATE', `This link is ${status.toLowerCase()}; ask for a new one.`, { status });
      const actor: Actor = { actorType: 'USER', actorId: customer.id, ipAddress: ctx.actor.ipAddress };
      const replace = session.kind === 'update';
      return save(customer, input, {
        actor,
        action: replace ? AUDIT.customer.updatePaymentMethod : action,
        replace,
        sessionTokenHash: session.tokenHash,
      });
    },

    /** Sandbox test helper: saves a method as the setup page would, without the page. */
    async attachTestMethod(
      ctx: RequestContext,
      action: AuditAction,
      customerId: string,
      request: SandboxMethodRequest,
    ) {
      const customer = await load(ctx, customerId);
      const input = sandboxMethodInput(request, clock.now());
      return save(customer, input, { actor: ctx.actor, action, replace: false });
    },

    async listMethods(ctx: RequestContext, customerId: string, page: PageRequest) {
      const customer = await load(ctx, customerId);
      const found: Page<PaymentMethod> = await store.listPaymentMethods(customer.id, page);
      return { ...found, items: found.items.map((method) => withDefault(method, customer.defaultPaymentMethodId)) };
    },

    /** Removes a method; removing the default makes the newest remaining one the default (or none). */
    async removeMethod(ctx: RequestContext, action: AuditAction, customerId: string, paymentMethodId: string) {
      const customer = await load(ctx, customerId);
      const method = await store.getPaymentMethod(customer.id, paymentMethodId);
      if (!method) throw notFound('PAYMENT_METHOD_NOT_FOUND', paymentMethodId);
      const at = clock.now().toISOString();
      await commitOnCustomer(store, customer, customer.id, async (current) => {
        // The live methods are read after the customer, in every round: a method removed or saved
        // meanwhile moved the version, so the successor is chosen from what is live when it commits.
        const remaining = (await store.listPaymentMethods(customer.id, { limit: MAX_PAYMENT_METHODS + 1 })).items;
        const nextDefault = defaultAfterRemoval(current.defaultPaymentMethodId, remaining, method.id);
        const changes: (CustomerChange | AuditChange)[] = [
          { type: 'removePaymentMethod', paymentMethodId: method.id, removedAt: at },
          {
            type: 'setCustomerPaymentMethods',
            customerId: current.id,
            version: current.version,
            paymentMethodCount: Math.max(0, current.paymentMethodCount - 1),
            defaultPaymentMethodId: nextDefault,
            updatedAt: at,
          },
          methodEvent('customer.payment_method.removed', method, null, at),
          audit(ctx.actor, action, current, at, {
            paymentMethodId: method.id,
            type: method.type,
            last4: method.last4,
            defaultPaymentMethodId: nextDefault,
          }),
        ];
        return { changes, result: undefined };
      });
      return withDefault(method, null);
    },

    /**
     * For the invoices area: the method a charge uses (the given one, else the default), with the
     * processor's token; PAYMENT_METHOD_NOT_FOUND when there is none. Visibility by key is the
     * caller's (getCustomer); here the organization environment only.
     */
    async paymentMethodForCharge(
      scope: OrganizationScope,
      customerId: string,
      paymentMethodId?: string,
    ): Promise<ChargeableMethod> {
      const customer = await store.getCustomer(scope, customerId);
      if (!customer || customer.environment !== scope.environment) throw notFound('CUSTOMER_NOT_FOUND', customerId);
      const id = paymentMethodId ?? customer.defaultPaymentMethodId;
      const method = id ? await store.getPaymentMethod(customer.id, id) : undefined;
      if (!method) throw notFound('PAYMENT_METHOD_NOT_FOUND', paymentMethodId);
      return {
        id: method.id,
        type: method.type,
        brand: method.brand,
        last4: method.last4,
        processorToken: method.processorToken,
      };
    },
  };
}
