import { createHttpHandler } from '../../shared/http/middleware.js';
import { PAYMENTS } from '../../shared/operations/payments.js';
import { core } from '../../shared/runtime/core.js';
import { invoiceWalletPaymentService } from '../../shared/runtime/services/invoice-wallet-payments.js';
import { merchantService } from '../../shared/runtime/services/merchants.js';
import { paymentService } from '../../shared/runtime/services/payments.js';

export const handler = createHttpHandler(PAYMENTS, core, () => ({
  payments: paymentService(core()),
  merchants: merchantService(core()),
  invoiceWalletPayments: invoiceWalletPaymentService(core()),
}));
