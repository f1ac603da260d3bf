import * as z from 'zod/mini';
import { kybStatus } from '../organizations/organization-view.js';
import { type Conforms, describe, flag, lazy, nullableTimestamp, text, timestamp, view } from '../views.js';
import type { ActivationService, ActivationStatus } from './activation-service.js';

const statusFields = () => ({
  kybVerified: flag('Whether business verification (KYB) is VERIFIED.'),
  tosAccepted: flag('Whether the terms of service were accepted.'),
  billingMethodAdded: flag('Whether a billing method was added.'),
  productionActivated: flag('Whether the PRODUCTION environment is active (then production keys can be created).'),
  kybStatus: kybStatus(
    'Business verification status: NOT_SUBMITTED, PENDING (waiting for the operator), VERIFIED or REJECTED (may be submitted again).',
  ),
  productionActivatedAt: nullableTimestamp('When production was activated, or null.'),
});
const statusExample: z.output<z.ZodMiniObject<ReturnType<typeof statusFields>>> = {
  kybVerified: true,
  tosAccepted: true,
  billingMethodAdded: false,
  productionActivated: false,
  kybStatus: 'VERIFIED',
  productionActivatedAt: null,
};

const STATUS_TEXT =
  'Production activation progress: production needs kybVerified, tosAccepted and billingMethodAdded, then activate-production.';

export const activationStatusView = /* @__PURE__ */ lazy(() => view(statusFields(), STATUS_TEXT, statusExample));
export type ActivationStatusView = z.infer<typeof activationStatusView>;

export const kybSubmittedView = /* @__PURE__ */ lazy(() =>
  view(
    statusFields(),
    `The answer of submitting business verification (KYB): kybStatus is PENDING until the operator decides (VERIFIED at once where auto-approval is on). ${STATUS_TEXT}`,
    { ...statusExample, kybVerified: false, kybStatus: 'PENDING' },
  ),
);
export type KybSubmittedView = z.infer<typeof kybSubmittedView>;

export const billingMethodAddedView = /* @__PURE__ */ lazy(() =>
  view(
    statusFields(),
    `The answer of adding a billing method (a card; only its last 4 digits are kept). ${STATUS_TEXT}`,
    { ...statusExample, billingMethodAdded: true },
  ),
);
export type BillingMethodAddedView = z.infer<typeof billingMethodAddedView>;

export const tosAcceptedView = /* @__PURE__ */ lazy(() =>
  view(
    {
      ...statusFields(),
      tosAcceptance: describe(
        z.object({
          tosVersion: text('The accepted terms of service version.'),
          ipAddress: text('IP address the acceptance came from.'),
          acceptedAt: timestamp('When the terms were accepted.'),
        }),
        'The acceptance just recorded.',
      ),
    },
    `The answer of accepting the terms of service. ${STATUS_TEXT}`,
    {
      ...statusExample,
      tosAcceptance: { tosVersion: '2026-01', ipAddress: '203.0.113.24', acceptedAt: '2026-03-14T09:40:00.000Z' },
    },
  ),
);
export type TosAcceptedView = z.infer<typeof tosAcceptedView>;

export const activatedView = /* @__PURE__ */ lazy(() =>
  view(
    {
      activated: flag('Always true.'),
      activatedAt: timestamp('When production was activated (the same on every later call).'),
    },
    'The answer of activating production: the PRODUCTION environment and its main wallet exist; create production keys with POST /v1/api-keys {environment: "PRODUCTION"}.',
    { activated: true, activatedAt: '2026-03-15T08:00:00.000Z' },
  ),
);
export type ActivatedView = z.infer<typeof activatedView>;

/** Type-only: what the activation service answers as is must fit its views (a drift fails to compile). */
export type ActivationAnswersConform = [
  Conforms<ActivationStatus, ActivationStatusView>,
  Conforms<Awaited<ReturnType<ActivationService['status']>>, ActivationStatusView>,
  Conforms<Awaited<ReturnType<ActivationService['acceptTos']>>, TosAcceptedView>,
  Conforms<Awaited<ReturnType<ActivationService['submitKyb']>>, KybSubmittedView>,
  Conforms<Awaited<ReturnType<ActivationService['addBillingMethod']>>, BillingMethodAddedView>,
  Conforms<Awaited<ReturnType<ActivationService['activateProduction']>>, ActivatedView>,
];
