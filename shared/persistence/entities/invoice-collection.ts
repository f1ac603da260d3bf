import type {
  ChargeRetries,
  RecurringSchedule,
  UsdcDeposit,
  UsdcReceipt,
} from '../../domain/invoices/collection-ports.js';
import type { Environment } from '../../domain/tenancy.js';
import { plainJson, recordOf, type Item, type ItemKey } from '../item.js';
import type { IndexUsage } from '../table-schema.js';
import { invoiceKeys } from './invoice.js';

export const INVOICE_USDC_DEPOSIT_ENTITY = 'INVOICE_USDC_DEPOSIT';
export const USDC_ADDRESS_ENTITY = 'USDC_ADDRESS';
export const USDC_RECEIPT_ENTITY = 'USDC_RECEIPT';
export const INVOICE_RECURRING_ENTITY = 'INVOICE_RECURRING';
export const INVOICE_RETRIES_ENTITY = 'INVOICE_RETRIES';

/**
 * What collecting invoices keeps (docs/api.md "Invoices: collection"). In the invoice's own
 * partition (`INVOICE#id`): its USDC deposit, its recurring schedule (on the first invoice), its
 * charge retries. Beside them: the address pointer (`USDC_ADDRESS#address` -> invoice, never taken
 * twice) and the unmatched USDC receipts (`USDC_RECEIPT#id`), GSI1 listing an organization
 * environment's receipts newest first.
 */
export const collectionKeys = {
  deposit: (invoiceId: string): ItemKey => ({ PK: invoiceKeys.primary(invoiceId).PK, SK: INVOICE_USDC_DEPOSIT_ENTITY }),
  address: (address: string): ItemKey => ({ PK: `USDC_ADDRESS#${address.toLowerCase()}`, SK: USDC_ADDRESS_ENTITY }),
  receipt: (id: string): ItemKey => ({ PK: `USDC_RECEIPT#${id}`, SK: USDC_RECEIPT_ENTITY }),
  receiptsOf: (organizationId: string, environment: Environment) => `USDC_RECEIPTS#${organizationId}#${environment}`,
  recurring: (invoiceId: string): ItemKey => ({ PK: invoiceKeys.primary(invoiceId).PK, SK: INVOICE_RECURRING_ENTITY }),
  retries: (invoiceId: string): ItemKey => ({ PK: invoiceKeys.primary(invoiceId).PK, SK: INVOICE_RETRIES_ENTITY }),
};

const plain = <T>(item: Item): T => plainJson(recordOf(item)) as T;

export const collectionCodec = {
  depositItem: (deposit: UsdcDeposit): Item => ({
    ...collectionKeys.deposit(deposit.invoiceId),
    entityType: INVOICE_USDC_DEPOSIT_ENTITY,
    ...deposit,
  }),
  /** The pointer: the address (any case) -> the deposit's invoice. */
  addressItem: (deposit: UsdcDeposit): Item => ({
    ...collectionKeys.address(deposit.address),
    entityType: USDC_ADDRESS_ENTITY,
    invoiceId: deposit.invoiceId,
  }),
  invoiceIdOfAddress: (item: Item): string | undefined =>
    typeof item.invoiceId === 'string' ? item.invoiceId : undefined,
  deposit: (item: Item): UsdcDeposit => plain<UsdcDeposit>(item),
  receiptItem: (receipt: UsdcReceipt): Item => ({
    ...collectionKeys.receipt(receipt.id),
    entityType: USDC_RECEIPT_ENTITY,
    GSI1PK: collectionKeys.receiptsOf(receipt.organizationId, receipt.environment),
    GSI1SK: `${receipt.receivedAt}#${receipt.id}`,
    ...receipt,
  }),
  receipt: (item: Item): UsdcReceipt => plain<UsdcReceipt>(item),
  recurringItem: (schedule: RecurringSchedule): Item => ({
    ...collectionKeys.recurring(schedule.invoiceId),
    entityType: INVOICE_RECURRING_ENTITY,
    ...schedule,
  }),
  recurring: (item: Item): RecurringSchedule => plain<RecurringSchedule>(item),
  retriesItem: (retries: ChargeRetries): Item => ({
    ...collectionKeys.retries(retries.invoiceId),
    entityType: INVOICE_RETRIES_ENTITY,
    ...retries,
  }),
  retries: (item: Item): ChargeRetries => plain<ChargeRetries>(item),
};

/** What each index of the collection's items serves (one entry of INDEX_USAGE, entities/index-usage.ts). */
export const INVOICE_COLLECTION_INDEXES = {
  USDC_RECEIPT: { GSI1: 'unmatched USDC receipts of an organization environment' },
} as const satisfies IndexUsage;
