import type { AuditChange } from '../audit/ports.js';
import { ApiError, notFound } from '../errors.js';
import type { OrganizationScope } from '../tenancy.js';
import type { CustomerChange, CustomerStore } from './ports.js';
import type { Customer } from './types.js';

/** Rounds of a write lost to a concurrent one on the same customer (each reads again). */
const MAX_ROUNDS = 3;

/**
 * Reads the customer, lets `decide` read what else it needs (the live methods) and build the
 * changes over the customer's version, and commits them; a concurrent write on the customer
 * (CONCURRENT_UPDATE): everything is read and decided again. Returns what `decide` returned
 * besides its changes (built from what was written).
 */
export async function commitOnCustomer<T>(
  store: CustomerStore,
  scope: OrganizationScope,
  customerId: string,
  decide: (customer: Customer) => Promise<{ changes: (CustomerChange | AuditChange)[]; result: T }>,
): Promise<T> {
  for (let round = 1; ; round += 1) {
    const customer = await store.getCustomer(scope, customerId);
    if (!customer) throw notFound('CUSTOMER_NOT_FOUND', customerId);
    const { changes, result } = await decide(customer);
    try {
      await store.commit(changes);
      return result;
    } catch (error) {
      if (round < MAX_ROUNDS && error instanceof ApiError && error.code === 'CONCURRENT_UPDATE') continue;
      throw error;
    }
  }
}
