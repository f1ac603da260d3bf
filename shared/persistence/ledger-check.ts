import { ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import Big from 'big.js';
import { LEDGER_ENTRY_ENTITY, ledgerEntryCodec } from './entities/ledger-entry.js';
import { WALLET_ENTITY, walletCodec } from './entities/wallet.js';
import type { Item } from './item.js';

export interface LedgerReport {
  environments: Record<string, { sum: string; entries: number; wallets: number }>;
  problems: string[];
}

/**
 * The ledger invariants, checked against any table (tests, `npm run ledger:check`):
 * per environment every entry (wallets and system accounts) sums to zero; each transaction's
 * entries sum to zero; each wallet balance equals the sum of its entries; no wallet is negative.
 * It scans the whole table: an operator tool, never on a request path.
 */
export async function checkLedger(client: DynamoDBDocumentClient, tableName: string): Promise<LedgerReport> {
  const wallets: Item[] = [];
  const entries: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await client.send(
      new ScanCommand({
        TableName: tableName,
        ConsistentRead: true,
        FilterExpression: 'entityType IN (:wallet, :entry)',
        ExpressionAttributeValues: { ':wallet': WALLET_ENTITY, ':entry': LEDGER_ENTRY_ENTITY },
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    for (const item of page.Items ?? []) (item.entityType === WALLET_ENTITY ? wallets : entries).push(item);
    startKey = page.LastEvaluatedKey;
  } while (startKey);

  const problems: string[] = [];
  const byEnvironment = new Map<string, { sum: Big; entries: number; wallets: number }>();
  const byTransaction = new Map<string, Big>();
  const byWallet = new Map<string, Big>();
  for (const item of entries) {
    const entry = ledgerEntryCodec.fromItem(item);
    const amount = entry.amount;
    const env = entry.environment;
    const totals = byEnvironment.get(env) ?? { sum: new Big(0), entries: 0, wallets: 0 };
    totals.sum = totals.sum.plus(amount);
    totals.entries++;
    byEnvironment.set(env, totals);
    const txn = entry.transactionId;
    byTransaction.set(txn, (byTransaction.get(txn) ?? new Big(0)).plus(amount));
    if (entry.account.kind === 'WALLET') {
      const wallet = entry.account.walletId;
      byWallet.set(wallet, (byWallet.get(wallet) ?? new Big(0)).plus(amount));
    }
  }
  for (const [env, totals] of byEnvironment) {
    if (!totals.sum.eq(0)) problems.push(`environment ${env}: entries sum to ${totals.sum.toFixed()}, not 0`);
  }
  for (const [txn, sum] of byTransaction) {
    if (!sum.eq(0)) problems.push(`transaction ${txn}: entries sum to ${sum.toFixed()}, not 0`);
  }
  for (const item of wallets) {
    const wallet = walletCodec.fromItem(item);
    const expected = byWallet.get(wallet.id) ?? new Big(0);
    if (!wallet.balance.eq(expected)) problems.push(`wallet ${wallet.id}: balance ${wallet.balance.toFixed()} but entries sum to ${expected.toFixed()}`);
    if (wallet.balance.lt(0)) problems.push(`wallet ${wallet.id}: negative balance ${wallet.balance.toFixed()}`);
    const totals = byEnvironment.get(wallet.environment) ?? { sum: new Big(0), entries: 0, wallets: 0 };
    totals.wallets++;
    byEnvironment.set(wallet.environment, totals);
  }
  const environments = Object.fromEntries([...byEnvironment].map(([env, t]) => [env, { sum: t.sum.toFixed(), entries: t.entries, wallets: t.wallets }]));
  return { environments, problems };
}
