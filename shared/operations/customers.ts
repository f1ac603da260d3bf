import * as z from 'zod/mini';
import { AUDIT } from '../domain/audit/actions.js';
import type { CustomerService } from '../domain/customers/customer-service.js';
import { MAX_PAYMENT_METHODS } from '../domain/customers/customer-rules.js';
import { presentCustomer, presentPaymentMethod } from '../domain/customers/customer-view.js';
import { SANDBOX_BANK_ACCOUNT, SANDBOX_CARDS } from '../domain/payment-methods/sandbox-processor.js';
import { HINTS, defineGroup, operation } from './define.js';
import { describe, name, text } from './fields.js';
import { listOperation } from './list.js';
import {
  accountType,
  cvc,
  digits,
  expMonth,
  expYear,
  holder,
  metadata,
  paymentMethodInput,
} from './payment-method-fields.js';

export interface CustomersServices {
  customers: CustomerService;
}

const op = operation<CustomersServices>();
const list = listOperation<CustomersServices>();
const customerParam = { id: 'The customer id (`cus_...`).' };
const sessionParam = { token: 'The token of the link (the last segment of its URL).' };

const MAX_EMAIL_LENGTH = 254;
const MAX_PHONE_LENGTH = 40;

const email = (description: string) =>
  describe(
    z
      .email({ error: 'must be an email address' })
      .check(z.maxLength(MAX_EMAIL_LENGTH, 'must be at most 254 characters')),
    description,
  );
const phone = (description: string) => text(MAX_PHONE_LENGTH, description, { trim: true, min: 1 });
const company = (description: string) => name(description);
const PAYMENT_METHOD_FIELDS =
  'Body: {type: "card", number, expMonth, expYear, cvc?} or {type: "us_bank_account", routingNumber, accountNumber, accountHolderName, accountType: checking|savings}.';

/**
 * Customers and their payment methods (issue 21; docs/api.md "Customers and payment methods").
 * Reads need `invoices:read`, changes `invoices:write`. A customer created by an agent key belongs
 * to its wallet: agent keys see only their wallet's customers. The two payment-method-session
 * operations are public: the hosted page calls them with the link's token.
 */
export const CUSTOMERS = defineGroup<CustomersServices>()(
  'customers',
  {
    // Card and account numbers are sealed.
    grants: ['dataKey:seal'],
  },
  [
    op({
      name: 'createCustomer',
      summary: 'Create a customer',
      description:
        "Creates a customer to bill. The email is unique per organization and environment, compared case-insensitively (CUSTOMER_EMAIL_TAKEN otherwise). A customer created with an agent key belongs to its wallet: only that wallet's agent keys (and organization keys) see it.",
      access: 'key',
      permission: 'invoices:write',
      audit: AUDIT.customer.create,
      events: ['customer.created'],
      http: { method: 'POST', path: '/v1/customers', status: 201 },
      mcp: { tool: 'create_customer', hints: HINTS.create },
      body: () =>
        z.strictObject({
          email: email('The email address (unique per organization and environment, any case).'),
          name: name("The customer's name."),
          phone: z.optional(phone('Phone number, free form.')),
          companyName: z.optional(company('Company name.')),
          metadata: z.optional(metadata('Your key-value data.')),
        }),
      output: 'customerView',
      errors: ['CUSTOMER_EMAIL_TAKEN'],
      run: ({ services, auth, audit, body }) => services.customers.create(auth, audit, body),
      present: presentCustomer,
    }),
    list({
      name: 'listCustomers',
      summary: 'List customers',
      description:
        "The customers of this organization and environment, newest first (an agent key: only its wallet's). `email` finds one customer by email, any case.",
      access: 'key',
      permission: 'invoices:read',
      http: { method: 'GET', path: '/v1/customers', status: 200 },
      mcp: { tool: 'list_customers', hints: HINTS.read },
      filters: () => ({ email: z.optional(text(MAX_EMAIL_LENGTH, 'Only the customer with this email (any case).')) }),
      output: 'customerPageView',
      errors: [],
      list: ({ services, auth, query }, page) => services.customers.list(auth, { email: query.email }, page),
      present: presentCustomer,
    }),
    op({
      name: 'getCustomer',
      summary: 'Get a customer',
      description: 'One customer, with its default payment method id.',
      access: 'key',
      permission: 'invoices:read',
      http: { method: 'GET', path: '/v1/customers/{id}', status: 200 },
      params: customerParam,
      mcp: { tool: 'get_customer', hints: HINTS.read },
      output: 'customerView',
      errors: ['CUSTOMER_NOT_FOUND', 'ENVIRONMENT_MISMATCH'],
      run: ({ services, auth, params }) => services.customers.get(auth, params.id!),
      present: presentCustomer,
    }),
    op({
      name: 'updateCustomer',
      summary: 'Update a customer',
      description:
        'Changes name, phone, companyName or metadata (null removes phone, companyName or metadata; metadata is replaced whole). The email can not be changed (create another customer).',
      access: 'key',
      permission: 'invoices:write',
      audit: AUDIT.customer.update,
      events: ['customer.updated'],
      http: { method: 'PATCH', path: '/v1/customers/{id}', status: 200 },
      params: customerParam,
      mcp: { tool: 'update_customer', hints: HINTS.update },
      body: () =>
        z.strictObject({
          name: z.optional(name("The customer's name.")),
          phone: z.optional(describe(z.nullable(phone('Phone number.')), 'Phone number; null removes it.')),
          companyName: z.optional(describe(z.nullable(company('Company name.')), 'Company name; null removes it.')),
          metadata: z.optional(
            describe(
              z.nullable(metadata('Your key-value data.')),
              'Your key-value data, replaced whole; null removes it.',
            ),
          ),
        }),
      output: 'customerView',
      errors: ['CUSTOMER_NOT_FOUND', 'ENVIRONMENT_MISMATCH'],
      run: ({ services, auth, audit, params, body }) => services.customers.update(auth, audit, params.id!, body),
      present: presentCustomer,
    }),
    op({
      name: 'createPaymentMethodSetupUrl',
      summary: 'Get a payment-method setup link',
      description:
        'A single-use link (valid 24 hours) to a hosted page where the customer saves a card or US bank account. The first saved method becomes the default. Send the URL only to the customer. INVALID_STATE (details.processor not_configured) in PRODUCTION while no payment processor is configured.',
      access: 'key',
      permission: 'invoices:write',
      audit: AUDIT.customer.createSetupUrl,
      http: { method: 'POST', path: '/v1/customers/{id}/payment-methods/setup', status: 201 },
      params: customerParam,
      mcp: { tool: 'create_payment_method_setup_url', hints: HINTS.create },
      output: 'paymentMethodLinkView',
      errors: ['CUSTOMER_NOT_FOUND', 'ENVIRONMENT_MISMATCH', 'INVALID_STATE'],
      run: ({ services, auth, audit, params }) => services.customers.createSetupLink(auth, audit, params.id!),
    }),
    op({
      name: 'createPaymentUpdateUrl',
      summary: 'Get a payment-method update link',
      description:
        'A single-use link (valid 24 hours) to a hosted page where the customer replaces the default payment method: the new method becomes the default and the old one is removed. INVALID_STATE when the customer has no method yet (send a setup link), or in PRODUCTION while no payment processor is configured (details.processor not_configured).',
      access: 'key',
      permission: 'invoices:write',
      audit: AUDIT.customer.createUpdateUrl,
      http: { method: 'POST', path: '/v1/customers/{id}/payment-update-url', status: 201 },
      params: customerParam,
      mcp: { tool: 'create_payment_update_url', hints: HINTS.create },
      output: 'paymentMethodLinkView',
      errors: ['CUSTOMER_NOT_FOUND', 'ENVIRONMENT_MISMATCH', 'INVALID_STATE'],
      run: ({ services, auth, audit, params }) => services.customers.createUpdateLink(auth, audit, params.id!),
    }),
    list({
      name: 'listPaymentMethods',
      summary: "List a customer's payment methods",
      description: `The customer's saved payment methods, newest first (at most ${MAX_PAYMENT_METHODS}); brand and last 4 only, isDefault marks the default.`,
      access: 'key',
      permission: 'invoices:read',
      http: { method: 'GET', path: '/v1/customers/{id}/payment-methods', status: 200 },
      params: customerParam,
      mcp: { tool: 'list_payment_methods', hints: HINTS.read },
      filters: () => ({}),
      output: 'paymentMethodPageView',
      errors: ['CUSTOMER_NOT_FOUND', 'ENVIRONMENT_MISMATCH'],
      list: ({ services, auth, params }, page) => services.customers.listMethods(auth, params.id!, page),
      present: presentPaymentMethod,
    }),
    op({
      name: 'deletePaymentMethod',
      summary: 'Remove a payment method',
      description:
        'Removes a saved method (its encrypted number is erased). Removing the default makes the newest remaining method the default, or none.',
      access: 'key',
      permission: 'invoices:write',
      audit: AUDIT.customer.removePaymentMethod,
      events: ['customer.payment_method.removed'],
      http: { method: 'DELETE', path: '/v1/customers/{id}/payment-methods/{paymentMethodId}', status: 200 },
      params: { ...customerParam, paymentMethodId: 'The payment method id (`pm_...`).' },
      mcp: { tool: 'delete_payment_method', hints: HINTS.destructive },
      output: 'paymentMethodView',
      errors: ['CUSTOMER_NOT_FOUND', 'PAYMENT_METHOD_NOT_FOUND', 'ENVIRONMENT_MISMATCH'],
      run: ({ services, auth, audit, params }) =>
        services.customers.removeMethod(auth, audit, params.id!, params.paymentMethodId!),
      present: presentPaymentMethod,
    }),
    op({
      name: 'getPaymentMethodSession',
      summary: 'Read a payment-method link',
      description:
        "Public (the hosted page calls it with the link's token): whether the link is a setup or an update link, its status (OPEN, COMPLETED, EXPIRED), the merchant's and the customer's names and, for an update, the method it replaces. No ids, no metadata.",
      access: 'public',
      http: { method: 'GET', path: '/v1/payment-method-sessions/{token}', status: 200 },
      params: sessionParam,
      output: 'paymentMethodSessionView',
      errors: ['PAYMENT_METHOD_SESSION_NOT_FOUND'],
      run: ({ services, params }) => services.customers.getSession(params.token!),
    }),
    op({
      name: 'completePaymentMethodSession',
      summary: 'Save a payment method through a link',
      description: `Public (the hosted page's form posts it with the link's token): saves the card or bank account the customer entered. A setup link adds it (the default if it is the first); an update link makes it the default and removes the one it replaces. A link works once: used or expired answers INVALID_STATE. ${PAYMENT_METHOD_FIELDS}`,
      access: 'public',
      audit: AUDIT.customer.savePaymentMethod,
      events: ['customer.payment_method.saved', 'customer.payment_method.updated'],
      http: { method: 'POST', path: '/v1/payment-method-sessions/{token}', status: 201 },
      params: sessionParam,
      body: paymentMethodInput,
      output: 'paymentMethodView',
      errors: ['PAYMENT_METHOD_SESSION_NOT_FOUND', 'INVALID_STATE'],
      run: ({ services, auth, audit, params, body }) =>
        services.customers.completeSession(auth, audit, params.token!, body),
      present: presentPaymentMethod,
    }),
    op({
      name: 'attachTestPaymentMethod',
      summary: 'Attach a payment method (sandbox)',
      description: `Sandbox only: saves a method for the customer as the setup page would, without the page. Defaults: a card ${SANDBOX_CARDS.succeeds} expiring in three years; a bank account routing ${SANDBOX_BANK_ACCOUNT.routingNumber}, account ${SANDBOX_BANK_ACCOUNT.accountNumber}. Cards ${SANDBOX_CARDS.declines} and ${SANDBOX_CARDS.insufficientFunds} are saved but declined when charged; a bank account ending in 0002 fails when the debit settles.`,
      access: 'key',
      permission: 'invoices:write',
      sandboxOnly: true,
      audit: AUDIT.customer.savePaymentMethod,
      events: ['customer.payment_method.saved'],
      http: { method: 'POST', path: '/v1/test-helpers/customers/{id}/payment-methods', status: 201 },
      params: customerParam,
      mcp: { tool: 'attach_test_payment_method', hints: HINTS.create },
      body: () =>
        z.strictObject({
          type: z.optional(describe(z.enum(['card', 'us_bank_account']), 'card (default) or us_bank_account.')),
          number: z.optional(digits(`Card number (default ${SANDBOX_CARDS.succeeds}).`)),
          expMonth: z.optional(expMonth()),
          expYear: z.optional(expYear()),
          cvc: z.optional(cvc()),
          routingNumber: z.optional(digits(`Routing number (default ${SANDBOX_BANK_ACCOUNT.routingNumber}).`)),
          accountNumber: z.optional(digits(`Account number (default ${SANDBOX_BANK_ACCOUNT.accountNumber}).`)),
          accountHolderName: z.optional(holder()),
          accountType: z.optional(accountType()),
        }),
      output: 'paymentMethodView',
      errors: ['CUSTOMER_NOT_FOUND', 'ENVIRONMENT_MISMATCH', 'INVALID_STATE'],
      run: ({ services, auth, audit, params, body }) =>
        services.customers.attachTestMethod(auth, audit, params.id!, body),
      present: presentPaymentMethod,
    }),
  ],
);
