import * as z from 'zod/mini';
import type { KybStatus } from '../types.js';
import { type Conforms, describe, enumOf, id, lazy, text, view } from '../views.js';
import type { CreatedOrganization, OrganizationService } from './organization-service.js';
import { everyOf } from '../enums.js';

/** The payload views of this area's own events (a module of their own: shared/domain/organizations/organization-events.ts reads their types without reaching the service this module presents). */
export * from './organization-event-views.js';

export const KYB_STATUSES = everyOf<KybStatus>()(['NOT_SUBMITTED', 'PENDING', 'VERIFIED', 'REJECTED']);

export const kybStatus = (description: string) => enumOf(KYB_STATUSES, description);

export const createdOrganizationView = /* @__PURE__ */ lazy(() =>
  view(
    {
      organization: describe(
        z.object({
          id: id('organization', 'Organization id.'),
          name: text('Organization name.'),
        }),
        'The new organization.',
      ),
      sandboxKey: text(
        'Secret sandbox API key holding all eight organization permissions, shown this once only: hand it to the organization now.',
      ),
      sandboxKeyId: id('apiKey', 'Id of the sandbox key.'),
      mainWalletId: id('wallet', 'The main wallet of the sandbox environment.'),
    },
    'The answer of creating an organization (operator): the organization, its sandbox environment with a main wallet, and a first sandbox key.',
    {
      organization: { id: 'org_ipK5yfL5D6aVwx00GZAMdBz0', name: 'Acme Robotics' },
      sandboxKey: 'svc_test_SAn5O5IUxe49NlFI0piLZ31bSdqVtFaeCfqK7d',
      sandboxKeyId: 'key_8Ej03yTwZN6jwUC3a19fdOHK',
      mainWalletId: 'wal_sbdFwe1fHYc4MU7IrQ3n5lUz',
    },
  ),
);
export type CreatedOrganizationView = z.infer<typeof createdOrganizationView>;

export function presentCreatedOrganization(result: CreatedOrganization): CreatedOrganizationView {
  return {
    organization: { id: result.organization.id, name: result.organization.name },
    sandboxKey: result.sandboxKey,
    sandboxKeyId: result.sandboxKeyId,
    mainWalletId: result.mainWalletId,
  };
}

export const kybDecisionView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: id('organization', 'The organization.'),
      kybStatus: describe(
        z.enum(['VERIFIED', 'REJECTED'] as const satisfies readonly KybStatus[]),
        'The business verification status now: VERIFIED or REJECTED.',
      ),
    },
    "The answer of the operator's business verification (KYB) decision.",
    { id: 'org_ipK5yfL5D6aVwx00GZAMdBz0', kybStatus: 'VERIFIED' },
  ),
);
export type KybDecisionView = z.infer<typeof kybDecisionView>;

/** Type-only: what the organization service answers as is must fit its view (a drift fails to compile). */
export type OrganizationAnswersConform = [
  Conforms<Awaited<ReturnType<OrganizationService['decideKyb']>>, KybDecisionView>,
];
