import { describe, expect, it } from 'vitest';
import type { CustomerStore } from '../../shared/domain/customers/ports.js';
import type { Customer, PaymentMethod, PaymentMethodSession } from '../../shared/domain/customers/types.js';
import { newId } from '../../shared/domain/ids.js';
import { at, collectIds, organizationScope, refusal } from './money-fixtures.js';

/** A store under the contract, and how the test seeds what another area writes (an organization's name). */
export interface CustomerStoreHarness {
  store: CustomerStore;
  addOrganization(organizationId: string, name: string): Promise<void>;
}

type Scope = ReturnType<typeof organizationScope>;

function customerOf(scope: Scope, minutes: number, overrides: Partial<Customer> = {}): Customer {
  return {
    id: newId('customer'),
    ...scope,
    walletId: null,
    email: `c${minutes}-${newId('customer').slice(-6)}@Example.com`,
    name: `Customer ${minutes}`,
    defaultPaymentMethodId: null,
    paymentMethodCount: 0,
    version: 0,
    createdAt: at(minutes),
    updatedAt: at(minutes),
    ...overrides,
  };
}

function methodOf(customer: Customer, minutes: number): PaymentMethod {
  return {
    id: newId('paymentMethod'),
    organizationId: customer.organizationId,
    environment: customer.environment,
    customerId: customer.id,
    walletId: customer.walletId,
    type: 'card',
    brand: 'visa',
    last4: '4242',
    expMonth: 12,
    expYear: 2030,
    numberSealed: 'sealed',
    processorToken: 'sbxpm_card_ok_1',
    createdAt: at(minutes),
  };
}

const bookkeeping = (customer: Customer, version: number, count: number, defaultId: string | null) => ({
  type: 'setCustomerPaymentMethods' as const,
  customerId: customer.id,
  version,
  paymentMethodCount: count,
  defaultPaymentMethodId: defaultId,
  updatedAt: at(50),
});

export function describeCustomerStoreContract(name: string, makeStore: () => Promise<CustomerStoreHarness>) {
  describe(`CustomerStore contract: ${name}`, () => {
    it('holds an email once per organization environment, any case; another organization may hold it', async () => {
      const { store } = await makeStore();
      const scope = organizationScope();
      const customer = customerOf(scope, 1, { email: `Taken-${newId('customer').slice(-8)}@Example.com` });
      await store.commit([{ type: 'putCustomer', customer }]);
      expect(await store.getCustomer(scope, customer.id)).toEqual(customer);
      expect(await store.getCustomer(organizationScope(), customer.id)).toBeUndefined();
      expect(await store.findCustomerByEmail(scope, customer.email.toLowerCase())).toEqual(customer);

      const twin = customerOf(scope, 2, { email: customer.email.toUpperCase() });
      await expect(store.commit([{ type: 'putCustomer', customer: twin }])).rejects.toMatchObject(
        refusal('CUSTOMER_EMAIL_TAKEN'),
      );
      expect(await store.getCustomer(scope, twin.id)).toBeUndefined();
      const elsewhere = customerOf(organizationScope(), 2, { email: customer.email });
      await store.commit([{ type: 'putCustomer', customer: elsewhere }]);
      const production = customerOf({ ...scope, environment: 'PRODUCTION' }, 2, { email: customer.email });
      await store.commit([{ type: 'putCustomer', customer: production }]);
    });

    it('updates fields (null removes) only of an existing customer, over the version read', async () => {
      const { store } = await makeStore();
      const scope = organizationScope();
      const customer = customerOf(scope, 1, { phone: '1', companyName: 'Co', metadata: { a: 'b' } });
      await store.commit([{ type: 'putCustomer', customer }]);
      await store.commit([
        {
          type: 'updateCustomer',
          customerId: customer.id,
          version: 0,
          fields: { name: 'New', phone: null, metadata: { c: 'd' } },
          updatedAt: at(5),
        },
      ]);
      const read = await store.getCustomer(scope, customer.id);
      expect(read).toMatchObject({
        name: 'New',
        companyName: 'Co',
        metadata: { c: 'd' },
        version: 1,
        updatedAt: at(5),
      });
      expect(read?.phone).toBeUndefined();
      await expect(
        store.commit([
          { type: 'updateCustomer', customerId: customer.id, version: 0, fields: { name: 'Stale' }, updatedAt: at(6) },
        ]),
      ).rejects.toMatchObject(refusal('CONCURRENT_UPDATE'));
      expect(await store.getCustomer(scope, customer.id)).toMatchObject({ name: 'New', version: 1 });
      await expect(
        store.commit([
          {
            type: 'updateCustomer',
            customerId: newId('customer'),
            version: 0,
            fields: { name: 'x' },
            updatedAt: at(6),
          },
        ]),
      ).rejects.toMatchObject(refusal('CUSTOMER_NOT_FOUND'));
    });

    it('lists customers newest first, by wallet, in pages', async () => {
      const { store } = await makeStore();
      const scope = organizationScope();
      const customers = [1, 2, 3].map((minute) =>
        customerOf(scope, minute, minute === 2 ? { walletId: newId('wallet') } : {}),
      );
      for (const customer of customers) await store.commit([{ type: 'putCustomer', customer }]);
      await store.commit([{ type: 'putCustomer', customer: customerOf(organizationScope(), 4) }]);
      expect(await collectIds((page) => store.listCustomers(scope, {}, page), 2)).toEqual(
        customers.map((c) => c.id).reverse(),
      );
      expect(
        await collectIds((page) => store.listCustomers(scope, { walletId: customers[1]!.walletId! }, page), 1),
      ).toEqual([customers[1]!.id]);
    });

    it("keeps payment methods over the customer's version: saved, listed newest first, removed once", async () => {
      const { store } = await makeStore();
      const scope = organizationScope();
      const customer = customerOf(scope, 1);
      await store.commit([{ type: 'putCustomer', customer }]);
      const [first, second] = [methodOf(customer, 2), methodOf(customer, 3)];
      await store.commit([{ type: 'putPaymentMethod', paymentMethod: first! }, bookkeeping(customer, 0, 1, first!.id)]);
      await expect(
        store.commit([{ type: 'putPaymentMethod', paymentMethod: second! }, bookkeeping(customer, 0, 2, first!.id)]),
      ).rejects.toMatchObject(refusal('CONCURRENT_UPDATE'));
      expect(await store.getPaymentMethod(customer.id, second!.id)).toBeUndefined();
      await store.commit([
        { type: 'putPaymentMethod', paymentMethod: second! },
        bookkeeping(customer, 1, 2, first!.id),
      ]);
      expect(await store.getCustomer(scope, customer.id)).toMatchObject({
        paymentMethodCount: 2,
        version: 2,
        defaultPaymentMethodId: first!.id,
      });
      expect(await store.getPaymentMethod(customer.id, first!.id)).toEqual(first);
      expect(await store.getPaymentMethod(newId('customer'), first!.id)).toBeUndefined();
      expect(await collectIds((page) => store.listPaymentMethods(customer.id, page), 1)).toEqual([
        second!.id,
        first!.id,
      ]);

      await store.commit([
        { type: 'removePaymentMethod', paymentMethodId: first!.id, removedAt: at(9) },
        bookkeeping(customer, 2, 1, second!.id),
      ]);
      expect(await store.getPaymentMethod(customer.id, first!.id)).toBeUndefined();
      expect(await collectIds((page) => store.listPaymentMethods(customer.id, page), 5)).toEqual([second!.id]);
      await expect(
        store.commit([{ type: 'removePaymentMethod', paymentMethodId: first!.id, removedAt: at(10) }]),
      ).rejects.toMatchObject(refusal('PAYMENT_METHOD_NOT_FOUND'));
      await expect(store.commit([bookkeeping(customerOf(scope, 1), 0, 1, null)])).rejects.toMatchObject(
        refusal('CUSTOMER_NOT_FOUND'),
      );
    });

    it('completes a link once, and never after its expiry', async () => {
      const { store, addOrganization } = await makeStore();
      const scope = organizationScope();
      await addOrganization(scope.organizationId, 'Merchant Inc');
      expect(await store.organizationName(scope.organizationId)).toBe('Merchant Inc');
      const customer = customerOf(scope, 1);
      const session = (tokenHash: string, expiresAt: string): PaymentMethodSession => ({
        tokenHash,
        kind: 'setup',
        ...scope,
        customerId: customer.id,
        status: 'OPEN',
        createdAt: at(1),
        expiresAt,
        completedAt: null,
        paymentMethodId: null,
      });
      const open = session(newId('event').slice(4).padEnd(64, '0'), at(60));
      const old = session(newId('event').slice(4).padEnd(64, '1'), at(2));
      await store.commit([{ type: 'putPaymentMethodSession', session: open }]);
      await store.commit([{ type: 'putPaymentMethodSession', session: old }]);
      expect(await store.getPaymentMethodSession(open.tokenHash)).toEqual(open);
      const pm = newId('paymentMethod');
      await store.commit([
        { type: 'completePaymentMethodSession', tokenHash: open.tokenHash, paymentMethodId: pm, completedAt: at(5) },
      ]);
      expect(await store.getPaymentMethodSession(open.tokenHash)).toMatchObject({
        status: 'COMPLETED',
        completedAt: at(5),
        paymentMethodId: pm,
      });
      await expect(
        store.commit([
          { type: 'completePaymentMethodSession', tokenHash: open.tokenHash, paymentMethodId: pm, completedAt: at(6) },
        ]),
      ).rejects.toMatchObject(refusal('INVALID_STATE', { status: 'COMPLETED' }));
      await expect(
        store.commit([
          { type: 'completePaymentMethodSession', tokenHash: old.tokenHash, paymentMethodId: pm, completedAt: at(6) },
        ]),
      ).rejects.toMatchObject(refusal('INVALID_STATE', { status: 'EXPIRED' }));
      expect(await store.getPaymentMethodSession('0'.repeat(64))).toBeUndefined();
    });
  });
}
