import type { ChangeCommitter } from '../domain/change-committer.js';
import type { TableContext } from './table-context.js';
import { meteredTransactWrite } from './hot/hot-candidates.js';
import type { TransactWrite } from './transact.js';
import type { AnyChange, ChangeWriter, ChangeWriters } from './write-builders.js';
/**
 * Turns the changes a service decided into the items of one TransactWriteItems call, each with
 * its condition and the error a failed condition means.
 */
function toTransactWrites<C extends AnyChange>(
  writers: ChangeWriters<C>,
  tableName: string,
  changes: C[],
): TransactWrite[] {
  return changes.flatMap((change) =>
    (writers[change.type as C['type']] as unknown as ChangeWriter<C>)(tableName, change),
  );
}

/**
 * The one write path of every store: the changes in one transaction, all or nothing. A store
 * passes the writers of the change types its area writes (its port's `commit` type): a missing
 * writer does not compile, and the function bundles no other area's writers.
 */
export function createCommitter<C extends AnyChange>(
  table: TableContext,
  writers: ChangeWriters<C>,
): ChangeCommitter<C> {
  return {
    async commit(changes) {
      await meteredTransactWrite(table, toTransactWrites(writers, table.tableName, changes));
    },
  };
}
