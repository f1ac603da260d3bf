import { notFound } from '../../shared/domain/errors.js';
import type { ChargeableMethod, InvoiceCustomer, InvoiceParties } from '../../shared/domain/invoices/ports.js';
import type {
  ChargeRequest,
  ChargeResult,
  PaymentMethodInput,
  PaymentProcessor,
  TokenizedMethod,
} from '../../shared/domain/payment-methods/processor.js';

/**
 * A processor with the sandbox's outcomes (decisions.md section 6), for unit tests: the token
 * carries the number; 4000000000000002 declines card_declined, 4000000000009995
 * insufficient_funds; a bank debit is pending and fails at settlement when the account ends in
 * 0002. Charges are idempotent by reference; refunds are recorded.
 */
export function fakeProcessor() {
  const charges = new Map<string, ChargeResult>();
  const refunds: { processorChargeId: string; amount: string; reference: string }[] = [];
  let next = 0;
  const processor: PaymentProcessor = {
    async tokenize(input: PaymentMethodInput): Promise<TokenizedMethod> {
      if (input.type === 'card')
        return { type: 'card', processorToken: `card:${input.number}`, brand: 'visa', last4: input.number.slice(-4) };
      return {
        type: 'us_bank_account',
        processorToken: `bank:${input.accountNumber}`,
        brand: 'TEST BANK',
        last4: input.accountNumber.slice(-4),
      };
    },
    async charge(request: ChargeRequest): Promise<ChargeResult> {
      const known = charges.get(request.reference);
      if (known) return known;
      const [kind, number = ''] = request.processorToken.split(':');
      const id = `ch_${++next}_${kind}_${number.slice(-4)}`;
      const result: ChargeResult =
        kind === 'bank'
          ? { outcome: 'pending', processorChargeId: id }
          : number === '4000000000000002'
            ? { outcome: 'declined', declineCode: 'card_declined' }
            : number === '4000000000009995'
              ? { outcome: 'declined', declineCode: 'insufficient_funds' }
              : { outcome: 'succeeded', processorChargeId: id };
      charges.set(request.reference, result);
      return result;
    },
    async settle(processorChargeId: string) {
      return processorChargeId.endsWith('_0002') ? 'failed' : 'succeeded';
    },
    async refund(request) {
      refunds.push({ ...request, amount: request.amount.toFixed(2) });
    },
  };
  return { processor, charges, refunds };
}

/** Customers and their saved methods, as the customers area would answer (its visibility: a customer of a wallet is seen by that wallet's key and the organization's). */
export function fakeInvoiceParties() {
  const customers = new Map<
    string,
    InvoiceCustomer & { organizationId: string; walletId?: string; methods: ChargeableMethod[] }
  >();
  let next = 0;
  const parties: InvoiceParties = {
    async customerFor(ctx, customerId) {
      const customer = customers.get(customerId);
      const own = ctx.principal.walletId;
      if (
        !customer ||
        customer.organizationId !== ctx.principal.organizationId ||
        (own !== null && customer.walletId !== own)
      )
        throw notFound('CUSTOMER_NOT_FOUND', customerId);
      return { id: customer.id, name: customer.name, email: customer.email };
    },
    async customerOf(scope, customerId) {
      const customer = customers.get(customerId);
      return customer && customer.organizationId === scope.organizationId ? customer : undefined;
    },
    async paymentMethodForCharge(_scope, customerId, paymentMethodId) {
      const methods = customers.get(customerId)?.methods ?? [];
      const method = paymentMethodId ? methods.find((m) => m.id === paymentMethodId) : methods[0];
      if (!method) throw notFound('PAYMENT_METHOD_NOT_FOUND', paymentMethodId);
      return method;
    },
    merchantName: async () => 'Acme Robotics',
  };
  return {
    parties,
    /** A customer with saved methods (card numbers or `bank:<account>`), the first the default: its id. */
    addCustomer(organizationId: string, methods: string[] = ['4242424242424242'], walletId?: string): string {
      const id = `cus_fake${++next}`;
      customers.set(id, {
        id,
        name: `Customer ${next}`,
        email: `c${next}@example.com`,
        organizationId,
        ...(walletId ? { walletId } : {}),
        methods: methods.map((number, i) => ({
          id: `pm_fake${next}x${i}`,
          type: number.startsWith('bank:') ? 'us_bank_account' : 'card',
          brand: number.startsWith('bank:') ? 'TEST BANK' : 'visa',
          last4: number.slice(-4),
          processorToken: number.startsWith('bank:') ? number : `card:${number}`,
        })),
      });
      return id;
    },
  };
}
