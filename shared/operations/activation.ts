import * as z from 'zod/mini';
import type { ActivationService } from '../domain/activation/activation-service.js';
import { AUDIT } from '../domain/audit/actions.js';
import { defineGroup, operation } from './define.js';
import { describe, text as boundedText } from './fields.js';

export interface ActivationServices {
  activation: ActivationService;
}

const op = operation<ActivationServices>();
const text = (max: number, description: string) => boundedText(max, description, { trim: true, min: 1 });
/** Address lines are stored as written (not trimmed). */
const line = (max: number, description: string) => boundedText(max, description, { min: 1 });
const optionalLine = (max: number, description: string) => z.optional(boundedText(max, description));

/** Production activation (decisions.md section 11): what the dashboard calls, organization admin keys only. */
export const ACTIVATION = defineGroup<ActivationServices>()('activation', {}, [
  op({
    name: 'getStatus',
    summary: 'Get the activation status',
    description:
      'Which production requirements are met (KYB verified, terms accepted, billing method added) and whether production is active.',
    access: 'organization',
    permission: 'admin',
    http: { method: 'GET', path: '/v1/activation/status', status: 200 },
    output: 'activationStatusView',
    errors: ['ORGANIZATION_NOT_FOUND'],
    run: ({ services, auth }) => services.activation.status(auth),
  }),
  op({
    name: 'acceptTos',
    summary: 'Accept the terms of service',
    description: "Records the acceptance of a terms version with the caller's IP address.",
    access: 'organization',
    permission: 'admin',
    audit: AUDIT.organization.acceptTos,
    http: { method: 'POST', path: '/v1/activation/accept-tos', status: 200 },
    body: () => z.strictObject({ tosVersion: text(50, 'The version of the terms accepted.') }),
    output: 'tosAcceptedView',
    errors: ['ORGANIZATION_NOT_FOUND', 'INVALID_STATE'],
    run: ({ services, auth, audit, body }) => services.activation.acceptTos(auth, audit, body),
  }),
  op({
    name: 'submitKyb',
    summary: 'Submit business details (KYB)',
    description: 'Submits the business details for verification; the status is PENDING until the operator decides.',
    access: 'organization',
    permission: 'admin',
    audit: AUDIT.organization.submitKyb,
    http: { method: 'POST', path: '/v1/activation/kyb', status: 200 },
    body: () =>
      z.strictObject({
        legalName: text(200, 'Registered legal name of the business.'),
        taxId: text(50, 'Tax identification number (e.g. an EIN).'),
        address: describe(
          z.strictObject({
            line1: line(200, 'Street address.'),
            line2: optionalLine(200, 'Apartment, suite or floor.'),
            city: line(100, 'City.'),
            state: optionalLine(100, 'State, province or region.'),
            postalCode: line(20, 'Postal code.'),
            country: describe(
              z
                .string()
                .check(
                  z.maxLength(2, 'must be an ISO 3166-1 alpha-2 code'),
                  z.regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code'),
                ),
              'Country, ISO 3166-1 alpha-2 (e.g. US).',
            ),
          }),
          'Registered business address.',
        ),
      }),
    output: 'kybSubmittedView',
    errors: ['ORGANIZATION_NOT_FOUND', 'INVALID_STATE'],
    run: ({ services, auth, audit, body }) => services.activation.submitKyb(auth, audit, body),
  }),
  op({
    name: 'addBillingMethod',
    summary: 'Add a billing method',
    description: 'Adds the card that pays for production use (sandbox test numbers); only its last 4 digits are kept.',
    access: 'organization',
    permission: 'admin',
    audit: AUDIT.organization.addBillingMethod,
    http: { method: 'POST', path: '/v1/activation/billing-method', status: 200 },
    body: () =>
      z.strictObject({
        type: describe(z.literal('card'), 'The kind of billing method; only "card".'),
        number: describe(
          z
            .string()
            .check(z.maxLength(19, 'must be 12 to 19 digits'), z.regex(/^\d{12,19}$/, 'must be 12 to 19 digits')),
          'The card number, 12 to 19 digits.',
        ),
      }),
    output: 'billingMethodAddedView',
    errors: ['ORGANIZATION_NOT_FOUND'],
    run: ({ services, auth, audit, body }) => services.activation.addBillingMethod(auth, audit, body),
  }),
  op({
    name: 'activateProduction',
    summary: 'Activate production',
    description:
      'Creates the production environment and its main wallet once every requirement is met; otherwise 400 ACTIVATION_INCOMPLETE lists what is missing.',
    access: 'organization',
    permission: 'admin',
    audit: AUDIT.organization.activateProduction,
    http: { method: 'POST', path: '/v1/activation/activate-production', status: 200 },
    output: 'activatedView',
    errors: ['ACTIVATION_INCOMPLETE', 'ORGANIZATION_NOT_FOUND'],
    run: ({ services, auth, audit }) => services.activation.activateProduction(auth, audit),
  }),
]);
