import type { Change } from '../../domain/changes.js';
import type { ChangeWriters } from '../write-builders.js';
import { apiKeyWriters } from './api-key-writers.js';
import { approvalWriters } from './approval-writers.js';
import { auditWriters } from './audit-writers.js';
import { bankAccountWriters } from './bank-account-writers.js';
import { cardWriters } from './card-writers.js';
import { idempotencyWriters } from './idempotency-writers.js';
import { merchantWriters } from './merchant-writers.js';
import { organizationWriters } from './organization-writers.js';
import { paymentWriters } from './payment-writers.js';
import { policyWriters } from './policy-writers.js';
import { postingWriters } from './posting-writers.js';
import { transferWriters } from './transfer-writers.js';
import { walletWriters } from './wallet-writers.js';
import { webhookWriters } from './webhook-writers.js';

/**
 * Every change type's writer, registered by its area. The annotation makes a change type without
 * a writer a compile error; AreaWritersAreDisjoint below makes one with two writers an error too.
 */
export const WRITERS: ChangeWriters<Change> = {
  ...organizationWriters,
  ...walletWriters,
  ...apiKeyWriters,
  ...postingWriters,
  ...paymentWriters,
  ...idempotencyWriters,
  ...policyWriters,
  ...approvalWriters,
  ...merchantWriters,
  ...webhookWriters,
  ...bankAccountWriters,
  ...auditWriters,
  ...transferWriters,
  ...cardWriters,
};

type AreaWriters = [typeof organizationWriters, typeof walletWriters, typeof apiKeyWriters, typeof postingWriters, typeof paymentWriters, typeof idempotencyWriters, typeof policyWriters, typeof approvalWriters, typeof merchantWriters, typeof webhookWriters, typeof bankAccountWriters, typeof auditWriters, typeof transferWriters, typeof cardWriters];
type KeysOfAny<M> = M extends unknown ? keyof M : never;
type Overlap<Maps extends unknown[]> = Maps extends [infer Head, ...infer Tail] ? (keyof Head & KeysOfAny<Tail[number]>) | Overlap<Tail> : never;
type Assert<Condition extends true> = Condition;
/** Compile-time check: no change type is registered by two areas (a spread would keep only the last). */
export type AreaWritersAreDisjoint = Assert<[Overlap<AreaWriters>] extends [never] ? true : false>;

