import type { Customer, PaymentMethod, PaymentMethodSession } from '../../domain/customers/types.js';
import type { Environment } from '../../domain/tenancy.js';
import { readInt } from '../client.js';
import { recordOf, type Item, type ItemKey } from '../item.js';
import { TTL_ATTRIBUTE, type IndexUsage } from '../table-schema.js';

export const CUSTOMER_ENTITY = 'CUSTOMER';
export const CUSTOMER_EMAIL_ENTITY = 'CUSTOMER_EMAIL';
export const PAYMENT_METHOD_ENTITY = 'PAYMENT_METHOD';
export const PAYMENT_METHOD_SESSION_ENTITY = 'PAYMENT_METHOD_SESSION';

/** A used or expired link's item stays this long after its expiry (it then answers EXPIRED, not unknown), then the TTL removes it. */
const SESSION_KEPT_AFTER_EXPIRY_S = 30 * 24 * 60 * 60;

/**
 * Customers (`CUSTOMER#id`), the uniqueness item of each customer's email per organization
 * environment (lower-cased), payment methods (`PAYMENT_METHOD#id`, the number only sealed) and
 * payment-method links (`PM_SESSION#sha256(token)`: the token itself is never stored).
 */
export const customerKeys = {
  primary: (customerId: string): ItemKey => ({ PK: `CUSTOMER#${customerId}`, SK: 'CUSTOMER' }),
  email: (organizationId: string, environment: Environment, emailKey: string): ItemKey => ({
    PK: `CUSTOMER_EMAIL#${organizationId}#${environment}#${emailKey}`,
    SK: 'CUSTOMER_EMAIL',
  }),
  /** GSI1: the customers of an organization environment, newest first. */
  ofOrganization: (organizationId: string, environment: Environment) => ({
    GSI1PK: `CUSTOMERS#${organizationId}#${environment}`,
  }),
  ofOrganizationSort: (customer: Pick<Customer, 'createdAt' | 'id'>) => ({
    GSI1SK: `${customer.createdAt}#${customer.id}`,
  }),
  paymentMethod: (paymentMethodId: string): ItemKey => ({
    PK: `PAYMENT_METHOD#${paymentMethodId}`,
    SK: 'PAYMENT_METHOD',
  }),
  /** GSI1: the live payment methods of a customer, newest first (removed on removal). */
  methodsOf: (customerId: string) => ({ GSI1PK: `PAYMENT_METHODS#${customerId}` }),
  methodsOfSort: (method: Pick<PaymentMethod, 'createdAt' | 'id'>) => ({ GSI1SK: `${method.createdAt}#${method.id}` }),
  session: (tokenHash: string): ItemKey => ({ PK: `PM_SESSION#${tokenHash}`, SK: 'PM_SESSION' }),
};

const optionalInt = (value: unknown) => (value === undefined || value === null ? undefined : readInt(value));

export const customerCodec = {
  toItem(customer: Customer): Item {
    return {
      ...customerKeys.primary(customer.id),
      entityType: CUSTOMER_ENTITY,
      ...customerKeys.ofOrganization(customer.organizationId, customer.environment),
      ...customerKeys.ofOrganizationSort(customer),
      ...customer,
    };
  },
  fromItem(item: Item): Customer {
    const record = recordOf(item) as unknown as Customer;
    return {
      ...record,
      walletId: typeof item.walletId === 'string' ? item.walletId : null,
      defaultPaymentMethodId: typeof item.defaultPaymentMethodId === 'string' ? item.defaultPaymentMethodId : null,
      paymentMethodCount: readInt(item.paymentMethodCount ?? 0),
      version: readInt(item.version ?? 0),
    };
  },
};

/** Holds an email (lower-cased) for one customer of an organization environment. */
export const customerEmailCodec = {
  toItem(customer: Customer, emailKey: string): Item {
    return {
      ...customerKeys.email(customer.organizationId, customer.environment, emailKey),
      entityType: CUSTOMER_EMAIL_ENTITY,
      customerId: customer.id,
    };
  },
};

export const paymentMethodCodec = {
  toItem(method: PaymentMethod): Item {
    return {
      ...customerKeys.paymentMethod(method.id),
      entityType: PAYMENT_METHOD_ENTITY,
      ...customerKeys.methodsOf(method.customerId),
      ...customerKeys.methodsOfSort(method),
      ...method,
    };
  },
  fromItem(item: Item): PaymentMethod {
    const record = recordOf(item) as unknown as PaymentMethod;
    const expMonth = optionalInt(item.expMonth);
    const expYear = optionalInt(item.expYear);
    const { expMonth: _m, expYear: _y, removedAt: _r, ...rest } = record as PaymentMethod & { removedAt?: string };
    return {
      ...rest,
      walletId: typeof item.walletId === 'string' ? item.walletId : null,
      ...(expMonth !== undefined ? { expMonth } : {}),
      ...(expYear !== undefined ? { expYear } : {}),
      numberSealed: typeof item.numberSealed === 'string' ? item.numberSealed : '',
      processorToken: typeof item.processorToken === 'string' ? item.processorToken : '',
    };
  },
};

export const paymentMethodSessionCodec = {
  toItem(session: PaymentMethodSession): Item {
    return {
      ...customerKeys.session(session.tokenHash),
      entityType: PAYMENT_METHOD_SESSION_ENTITY,
      ...session,
      [TTL_ATTRIBUTE]: Math.floor(Date.parse(session.expiresAt) / 1000) + SESSION_KEPT_AFTER_EXPIRY_S,
    };
  },
  fromItem(item: Item): PaymentMethodSession {
    const record = recordOf(item) as unknown as PaymentMethodSession;
    return {
      ...record,
      completedAt: typeof item.completedAt === 'string' ? item.completedAt : null,
      paymentMethodId: typeof item.paymentMethodId === 'string' ? item.paymentMethodId : null,
    };
  },
};

/** Whether a payment method item is live (removal keeps the item without its number, token and list entry). */
export const isLiveMethod = (item: Item) => typeof item.removedAt !== 'string';

/** What each index of customer items serves (entries of INDEX_USAGE, entities/index-usage.ts). */
export const CUSTOMER_INDEXES = {
  CUSTOMER: { GSI1: 'customers of an organization environment, newest first' },
  PAYMENT_METHOD: { GSI1: "a customer's live payment methods, newest first (removed on removal)" },
} as const satisfies IndexUsage;
