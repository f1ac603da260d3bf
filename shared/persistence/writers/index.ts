import type { ChangeWriter, ChangeWriters } from '../write-builders.js';
import { apiKeyWriters } from './api-key-writers.js';
import { approvalWriters } from './approval-writers.js';
import { auditWriters } from './audit-writers.js';
import { bankAccountWriters } from './bank-account-writers.js';
import { cardWriters } from './card-writers.js';
import { customerWriters } from './customer-writers.js';
import { disputeWriters } from './dispute-writers.js';
import { invoiceCollectionWriters } from './invoice-collection-writers.js';
import { invoiceWriters } from './invoice-writers.js';
import { idempotencyWriters } from './idempotency-writers.js';
import { merchantWriters } from './merchant-writers.js';
import { organizationWriters } from './organization-writers.js';
import { paymentLinkWriters } from './payment-link-writers.js';
import { paymentWriters } from './payment-writers.js';
import { policyWriters } from './policy-writers.js';
import { signInWriters } from './sign-in-writers.js';
import { postingWriters } from './posting-writers.js';
import { transferWriters } from './transfer-writers.js';
import { userWriters } from './user-writers.js';
import { walletWriters } from './wallet-writers.js';
import { webhookWriters } from './webhook-writers.js';

/**
 * Every area's writers, one entry per area: the one list the `Change` union and WRITERS are
 * derived from. An area's change types are declared in its shared/domain/<area>/ports.ts and get
 * their writers (exactly one each, checked by the area map's `ChangeWriters<...>` annotation) in
 * writers/<area>-writers.ts.
 */
const AREA_WRITERS = [
  organizationWriters,
  walletWriters,
  apiKeyWriters,
  postingWriters,
  paymentWriters,
  idempotencyWriters,
  policyWriters,
  approvalWriters,
  merchantWriters,
  webhookWriters,
  bankAccountWriters,
  auditWriters,
  transferWriters,
  cardWriters,
  customerWriters,
  invoiceWriters,
  invoiceCollectionWriters,
  paymentLinkWriters,
  disputeWriters,
  userWriters,
  signInWriters,
] as const;

/** The change types the writers of an area map take (distributed over a union of maps). */
type ChangesOf<Writers> = Writers extends unknown
  ? { [K in keyof Writers]: Writers[K] extends ChangeWriter<infer C> ? C : never }[keyof Writers]
  : never;

/**
 * What a service may decide to write, as data: the union of every area's changes, derived from the
 * writers (so a change type has a writer by construction). The store writes one list of changes in
 * ONE DynamoDB transaction with each change's condition; a failed condition becomes the ApiError
 * the change's writer maps. Services never use this union: each is typed by its own port's changes.
 */
export type Change = ChangesOf<(typeof AREA_WRITERS)[number]>;

/** Every change type's writer (the test fixtures' committer of all changes). */
export const WRITERS: ChangeWriters<Change> = Object.assign({}, ...AREA_WRITERS);

type KeysOfAny<M> = M extends unknown ? keyof M : never;
type Overlap<Maps extends readonly unknown[]> = Maps extends readonly [infer Head, ...infer Tail]
  ? (keyof Head & KeysOfAny<Tail[number]>) | Overlap<Tail>
  : never;
type Assert<Condition extends true> = Condition;
/** Compile-time check: no change type is registered by two areas (the merge would keep only the last). */
export type AreaWritersAreDisjoint = Assert<[Overlap<typeof AREA_WRITERS>] extends [never] ? true : false>;
