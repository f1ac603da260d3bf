import type { AuditChange } from '../audit/ports.js';
import type { ChangeCommitter } from '../change-committer.js';
import type { Clock } from '../clock.js';
import type { HostedUrl } from '../hosted-urls.js';
import type { IdGenerator } from '../ids.js';
import type { PaymentProcessors } from '../payment-methods/processor.js';
import type { Sealer } from '../sealing.js';
import type { OrganizationScope } from '../tenancy.js';
import type { Page, PageRequest } from '../types.js';
import type { Customer, Metadata, PaymentMethod, PaymentMethodSession } from './types.js';

/** Fields a PATCH sets; `null` removes an optional field. */
export interface CustomerFields {
  name?: string;
  phone?: string | null;
  companyName?: string | null;
  metadata?: Metadata | null;
}

export type CustomerChange =
  /** A new customer and its email's uniqueness item (same email, other case: CUSTOMER_EMAIL_TAKEN). */
  | { type: 'putCustomer'; customer: Customer }
  /**
   * Only while the customer exists, over the version read (a concurrent write: CONCURRENT_UPDATE,
   * read again), so the customer answered and emitted is the one written.
   */
  | { type: 'updateCustomer'; customerId: string; version: number; fields: CustomerFields; updatedAt: string }
  | { type: 'putPaymentMethodSession'; session: PaymentMethodSession }
  /**
   * The customer's payment-method bookkeeping (count, default), over the customer's version read: a
   * concurrent write (save, removal, PATCH) makes it CONCURRENT_UPDATE (read again). Every
   * payment-method change carries it.
   */
  | {
      type: 'setCustomerPaymentMethods';
      customerId: string;
      version: number;
      paymentMethodCount: number;
      defaultPaymentMethodId: string | null;
      updatedAt: string;
    }
  | { type: 'putPaymentMethod'; paymentMethod: PaymentMethod }
  /** Its sealed number and token go; the item stays, answering as absent. */
  | { type: 'removePaymentMethod'; paymentMethodId: string; removedAt: string }
  /** OPEN and not expired at `completedAt`, else INVALID_STATE: a link is used once. */
  | { type: 'completePaymentMethodSession'; tokenHash: string; paymentMethodId: string; completedAt: string };

/** What other areas (invoices) read of customers. */
export interface CustomerReader {
  /** Undefined when absent or another organization's (the other environment's is returned: the caller answers ENVIRONMENT_MISMATCH). */
  getCustomer(scope: OrganizationScope, customerId: string): Promise<Customer | undefined>;
  /** A live method of the customer, else undefined. */
  getPaymentMethod(customerId: string, paymentMethodId: string): Promise<PaymentMethod | undefined>;
}

export interface CustomerStore extends CustomerReader, ChangeCommitter<CustomerChange | AuditChange> {
  /** The customer holding this email (lower-cased) in the organization environment. */
  findCustomerByEmail(scope: OrganizationScope, emailKey: string): Promise<Customer | undefined>;
  /** Newest first; `walletId` keeps only that wallet's customers. */
  listCustomers(scope: OrganizationScope, filter: { walletId?: string }, page: PageRequest): Promise<Page<Customer>>;
  /** Live methods, newest first. */
  listPaymentMethods(customerId: string, page: PageRequest): Promise<Page<PaymentMethod>>;
  getPaymentMethodSession(tokenHash: string): Promise<PaymentMethodSession | undefined>;
  /** The organization's name (what a hosted page calls the merchant). */
  organizationName(organizationId: string): Promise<string | undefined>;
}

export interface CustomerServiceDeps {
  store: CustomerStore;
  clock: Clock;
  ids: IdGenerator;
  /** Seals card and account numbers (KMS in AWS, the local key locally). */
  sealer: Sealer;
  /** The processor of each environment (PRODUCTION refuses until a real one is configured). */
  processors: PaymentProcessors;
  /** A hosted page's path -> the URL a client opens (PUBLIC_BASE_URL). */
  hostedUrl: HostedUrl;
}
