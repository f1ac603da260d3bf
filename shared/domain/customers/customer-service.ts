import { scopeOf } from '../access.js';
import type { AuditAction } from '../audit/actions.js';
import { auditChange, eventChange } from '../audit/audit.js';
import type { RequestContext } from '../tenancy.js';
import type { Page, PageRequest } from '../types.js';
import { accessibleCustomer } from './access.js';
import { commitOnCustomer } from './customer-commit.js';
import { emailKey } from './customer-rules.js';
import { presentCustomer } from './customer-view.js';
import { createPaymentMethodService } from './payment-method-service.js';
import type { CustomerFields, CustomerServiceDeps } from './ports.js';
import type { Customer, Metadata } from './types.js';

export interface CustomerInput {
  email: string;
  name: string;
  phone?: string | undefined;
  companyName?: string | undefined;
  metadata?: Metadata | undefined;
}

const RESOURCE = 'customer';

/** `{[field]: value}`, or nothing for an absent or removed (null) value. */
const optional = <K extends string, V>(field: K, value: V | null | undefined) =>
  (value === null || value === undefined ? {} : { [field]: value }) as Partial<Record<K, V>>;

/**
 * Customers (issue 21) and, through payment-method-service.ts, their payment methods. A customer
 * created with an agent key belongs to that key's wallet: agent keys see only their wallet's
 * customers (others answer CUSTOMER_NOT_FOUND), organization keys see all.
 */
export type { CustomerServiceDeps };

export function createCustomerService(deps: CustomerServiceDeps) {
  const { store, clock, ids } = deps;

  const load = async (ctx: RequestContext, id: string) =>
    accessibleCustomer(ctx, await store.getCustomer(scopeOf(ctx.principal), id), id);

  const customerEvent = (customer: Customer, type: 'customer.created' | 'customer.updated', at: string) =>
    eventChange(
      {
        organizationId: customer.organizationId,
        environment: customer.environment,
        type,
        data: presentCustomer(customer),
        createdAt: at,
      },
      ids,
    );

  const audit = (ctx: RequestContext, action: AuditAction, customer: Customer, at: string, metadata = {}) =>
    auditChange(
      {
        organizationId: customer.organizationId,
        environment: customer.environment,
        actor: ctx.actor,
        action,
        resource: RESOURCE,
        resourceId: customer.id,
        metadata,
        ...(customer.walletId ? { walletId: customer.walletId } : {}),
        createdAt: at,
      },
      ids,
    );

  return {
    async create(ctx: RequestContext, action: AuditAction, input: CustomerInput): Promise<Customer> {
      const scope = scopeOf(ctx.principal);
      const at = clock.now().toISOString();
      const customer: Customer = {
        id: ids('customer'),
        ...scope,
        walletId: ctx.principal.walletId,
        email: input.email.trim(),
        name: input.name,
        ...(input.phone !== undefined ? { phone: input.phone } : {}),
        ...(input.companyName !== undefined ? { companyName: input.companyName } : {}),
        ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
        defaultPaymentMethodId: null,
        paymentMethodCount: 0,
        version: 0,
        createdAt: at,
        updatedAt: at,
      };
      await store.commit([
        { type: 'putCustomer', customer },
        customerEvent(customer, 'customer.created', at),
        audit(ctx, action, customer, at),
      ]);
      return customer;
    },

    async list(
      ctx: RequestContext,
      filter: { email?: string | undefined },
      page: PageRequest,
    ): Promise<Page<Customer>> {
      const scope = scopeOf(ctx.principal);
      const walletId = ctx.principal.walletId;
      if (filter.email !== undefined) {
        const found = await store.findCustomerByEmail(scope, emailKey(filter.email));
        const visible = found && (walletId === null || found.walletId === walletId);
        return { items: visible ? [found] : [] };
      }
      return store.listCustomers(scope, walletId === null ? {} : { walletId }, page);
    },

    get: load,

    /**
     * PATCH: name, phone, companyName, metadata (null removes an optional field); email is not
     * patchable. Written over the customer's version, so the answer and `customer.updated` are the
     * customer as written (a concurrent write: read again and apply the fields over it).
     */
    async update(ctx: RequestContext, action: AuditAction, id: string, fields: CustomerFields): Promise<Customer> {
      const visible = await load(ctx, id);
      return commitOnCustomer(store, visible, visible.id, async (customer) => {
        const at = clock.now().toISOString();
        const { phone, companyName, metadata, ...rest } = customer;
        const next: Customer = {
          ...rest,
          name: fields.name ?? customer.name,
          ...optional('phone', fields.phone === undefined ? phone : fields.phone),
          ...optional('companyName', fields.companyName === undefined ? companyName : fields.companyName),
          ...optional('metadata', fields.metadata === undefined ? metadata : fields.metadata),
          version: customer.version + 1,
          updatedAt: at,
        };
        return {
          changes: [
            { type: 'updateCustomer', customerId: id, version: customer.version, fields, updatedAt: at },
            customerEvent(next, 'customer.updated', at),
            audit(ctx, action, next, at, { fields: Object.keys(fields) }),
          ],
          result: next,
        };
      });
    },

    ...createPaymentMethodService(deps, load),
  };
}

export type CustomerService = ReturnType<typeof createCustomerService>;
