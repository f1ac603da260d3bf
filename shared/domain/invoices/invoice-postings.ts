import Big from 'big.js';
import { formatAmount } from '../money.js';
import { SYSTEM_ACCOUNTS, systemAccount, walletAccount, type Leg, type PostingChange } from '../ledger/posting.js';
import type { InvoiceFeeBreakdown } from './invoice-fees.js';
import type { Invoice } from './types.js';

/**
 * The ledger movements of invoices (decisions.md section 2), each in one transaction with the
 * invoice's state change:
 *
 * - payment (`INVOICE_PAYMENT`): `acc_CUSTOMER_FUNDS` pays the total: the wallet gets the net, and
 *   `acc_FEES` the provider and service fees. The wallet's leg settles money owed to it for an
 *   invoice issued while it was active, so it lands even on a FROZEN wallet (never a closed one).
 * - refund (`INVOICE_REFUND`): the wallet pays the whole total back to `acc_CUSTOMER_FUNDS` (the
 *   fees are not returned); INSUFFICIENT_FUNDS when its balance is short, WALLET_FROZEN when frozen.
 */
type Head = Pick<Invoice, 'id' | 'organizationId' | 'environment' | 'walletId'> &
  Pick<Partial<Invoice>, 'payerWalletId'>;

function posting(
  invoice: Head,
  transactionId: string,
  type: 'INVOICE_PAYMENT' | 'INVOICE_REFUND',
  legs: Leg[],
  at: string,
  attributes: Record<string, unknown>,
): PostingChange {
  return {
    type: 'posting',
    posting: {
      transactionId,
      type,
      organizationId: invoice.organizationId,
      environment: invoice.environment,
      currency: 'USD',
      legs,
      createdAt: at,
      attributes: { status: 'POSTED', postedAt: at, invoiceId: invoice.id, ...attributes },
      record: 'create',
    },
  };
}

export function invoicePayment(
  invoice: Head,
  transactionId: string,
  total: Big,
  fees: InvoiceFeeBreakdown,
  at: string,
): PostingChange {
  const legs: Leg[] = [
    { account: systemAccount(SYSTEM_ACCOUNTS.customerFunds), amount: total.times(-1) },
    { account: walletAccount(invoice.walletId), amount: fees.net, settlesHold: true },
    ...(fees.fees.gt(0) ? [{ account: systemAccount(SYSTEM_ACCOUNTS.fees), amount: fees.fees }] : []),
  ];
  return posting(invoice, transactionId, 'INVOICE_PAYMENT', legs, at, {
    from: SYSTEM_ACCOUNTS.customerFunds,
    to: invoice.walletId,
    amount: formatAmount(total),
    fee: formatAmount(fees.fees),
  });
}

export function invoiceRefund(invoice: Head, transactionId: string, total: Big, at: string): PostingChange {
  // Paid from an Allowance wallet: the total goes back to that wallet (it lands even on a FROZEN
  // one, as money owed to it), not to acc_CUSTOMER_FUNDS, which it never came from.
  const to = invoice.payerWalletId;
  return posting(
    invoice,
    transactionId,
    'INVOICE_REFUND',
    [
      { account: walletAccount(invoice.walletId), amount: total.times(-1) },
      to !== undefined
        ? { account: walletAccount(to), amount: total, settlesHold: true }
        : { account: systemAccount(SYSTEM_ACCOUNTS.customerFunds), amount: total },
    ],
    at,
    { from: invoice.walletId, to: to ?? SYSTEM_ACCOUNTS.customerFunds, amount: formatAmount(total), fee: '0.00' },
  );
}
