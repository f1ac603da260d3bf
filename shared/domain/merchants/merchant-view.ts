import * as z from 'zod/mini';
import type { MerchantProfile } from '../types.js';
import {
  type Conforms,
  describe,
  enumOf,
  environment,
  flag,
  id,
  lazy,
  objectTag,
  text,
  timestamp,
  view,
} from '../views.js';
import type { MerchantService } from './merchant-service.js';
import { everyOf } from '../enums.js';

export const MERCHANT_STATUSES = everyOf<MerchantProfile['status']>()(['ACTIVE', 'SUSPENDED']);

const domain = () =>
  text('Merchant domain, lower case (e.g. `shop.example.com`); payers pay it with `to: "merchant:<domain>"`.');

export const merchantView = /* @__PURE__ */ lazy(() =>
  view(
    {
      object: objectTag('merchant_profile'),
      domain: domain(),
      environment: environment(),
      displayName: text('Name shown to payers.'),
      walletId: id('wallet', 'Wallet that receives the payments made to the merchant.'),
      closedLoop: flag(
        'Whether the merchant accepts closed-loop (wallet-to-wallet) payments; if false, paying it fails with CLOSED_LOOP_UNAVAILABLE.',
      ),
      status: enumOf(
        MERCHANT_STATUSES,
        'ACTIVE, or SUSPENDED by the operator: payments to it fail with MERCHANT_SUSPENDED.',
      ),
      createdAt: timestamp('When the profile was created.'),
      updatedAt: timestamp('When the profile was last changed.'),
    },
    'A merchant profile: a domain, unique per environment, that other wallets can pay as `merchant:<domain>`.',
    {
      object: 'merchant_profile',
      domain: 'shop.example.com',
      environment: 'SANDBOX',
      displayName: 'Example Shop',
      walletId: 'wal_eHZu8N9uBMLgsPmm9M53GS6w',
      closedLoop: true,
      status: 'ACTIVE',
      createdAt: '2026-03-10T08:00:00.000Z',
      updatedAt: '2026-03-14T12:20:45.000Z',
    },
  ),
);
export type MerchantView = z.infer<typeof merchantView>;

/** The profile without the organization id. */
export function presentMerchant(merchant: MerchantProfile): MerchantView {
  const { organizationId: _org, ...rest } = merchant;
  return { object: 'merchant_profile', ...rest };
}

export const merchantSuspendedView = /* @__PURE__ */ lazy(() =>
  view(
    {
      domain: domain(),
      status: describe(
        z.literal('SUSPENDED'),
        'Always SUSPENDED: payments to the domain now fail with MERCHANT_SUSPENDED, in every environment.',
      ),
    },
    'The answer of an operator suspending a merchant domain.',
    { domain: 'shop.example.com', status: 'SUSPENDED' },
  ),
);
export type MerchantSuspendedView = z.infer<typeof merchantSuspendedView>;

/** Type-only: what the merchant service answers as is must fit its view (a drift fails to compile). */
export type MerchantAnswersConform = [
  Conforms<Awaited<ReturnType<MerchantService['suspend']>>, MerchantSuspendedView>,
  // presentMerchant spreads the profile: a new profile field must be declared in the view first.
  Conforms<{ object: 'merchant_profile' } & Omit<MerchantProfile, 'organizationId'>, MerchantView>,
];
