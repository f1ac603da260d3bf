import type { Change, ChangeCommitter } from '../domain/changes.js';
import type { TableContext } from './table-context.js';
import { transactWrite, type TransactWrite } from './transact.js';
import type { ChangeWriter, ChangeWriters } from './write-builders.js';
import { apiKeyWriters } from './writers/api-key-writers.js';
import { approvalWriters } from './writers/approval-writers.js';
import { auditWriters } from './writers/audit-writers.js';
import { idempotencyWriters } from './writers/idempotency-writers.js';
import { merchantWriters } from './writers/merchant-writers.js';
import { organizationWriters } from './writers/organization-writers.js';
import { paymentWriters } from './writers/payment-writers.js';
import { policyWriters } from './writers/policy-writers.js';
import { postingWriters } from './writers/posting-writers.js';
import { walletWriters } from './writers/wallet-writers.js';

/**
 * Every change type's writer, registered by its area. The annotation makes a change type without
 * a writer a compile error; AreaWritersAreDisjoint below makes one with two writers an error too.
 */
const WRITERS: ChangeWriters<Change> = {
  ...organizationWriters,
  ...walletWriters,
  ...apiKeyWriters,
  ...postingWriters,
  ...paymentWriters,
  ...idempotencyWriters,
  ...policyWriters,
  ...approvalWriters,
  ...merchantWriters,
  ...auditWriters,
};

type AreaWriters = [typeof organizationWriters, typeof walletWriters, typeof apiKeyWriters, typeof postingWriters, typeof paymentWriters, typeof idempotencyWriters, typeof policyWriters, typeof approvalWriters, typeof merchantWriters, typeof auditWriters];
type KeysOfAny<M> = M extends unknown ? keyof M : never;
type Overlap<Maps extends unknown[]> = Maps extends [infer Head, ...infer Tail] ? (keyof Head & KeysOfAny<Tail[number]>) | Overlap<Tail> : never;
type Assert<Condition extends true> = Condition;
/** Compile-time check: no change type is registered by two areas (a spread would keep only the last). */
export type AreaWritersAreDisjoint = Assert<[Overlap<AreaWriters>] extends [never] ? true : false>;

/**
 * Turns the changes a service decided into the items of one TransactWriteItems call, each with
 * its condition and the error a failed condition means.
 */
function toTransactWrites(tableName: string, changes: Change[]): TransactWrite[] {
  return changes.flatMap((change) => (WRITERS[change.type] as ChangeWriter<Change>)(tableName, change));
}

/** The one write path of every store: the changes in one transaction, all or nothing. */
export function createCommitter(table: TableContext): ChangeCommitter {
  return {
    async commit(changes) {
      await transactWrite(table.client, toTransactWrites(table.tableName, changes), table.transact);
    },
  };
}
