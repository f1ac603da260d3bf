import { ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { JournalRecord } from '../domain/ledger/journal.js';
import { ledgerInvariants, type LedgerReport } from '../domain/ledger/ledger-invariants.js';
import type { Wallet } from '../domain/types.js';
import { TRANSACTION_ENTITY, journalCodec } from './entities/transaction.js';
import { WALLET_ENTITY, walletCodec } from './entities/wallet.js';

export type { LedgerReport };

/**
 * The ledger invariants (shared/domain/ledger/ledger-invariants.ts), checked against any table
 * (tests, `npm run ledger:check`) from its wallets and its journal. It scans the whole table: an
 * operator tool, never on a request path.
 */
export async function checkLedger(client: DynamoDBDocumentClient, tableName: string): Promise<LedgerReport> {
  const wallets: Wallet[] = [];
  const records: JournalRecord[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await client.send(
      new ScanCommand({
        TableName: tableName,
        ConsistentRead: true,
        FilterExpression: 'entityType IN (:wallet, :journal)',
        ExpressionAttributeValues: { ':wallet': WALLET_ENTITY, ':journal': TRANSACTION_ENTITY },
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    for (const item of page.Items ?? []) {
      if (item.entityType === WALLET_ENTITY) wallets.push(walletCodec.fromItem(item));
      else records.push(journalCodec.fromItem(item));
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return ledgerInvariants(wallets, records);
}
