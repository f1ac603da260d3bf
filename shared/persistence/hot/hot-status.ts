import { hotKeys } from '../entities/hot-wallet.js';
import type { TransactWrite } from '../transact.js';

/**
 * The lanes' share of a hot wallet's freeze or unfreeze (decisions.md section 13: payments out stop at
 * once): every lane's status set with main's, in main's transaction. One builder for the keeper's
 * setHotWalletStatus (keeper.ts) and the wallet writer of agent pause and resume (wallet-writers.ts).
 */
export function laneStatusWrites(
  tableName: string,
  walletId: string,
  lanes: number,
  status: 'FROZEN' | 'ACTIVE',
  onConditionFailed: (lane: number) => TransactWrite['onConditionFailed'],
): TransactWrite[] {
  return Array.from({ length: lanes }, (_, lane) => ({
    item: {
      Update: {
        TableName: tableName,
        Key: hotKeys.lane(walletId, lane),
        UpdateExpression: 'SET #status = :to ADD seq :one',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':to': status, ':one': 1 },
      },
    },
    onConditionFailed: onConditionFailed(lane),
  }));
}
