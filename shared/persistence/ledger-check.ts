import { ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { JournalRecord } from '../domain/ledger/journal.js';
import { ledgerInvariants, type LedgerReport } from '../domain/ledger/ledger-invariants.js';
import { periodLimitsAt } from '../domain/ledger/hot/hot-balances.js';
import type { Policy } from '../domain/policies/policy-types.js';
import type { Wallet } from '../domain/types.js';
import { HOT_ACC_ENTITY, HOT_INBOX_ENTITY, HOT_LANE_ENTITY } from './entities/hot-wallet.js';
import { POLICY_ENTITY, policyCodec } from './entities/policy.js';
import { TRANSACTION_ENTITY, journalCodec } from './entities/transaction.js';
import { WALLET_ENTITY, walletCodec } from './entities/wallet.js';
import { hotPartsOfItems } from './hot/hot-items.js';
import type { Item } from './item.js';

export type { LedgerReport };

/**
 * The ledger invariants (shared/domain/ledger/ledger-invariants.ts), checked against any table
 * (tests, `npm run ledger:check`) from its wallets and its journal, and the sub-items of hot wallets
 * (accumulators, inbox items, lanes) with their policies' limits. It scans the whole table: an
 * operator tool, never on a request path. Exact only on a quiet table (no keeper move meanwhile).
 */
export async function checkLedger(
  client: DynamoDBDocumentClient,
  tableName: string,
  now: Date = new Date(),
): Promise<LedgerReport> {
  const wallets: Wallet[] = [];
  const records: JournalRecord[] = [];
  const mains = new Map<string, Item>();
  const hotItems = new Map<string, Item[]>();
  const policies = new Map<string, Policy[]>();
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await client.send(
      new ScanCommand({
        TableName: tableName,
        ConsistentRead: true,
        FilterExpression: 'entityType IN (:wallet, :journal, :acc, :inbox, :lane, :policy)',
        ExpressionAttributeValues: {
          ':wallet': WALLET_ENTITY,
          ':journal': TRANSACTION_ENTITY,
          ':acc': HOT_ACC_ENTITY,
          ':inbox': HOT_INBOX_ENTITY,
          ':lane': HOT_LANE_ENTITY,
          ':policy': POLICY_ENTITY,
        },
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    for (const item of page.Items ?? []) {
      if (item.entityType === WALLET_ENTITY) {
        const wallet = walletCodec.fromItem(item);
        wallets.push(wallet);
        mains.set(wallet.id, item);
      } else if (item.entityType === TRANSACTION_ENTITY) records.push(journalCodec.fromItem(item));
      else if (item.entityType === POLICY_ENTITY) {
        const policy = policyCodec.fromItem(item);
        policies.set(policy.walletId, [...(policies.get(policy.walletId) ?? []), policy]);
      } else {
        const walletId = String(item.walletId);
        hotItems.set(walletId, [...(hotItems.get(walletId) ?? []), item]);
      }
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  const hot = [...hotItems].flatMap(([walletId, items]) => {
    const main = mains.get(walletId);
    if (!main) return [];
    return [
      { parts: hotPartsOfItems(walletId, main, items), limits: periodLimitsAt(policies.get(walletId) ?? [], now) },
    ];
  });
  return ledgerInvariants(wallets, records, hot);
}
