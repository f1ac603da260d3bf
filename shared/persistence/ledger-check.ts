import { ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import Big from 'big.js';
import { readBig } from './client.js';
import { ENTITY, walletCodec, type Item } from './items/codecs.js';

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
        ExpressionAttributeValues: { ':wallet': ENTITY.wallet, ':entry': ENTITY.ledgerEntry },
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    for (const item of page.Items ?? []) (item.entityType === ENTITY.wallet ? wallets : entries).push(item);
    startKey = page.LastEvaluatedKey;
  } while (startKey);

  const problems: string[] = [];
  const byEnvironment = new Map<string, { sum: Big; entries: number; wallets: number }>();
  const byTransaction = new Map<string, Big>();
  const byWallet = new Map<string, Big>();
  for (const entry of entries) {
    const amount = readBig(entry.amount);
    const env = String(entry.environment);
    const totals = byEnvironment.get(env) ?? { sum: new Big(0), entries: 0, wallets: 0 };
    totals.sum = totals.sum.plus(amount);
    totals.entries++;
    byEnvironment.set(env, totals);
    const txn = String(entry.transactionId);
    byTransaction.set(txn, (byTransaction.get(txn) ?? new Big(0)).plus(amount));
    if (entry.accountKind === 'WALLET') {
      const wallet = String(entry.account);
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
