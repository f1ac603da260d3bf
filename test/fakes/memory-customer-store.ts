import type { AuditChange } from '../../shared/domain/audit/ports.js';
import { emailKey } from '../../shared/domain/customers/customer-rules.js';
import type { CustomerChange, CustomerStore } from '../../shared/domain/customers/ports.js';
import type { Customer, PaymentMethod, PaymentMethodSession } from '../../shared/domain/customers/types.js';
import { ApiError } from '../../shared/domain/errors.js';
import type { AuditEntry, OutboxEvent } from '../../shared/domain/types.js';

type Method = PaymentMethod & { removedAt?: string };

/**
 * An in-memory CustomerStore with the writers' conditions (email uniqueness, the payment-methods
 * version, single-use links), all changes of a commit applied or none. Keeps the audit entries and
 * events written, for tests that look for a number in them.
 */
export function memoryCustomerStore(organizationNames: Record<string, string> = {}) {
  let customers = new Map<string, Customer>();
  let emails = new Map<string, string>();
  let methods = new Map<string, Method>();
  let sessions = new Map<string, PaymentMethodSession>();
  const audit: AuditEntry[] = [];
  const events: OutboxEvent[] = [];
  let beforeCommit: (() => void | Promise<void>) | undefined;

  const emailSlot = (c: Pick<Customer, 'organizationId' | 'environment' | 'email'>) =>
    `${c.organizationId}#${c.environment}#${emailKey(c.email)}`;
  const newestFirst = <T extends { createdAt: string; id: string }>(a: T, b: T) => {
    const [x, y] = [`${a.createdAt}#${a.id}`, `${b.createdAt}#${b.id}`];
    return x === y ? 0 : x < y ? 1 : -1;
  };
  function page<T>(items: T[], request: { limit: number; startKey?: Record<string, unknown> }) {
    const offset = Number(request.startKey?.offset ?? 0);
    const slice = items.slice(offset, offset + request.limit);
    return offset + request.limit < items.length
      ? { items: slice, lastKey: { offset: offset + request.limit } }
      : { items: slice };
  }

  function apply(change: CustomerChange) {
    switch (change.type) {
      case 'putCustomer': {
        const slot = emailSlot(change.customer);
        if (emails.has(slot)) throw new ApiError('CUSTOMER_EMAIL_TAKEN', undefined, { field: 'email' });
        emails.set(slot, change.customer.id);
        customers.set(change.customer.id, structuredClone(change.customer));
        return;
      }
      case 'updateCustomer': {
        const customer = customers.get(change.customerId);
        if (!customer) throw new ApiError('CUSTOMER_NOT_FOUND');
        if (customer.version !== change.version) throw new ApiError('CONCURRENT_UPDATE');
        const next: Customer = { ...customer, version: change.version + 1, updatedAt: change.updatedAt };
        if (change.fields.name !== undefined) next.name = change.fields.name;
        for (const field of ['phone', 'companyName', 'metadata'] as const) {
          const value = change.fields[field];
          if (value === null) delete next[field];
          else if (value !== undefined) Object.assign(next, { [field]: value });
        }
        customers.set(customer.id, next);
        return;
      }
      case 'putPaymentMethodSession':
        if (sessions.has(change.session.tokenHash)) throw new Error('token collision');
        sessions.set(change.session.tokenHash, structuredClone(change.session));
        return;
      case 'setCustomerPaymentMethods': {
        const customer = customers.get(change.customerId);
        if (!customer) throw new ApiError('CUSTOMER_NOT_FOUND');
        if (customer.version !== change.version) throw new ApiError('CONCURRENT_UPDATE');
        customers.set(customer.id, {
          ...customer,
          version: change.version + 1,
          paymentMethodCount: change.paymentMethodCount,
          defaultPaymentMethodId: change.defaultPaymentMethodId,
          updatedAt: change.updatedAt,
        });
        return;
      }
      case 'putPaymentMethod':
        if (methods.has(change.paymentMethod.id)) throw new Error('id collision');
        methods.set(change.paymentMethod.id, structuredClone(change.paymentMethod));
        return;
      case 'removePaymentMethod': {
        const method = methods.get(change.paymentMethodId);
        if (!method || method.removedAt) throw new ApiError('PAYMENT_METHOD_NOT_FOUND');
        methods.set(method.id, { ...method, numberSealed: '', processorToken: '', removedAt: change.removedAt });
        return;
      }
      case 'completePaymentMethodSession': {
        const session = sessions.get(change.tokenHash);
        if (!session || session.status !== 'OPEN' || session.expiresAt <= change.completedAt)
          throw new ApiError('INVALID_STATE', undefined, {
            status: session?.status === 'COMPLETED' ? 'COMPLETED' : 'EXPIRED',
          });
        sessions.set(session.tokenHash, {
          ...session,
          status: 'COMPLETED',
          completedAt: change.completedAt,
          paymentMethodId: change.paymentMethodId,
        });
        return;
      }
    }
  }

  const live = (method: Method | undefined) => (method && !method.removedAt ? method : undefined);
  const stripped = (method: Method): PaymentMethod => {
    const { removedAt: _removed, ...rest } = method;
    return structuredClone(rest);
  };

  const store: CustomerStore = {
    async getCustomer(scope, id) {
      const customer = customers.get(id);
      return customer && customer.organizationId === scope.organizationId ? structuredClone(customer) : undefined;
    },
    async getPaymentMethod(customerId, id) {
      const method = live(methods.get(id));
      return method && method.customerId === customerId ? stripped(method) : undefined;
    },
    async findCustomerByEmail(scope, key) {
      const id = emails.get(`${scope.organizationId}#${scope.environment}#${key}`);
      return id ? structuredClone(customers.get(id)) : undefined;
    },
    async listCustomers(scope, filter, request) {
      const items = [...customers.values()]
        .filter(
          (c) =>
            c.organizationId === scope.organizationId &&
            c.environment === scope.environment &&
            (filter.walletId === undefined || c.walletId === filter.walletId),
        )
        .sort(newestFirst);
      return page(structuredClone(items), request);
    },
    async listPaymentMethods(customerId, request) {
      const items = [...methods.values()]
        .filter((m) => !m.removedAt && m.customerId === customerId)
        .sort(newestFirst)
        .map(stripped);
      return page(items, request);
    },
    async getPaymentMethodSession(tokenHash) {
      const session = sessions.get(tokenHash);
      return session ? structuredClone(session) : undefined;
    },
    async organizationName(organizationId) {
      return organizationNames[organizationId];
    },
    commit: async (changes: (CustomerChange | AuditChange)[]) => {
      const hook = beforeCommit;
      beforeCommit = undefined;
      await hook?.();
      const saved = [customers, emails, methods, sessions].map((map) => new Map(map as Map<string, unknown>));
      const entries: AuditEntry[] = [];
      const written: OutboxEvent[] = [];
      try {
        for (const change of changes) {
          if (change.type === 'audit') entries.push(change.entry);
          else if (change.type === 'event') written.push(change.event as OutboxEvent);
          else apply(change);
        }
      } catch (error) {
        [customers, emails, methods, sessions] = saved as [
          typeof customers,
          typeof emails,
          typeof methods,
          typeof sessions,
        ];
        throw error;
      }
      audit.push(...entries);
      events.push(...written);
    },
  };
  return {
    store,
    audit,
    events,
    /** Every item the store holds, as stored (for searches of a secret). */
    dump: () => JSON.stringify([[...customers.values()], [...methods.values()], [...sessions.values()]]),
    interleave: (fn: () => void | Promise<void>) => (beforeCommit = fn),
  };
}
