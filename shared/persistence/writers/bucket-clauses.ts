import type { BucketMovement } from '../../domain/ledger/posting.js';
import { BUCKETS } from '../../domain/ledger/posting.js';
import { toNumberAttribute } from '../client.js';
import { bucketAttribute } from '../entities/wallet.js';

/**
 * The clauses every wallet item a posting writes shares (a cold wallet, a hot wallet's main): ACTIVE
 * unless its legs only settle a hold, each bucket's net change, and each bucket a leg takes from
 * holding what all its legs take, so none is ever negative after the write. Appended, in that order,
 * to the caller's update.
 */
export function addBucketClauses(
  movement: BucketMovement,
  update: {
    adds: string[];
    conditions: string[];
    names: Record<string, string>;
    values: Record<string, unknown>;
  },
): void {
  const { delta, taken, settlesHold } = movement;
  if (!settlesHold) {
    update.conditions.push('#status = :active');
    update.names['#status'] = 'status';
    update.values[':active'] = 'ACTIVE';
  }
  for (const bucket of BUCKETS) {
    const attribute = bucketAttribute[bucket];
    if (!delta[bucket].eq(0)) {
      update.adds.push(`${attribute} :d_${bucket}`);
      update.values[`:d_${bucket}`] = toNumberAttribute(delta[bucket]);
    }
    if (taken[bucket].gt(0)) {
      update.conditions.push(`${attribute} >= :t_${bucket}`);
      update.values[`:t_${bucket}`] = toNumberAttribute(taken[bucket]);
    }
  }
}
