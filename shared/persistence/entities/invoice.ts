import type { Invoice } from '../../domain/invoices/types.js';
import type { Environment } from '../../domain/tenancy.js';
import { readInt } from '../client.js';
import { plainJson, recordOf, type Item, type ItemKey } from '../item.js';
import type { IndexUsage } from '../table-schema.js';

export const INVOICE_ENTITY = 'INVOICE';
export const INVOICE_SLUG_ENTITY = 'INVOICE_SLUG';
export const INVOICE_COUNTER_ENTITY = 'INVOICE_COUNTER';

/**
 * An invoice in its own partition (`INVOICE#id`), with index entries sorted newest first by
 * `${createdAt}#${id}`: GSI1 the invoices of an organization environment, GSI2 those paying into
 * a wallet, GSI3 those of a customer (each partition names the organization and environment).
 * Beside it: the slug's pointer item (`INVOICE_SLUG#slug` -> invoice id, written at finalization,
 * never taken twice) and the organization environment's number counter (`lastNumber`).
 */
export const invoiceKeys = {
  primary: (invoiceId: string): ItemKey => ({ PK: `INVOICE#${invoiceId}`, SK: INVOICE_ENTITY }),
  slug: (slug: string): ItemKey => ({ PK: `INVOICE_SLUG#${slug}`, SK: INVOICE_SLUG_ENTITY }),
  counter: (organizationId: string, environment: Environment): ItemKey => ({
    PK: `INVOICE_NUMBERS#${organizationId}#${environment}`,
    SK: INVOICE_COUNTER_ENTITY,
  }),
  ofOrganization: (organizationId: string, environment: Environment) => `INVOICES#${organizationId}#${environment}`,
  ofWallet: (organizationId: string, environment: Environment, walletId: string) =>
    `INVOICES#${organizationId}#${environment}#WALLET#${walletId}`,
  ofCustomer: (organizationId: string, environment: Environment, customerId: string) =>
    `INVOICES#${organizationId}#${environment}#CUSTOMER#${customerId}`,
  sort: (invoice: Pick<Invoice, 'createdAt' | 'id'>) => `${invoice.createdAt}#${invoice.id}`,
};

export const invoiceCodec = {
  toItem(invoice: Invoice): Item {
    const sort = invoiceKeys.sort(invoice);
    return {
      ...invoiceKeys.primary(invoice.id),
      entityType: INVOICE_ENTITY,
      GSI1PK: invoiceKeys.ofOrganization(invoice.organizationId, invoice.environment),
      GSI1SK: sort,
      GSI2PK: invoiceKeys.ofWallet(invoice.organizationId, invoice.environment, invoice.walletId),
      GSI2SK: sort,
      GSI3PK: invoiceKeys.ofCustomer(invoice.organizationId, invoice.environment, invoice.customerId),
      GSI3SK: sort,
      ...invoice,
    };
  },
  fromItem(item: Item): Invoice {
    // Numbers are read back wrapped (exact): a line's quantity is a small integer, metadata plain JSON.
    return plainJson(recordOf(item)) as Invoice;
  },
};

export const invoiceSlugCodec = {
  toItem: (slug: string, invoiceId: string): Item => ({
    ...invoiceKeys.slug(slug),
    entityType: INVOICE_SLUG_ENTITY,
    invoiceId,
  }),
  invoiceIdOf: (item: Item): string | undefined => (typeof item.invoiceId === 'string' ? item.invoiceId : undefined),
};

export const invoiceCounterOf = (item: Item | undefined): number => (item ? readInt(item.lastNumber) : 0);

/** What each index of INVOICE items serves (one entry of INDEX_USAGE, entities/index-usage.ts). */
export const INVOICE_INDEXES = {
  INVOICE: {
    GSI1: 'invoices of an organization environment',
    GSI2: 'invoices paying into a wallet (within its organization environment)',
    GSI3: 'invoices of a customer (within its organization environment)',
  },
} as const satisfies IndexUsage;
