import { describe, expect, it } from 'vitest';
import { apiKeyKeys } from '../../shared/persistence/entities/api-key.js';
import { auditEntryKeys } from '../../shared/persistence/entities/audit-entry.js';
import { DELETABLE_KEY_PATTERNS } from '../../shared/persistence/entities/deletable-keys.js';
import { hotCandidateKeys } from '../../shared/persistence/entities/hot-candidate.js';
import { hotKeys } from '../../shared/persistence/entities/hot-wallet.js';
import { outboxEventKeys } from '../../shared/persistence/entities/outbox-event.js';
import { transactionKeys } from '../../shared/persistence/entities/transaction.js';
import { userKeys } from '../../shared/persistence/entities/user.js';
import { walletKeys } from '../../shared/persistence/entities/wallet.js';

/**
 * Review of issue 26: what the IAM grant `dynamodb:DeleteItem` / `BatchWriteItem` with
 * `ForAllValues:StringLike` on `dynamodb:LeadingKeys` (lib/constructs/service-function.ts
 * bindTable) reaches, with IAM's StringLike (`*` any run of characters, `?` one, case-sensitive,
 * the whole key). `dynamodb:LeadingKeys` is the partition key only: a pattern grants every item
 * of the partitions it matches, whatever its sort key.
 */
const stringLike = (pattern: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );
const deletable = (partitionKey: string) =>
  DELETABLE_KEY_PATTERNS.some((pattern) => stringLike(pattern).test(partitionKey));

const WALLET = 'wal_8Lm2Zq4Tr9Wb1XkPq3Ns5Vd7';

describe('the partitions a function may delete from', () => {
  it('never a journal record, an idempotency answer, a wallet, an audit entry, a key or an outbox item', () => {
    for (const key of [
      transactionKeys.primary('txn_8Lm2Zq4Tr9Wb1XkPq3Ns5Vd7').PK,
      walletKeys.primary(WALLET).PK,
      `${auditEntryKeys.partition('org_1', 'PRODUCTION')}#3`,
      apiKeyKeys.byHash('abc').PK,
      outboxEventKeys.primary('evt_1').PK,
      userKeys.primary('usr_1').PK,
    ])
      expect(deletable(key), key).toBe(false);
  });

  it('the items the service deletes: inbox items, lanes, the hot registry, email slots', () => {
    expect(deletable(hotKeys.inboxItem(WALLET, 3, 'txn_1').PK)).toBe(true);
    expect(deletable(hotKeys.lane(WALLET, 0).PK)).toBe(true);
    expect(deletable(hotCandidateKeys.registered(WALLET).PK)).toBe(true);
    expect(deletable(userKeys.email('org_1', 'a@b.test').PK)).toBe(true);
  });

  it('and, the partition being the grain, the accumulator beside the inbox items (credits not folded yet)', () => {
    // Not a choice: IAM has no condition on the sort key. The conditions of the service's own
    // deletes (fold-moves.ts, keeper-moves.ts, hot-close.ts) are what keep a funded lane or an
    // accumulator from being deleted; PutItem and UpdateItem reach every item anyway.
    expect(deletable(hotKeys.accumulator(WALLET, 0).PK)).toBe(true);
  });
});
