import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ApiError } from '../../domain/errors.js';
import { derivedId } from '../../domain/ledger/derived-ids.js';
import { postingLegsOf } from '../../domain/ledger/journal.js';
import { reversalLegs } from '../../domain/ledger/movements.js';
import { walletAccount, type Leg, type Posting } from '../../domain/ledger/posting.js';
import type { Environment } from '../../domain/tenancy.js';
import { log } from '../../observability/log.js';
import { HOT_INBOX_ENTITY, hotKeys } from '../entities/hot-wallet.js';
import { organizationEnvironmentCodec, organizationEnvironmentKeys } from '../entities/organization-environment.js';
import { journalCodec, transactionKeys } from '../entities/transaction.js';
import { walletKeys } from '../entities/wallet.js';
import { readInt } from '../client.js';
import { str, type Item } from '../item.js';
import { getItem, type TableContext } from '../table-context.js';
import type { TransactWrite } from '../transact.js';
import { postingWriters } from '../writers/posting-writers.js';
import { finishFold, foldedPartitions, KeeperRaced, raced } from './fold-moves.js';
import { commitRouted } from './hot-committer.js';
import { PENDING_ATTRIBUTE, pendingOf } from './hot-items.js';
import type { WriteContext } from './hot-routes.js';

/** Stragglers bounced per partition and run. */
const BOUNCE_BATCH = 25;

/**
 * The safety net of a closed hot wallet (design 2.1; decisions.md section 13): a credit that landed
 * in its inbox after the close (routed from a cache older than the close) is never folded into the
 * closed wallet; it goes back to its payer as a REVERSAL of the original movement, in ONE
 * transaction: the reversal's journal record (its id derived from the original's, so a second
 * keeper's bounce collides), the mirror legs of everyone but the closed wallet, the original
 * POSTED -> REVERSED, the Delete of the inbox item standing in for the closed wallet's leg, and
 * the accumulator's seq moved (a fold that read the item before cannot credit it too: fold-moves.ts).
 * The payer's leg is routed as any posting's (hot-committer.ts): a hot payer's refund is an inbox
 * credit; a payer closed meanwhile is refunded to its organization's main wallet of the environment
 * (as its deletion sweep did), which the reversal's `to` names. Never lost: an item whose bounce
 * fails is logged and stays for the next run (and the ledger check reports it); the others are
 * still bounced. Answers how many it bounced and how many of the items it read it left.
 */
export async function bounceStragglers(
  table: TableContext,
  walletId: string,
  partition: number,
): Promise<{ bounced: number; left: number }> {
  const main = await getItem(table, walletKeys.primary(walletId));
  if (!main?.deletedAt) return { bounced: 0, left: 0 };
  // A fold's credited items (the accumulator's `pending`) are deleted, never bounced: finished first.
  const acc = await getItem(table, hotKeys.accumulator(walletId, partition));
  if (pendingOf(acc).length > 0) await finishFold(table, walletId, partition, readInt(acc?.seq), pendingOf(acc));
  let bounced = 0;
  const items = await inboxItems(table, walletId, partition);
  for (const item of items) {
    const bounceOf = bounce(table, walletId, partition, item).catch((error: unknown) => {
      log.warn('hot straggler not bounced', error, { walletId, transactionId: item.transactionId });
      return false;
    });
    if (await bounceOf) bounced++;
  }
  return { bounced, left: items.length - bounced };
}

/**
 * Whether a closed wallet still has an inbox item to bounce (in any partition the keeper knows of,
 * `folded#g`): a bounce its payer refused stays until a run succeeds, and the scheduled keeper
 * keeps the wallet registered meanwhile (hot-mode-schedule.ts). False for a wallet not closed.
 */
export async function hasStragglers(table: TableContext, walletId: string): Promise<boolean> {
  const main = await getItem(table, walletKeys.primary(walletId));
  if (!main?.deletedAt) return false;
  for (let partition = 0; partition < foldedPartitions(main); partition++) {
    if ((await inboxItems(table, walletId, partition)).length > 0) return true;
  }
  return false;
}

/** The first BOUNCE_BATCH inbox items of a credit partition (strongly consistent). */
async function inboxItems(table: TableContext, walletId: string, partition: number): Promise<Item[]> {
  const output = await table.client.send(
    new QueryCommand({
      TableName: table.tableName,
      ConsistentRead: true,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :txn)',
      ExpressionAttributeValues: { ':pk': hotKeys.creditPartition(walletId, partition), ':txn': hotKeys.inboxPrefix },
      Limit: BOUNCE_BATCH,
    }),
  );
  return (output.Items ?? []).filter((item) => item.entityType === HOT_INBOX_ENTITY);
}

async function bounce(table: TableContext, walletId: string, partition: number, inbox: Item): Promise<boolean> {
  const originalId = str(inbox.transactionId);
  const originalItem = await getItem(table, transactionKeys.primary(originalId));
  if (!originalItem) return false;
  const original = journalCodec.fromItem(originalItem);
  const legs = await liveLegs(table, walletId, bounceLegs(walletId, postingLegsOf(original)));
  if (!legs) return false;
  const payee = legs.find((leg) => leg.account.kind === 'WALLET' && leg.amount.gt(0))?.account;
  const at = new Date().toISOString();
  const posting: Posting = {
    transactionId: await derivedId('transaction', `hot-bounce:${originalId}`),
    type: 'REVERSAL',
    organizationId: original.organizationId,
    environment: original.environment,
    currency: 'USD',
    legs,
    createdAt: at,
    description: 'Returned: the receiving wallet was closed',
    attributes: {
      from: original.to,
      to: payee?.kind === 'WALLET' ? payee.walletId : original.from,
      amount: original.amount,
      fee: '0.00',
      status: 'POSTED',
      postedAt: at,
      reversalOf: original.id,
    },
    record: 'create',
    reverses: original.id,
  };
  const closedMain = walletKeys.primary(walletId);
  // The accumulator's seq is bumped, so a fold that read this item before cannot credit it too (fold-moves.ts).
  const acc = await getItem(table, hotKeys.accumulator(walletId, partition));
  if (!acc || pendingOf(acc).length > 0) return false;
  // The closed wallet is written as cold (its leg is then dropped); every other wallet as routed.
  const build = ({ routes }: WriteContext): TransactWrite[] =>
    postingWriters
      .posting(
        table.tableName,
        { type: 'posting', posting },
        routes ? { routes: { ...routes, hotOf: (id) => (id === walletId ? undefined : routes.hotOf(id)) } } : {},
      )
      // The closed wallet's leg is the inbox item itself (the money never reached main).
      .filter(({ item }) => !(item.Update?.Key?.PK === closedMain.PK && item.Update.Key.SK === closedMain.SK))
      .concat({
        item: {
          Delete: {
            TableName: table.tableName,
            Key: hotKeys.inboxItem(walletId, partition, originalId),
            ConditionExpression: 'attribute_exists(PK)',
          },
        },
        onConditionFailed: raced(`inbox item ${originalId}`),
      })
      .concat({
        item: {
          Update: {
            TableName: table.tableName,
            Key: hotKeys.accumulator(walletId, partition),
            UpdateExpression: 'ADD seq :one',
            ConditionExpression: 'seq = :seen AND attribute_not_exists(#pending)',
            ExpressionAttributeNames: { '#pending': PENDING_ATTRIBUTE },
            ExpressionAttributeValues: { ':one': 1, ':seen': readInt(acc.seq) },
          },
        },
        onConditionFailed: raced(`accumulator ${partition}`),
      });
  try {
    await commitRouted(table, build, [posting]);
    return true;
  } catch (error) {
    // Another keeper bounced it (or folded it first): nothing to do.
    if (error instanceof KeeperRaced) return false;
    if (error instanceof ApiError && error.code === 'IDEMPOTENCY_KEY_IN_USE') return false;
    throw error;
  }
}

/**
 * The mirror of the original's legs, each wallet but the closed one netted into ONE leg of its
 * available balance: the credit goes back as money to spend. A capture's mirror would hold its
 * whole hold again and take the released rest back, on a hold that stays CAPTURED (money held for
 * nothing, and a bounce refused while the rest was spent); netted, the captured amount is available
 * to the hold's wallet. A payment's mirror is its reversal's legs unchanged.
 */
export function bounceLegs(closedId: string, legs: Leg[]): Leg[] {
  const out: Leg[] = [];
  const netted = new Map<string, Leg>();
  for (const leg of reversalLegs(legs)) {
    if (leg.account.kind !== 'WALLET' || leg.account.walletId === closedId) {
      out.push(leg);
      continue;
    }
    const seen = netted.get(leg.account.walletId);
    if (seen) {
      seen.amount = seen.amount.plus(leg.amount);
      continue;
    }
    const net = { account: leg.account, amount: leg.amount };
    netted.set(leg.account.walletId, net);
    out.push(net);
  }
  return out.filter((leg) => !leg.amount.eq(0));
}

/**
 * The reversal's legs with each wallet closed since (a deleted payer takes nothing) replaced by its
 * organization's main wallet of the environment, where the payer's deletion swept its balance
 * (agent-lifecycle.ts); undefined when there is none to take it (the item waits, logged).
 */
async function liveLegs(table: TableContext, closedId: string, legs: Leg[]): Promise<Leg[] | undefined> {
  const out: Leg[] = [];
  for (const leg of legs) {
    if (leg.account.kind !== 'WALLET' || leg.account.walletId === closedId) {
      out.push(leg);
      continue;
    }
    const wallet = await getItem(table, walletKeys.primary(leg.account.walletId));
    if (!wallet?.deletedAt) {
      out.push(leg);
      continue;
    }
    const scope = organizationEnvironmentKeys.primary(str(wallet.organizationId), wallet.environment as Environment);
    const record = await getItem(table, scope);
    if (!record) {
      log.warn('hot straggler: closed payer without a main wallet', undefined, { walletId: leg.account.walletId });
      return undefined;
    }
    // Into the main wallet's available balance, whatever bucket the closed payer's leg named.
    out.push({
      account: walletAccount(organizationEnvironmentCodec.fromItem(record).mainWalletId),
      amount: leg.amount,
    });
  }
  return out;
}
