import type { ChangeCommitter } from '../domain/change-committer.js';
import type { PostingChange } from '../domain/ledger/posting.js';
import { conflictMeter } from './hot/hot-candidates.js';
import { commitRouted, hotRoutingOf } from './hot/hot-committer.js';
import type { WriteContext } from './hot/hot-routes.js';
import type { TableContext } from './table-context.js';
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
  context: WriteContext,
): TransactWrite[] {
  return changes.flatMap((change) =>
    (writers[change.type as C['type']] as unknown as ChangeWriter<C>)(tableName, change, context),
  );
}

/**
 * The one write path of every store: the changes in one transaction, all or nothing. A store
 * passes the writers of the change types its area writes (its port's `commit` type): a missing
 * writer does not compile, and the function bundles no other area's writers. Postings are routed
 * through the hot-wallet routing (hot/hot-committer.ts): a cold wallet's transaction is unchanged.
 */
export function createCommitter<C extends AnyChange>(
  table: TableContext,
  writers: ChangeWriters<C>,
): ChangeCommitter<C> {
  return {
    async commit(changes) {
      const postings = changes.flatMap((change) =>
        change.type === 'posting' ? [(change as unknown as PostingChange).posting] : [],
      );
      // Conflicted attempts are counted per wallet for automatic promotion (hot/hot-candidates.ts).
      const meter = conflictMeter(table, hotRoutingOf(table));
      try {
        await commitRouted(
          meter.table,
          (context) => meter.writing(toTransactWrites(writers, table.tableName, changes, context)),
          postings,
        );
      } finally {
        meter.done();
      }
    },
  };
}
