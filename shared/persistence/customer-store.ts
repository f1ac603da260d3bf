import type { CustomerReader, CustomerStore } from '../domain/customers/ports.js';
import type { Customer } from '../domain/customers/types.js';
import type { OrganizationScope } from '../domain/tenancy.js';
import { createCommitter } from './change-writer.js';
import {
  customerCodec,
  customerKeys,
  isLiveMethod,
  paymentMethodCodec,
  paymentMethodSessionCodec,
} from './entities/customer.js';
import { organizationKeys } from './entities/organization.js';
import { str } from './item.js';
import { createQueries, equalityFilter } from './queries.js';
import { GSI } from './table-schema.js';
import { getItem, type TableContext } from './table-context.js';
import { auditWriters } from './writers/audit-writers.js';
import { customerWriters } from './writers/customer-writers.js';

async function readCustomer(table: TableContext, scope: OrganizationScope, customerId: string) {
  const item = await getItem(table, customerKeys.primary(customerId));
  if (!item) return undefined;
  const customer = customerCodec.fromItem(item);
  return customer.organizationId === scope.organizationId ? customer : undefined;
}

/** CustomerReader's contract: the invoices area reads customers and their methods with it. */
export function createCustomerReader(table: TableContext): CustomerReader {
  return {
    getCustomer: (scope, customerId) => readCustomer(table, scope, customerId),
    async getPaymentMethod(customerId, paymentMethodId) {
      const item = await getItem(table, customerKeys.paymentMethod(paymentMethodId));
      if (!item || !isLiveMethod(item)) return undefined;
      const method = paymentMethodCodec.fromItem(item);
      return method.customerId === customerId ? method : undefined;
    },
  };
}

export function createCustomerStore(table: TableContext): CustomerStore {
  const { queryIndex } = createQueries(table.client, table.tableName);
  return {
    ...createCustomerReader(table),
    ...createCommitter(table, { ...customerWriters, ...auditWriters }),
    async findCustomerByEmail(scope, emailKey): Promise<Customer | undefined> {
      const held = await getItem(table, customerKeys.email(scope.organizationId, scope.environment, emailKey));
      return held ? readCustomer(table, scope, str(held.customerId)) : undefined;
    },
    listCustomers(scope, filter, page) {
      return queryIndex(
        GSI.GSI1,
        customerKeys.ofOrganization(scope.organizationId, scope.environment).GSI1PK,
        page,
        customerCodec.fromItem,
        equalityFilter({ walletId: filter.walletId }),
      );
    },
    listPaymentMethods(customerId, page) {
      return queryIndex(GSI.GSI1, customerKeys.methodsOf(customerId).GSI1PK, page, paymentMethodCodec.fromItem);
    },
    async getPaymentMethodSession(tokenHash) {
      const item = await getItem(table, customerKeys.session(tokenHash));
      return item ? paymentMethodSessionCodec.fromItem(item) : undefined;
    },
    async organizationName(organizationId) {
      const item = await getItem(table, organizationKeys.primary(organizationId));
      return typeof item?.name === 'string' ? item.name : undefined;
    },
  };
}
