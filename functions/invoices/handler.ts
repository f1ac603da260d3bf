import { createHttpHandler } from '../../shared/http/middleware.js';
import { INVOICES } from '../../shared/operations/invoices.js';
import { core } from '../../shared/runtime/core.js';
import { invoiceCollectionService } from '../../shared/runtime/services/invoice-collection.js';
import { invoiceService } from '../../shared/runtime/services/invoices.js';

export const handler = createHttpHandler(INVOICES, core, () => ({
  invoices: invoiceService(core()),
  invoiceCollection: invoiceCollectionService(core()),
}));
