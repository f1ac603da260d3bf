import {
  ConditionalCheckFailedException,
  TransactionCanceledException,
  type CancellationReason,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import Big from 'big.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Posting } from '../../shared/domain/ledger/posting.js';
import { transferLegs, walletAccount } from '../../shared/domain/ledger/posting.js';
import type { Approval, Transaction } from '../../shared/domain/types.js';
import { createApiKeyAuthReader } from '../../shared/persistence/api-key-auth-store.js';
import { createCommitter } from '../../shared/persistence/change-writer.js';
import { WRITERS, type Change } from '../../shared/persistence/writers/index.js';
import { createDocumentClient } from '../../shared/persistence/client.js';
import type { TableContext } from '../../shared/persistence/table-context.js';
import { CONFLICT_RETRY_LIMIT } from '../../shared/persistence/transact.js';
import { createWalletReader } from '../../shared/persistence/wallet-store.js';

/**
 * The DynamoDB adapter over a mocked SDK (aws-sdk-client-mock): the requests the stores send and
 * how SDK failures become our ApiErrors. No DynamoDB Local, no network.
 */
const TABLE = 'allowance-unit';
const AT = '2026-11-21T10:00:00.000Z';

const ddb = mockClient(DynamoDBDocumentClient);
let table: TableContext;
let sleep: ReturnType<typeof vi.fn<(ms: number) => Promise<void>>>;

beforeEach(() => {
  ddb.reset();
  sleep = vi.fn(async (_ms: number) => {});
  table = { client: createDocumentClient(), tableName: TABLE, transact: { sleep, random: () => 0.5 } };
});

afterEach(() => ddb.reset());

function canceled(reasons: CancellationReason[]): TransactionCanceledException {
  return new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: reasons,
  });
}

/** The items of the one TransactWriteItems call that was sent. */
function sentItems() {
  const calls = ddb.commandCalls(TransactWriteCommand);
  expect(calls).toHaveLength(1);
  return calls[0]!.args[0].input.TransactItems ?? [];
}

/** A payment of 10.00 from wal_payer to wal_payee: its journal record, then the payer and payee updates. */
function payment(): Change {
  const posting: Posting = {
    transactionId: 'txn_1',
    type: 'PAYMENT',
    organizationId: 'org_1',
    environment: 'SANDBOX',
    currency: 'USD',
    legs: transferLegs(walletAccount('wal_payer'), walletAccount('wal_payee'), new Big('10.00')),
    createdAt: AT,
    attributes: { from: 'wal_payer', to: 'wal_payee', amount: '10.00', fee: '0.00', status: 'POSTED', postedAt: AT },
    record: 'create',
  };
  return { type: 'posting', posting };
}

describe('DynamoDB adapter (mocked SDK)', () => {
  describe('request shapes', () => {
    it('writes a posting in one TransactWriteItems: the journal record first, then conditional balance updates', async () => {
      // Prepare
      ddb.on(TransactWriteCommand).resolves({});
      // Act
      await createCommitter(table, WRITERS).commit([payment()]);
      // Assess
      const items = sentItems();
      expect(items).toHaveLength(3);
      const [record, payer, payee] = items;
      expect(record?.Put).toMatchObject({
        Item: {
          PK: 'TXN#txn_1',
          SK: 'TXN',
          entityType: 'TRANSACTION',
          GSI2PK: 'WALLET#wal_payer#TXNS',
          GSI3PK: 'WALLET#wal_payee#TXNS_IN',
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      });
      expect(record?.Put?.Item).not.toHaveProperty('legs');
      expect(payer?.Update).toMatchObject({
        TableName: TABLE,
        Key: { PK: 'WALLET#wal_payer', SK: 'WALLET' },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      });
      expect(payer?.Update?.ConditionExpression).toContain('balance >= :t_available');
      // A closed wallet (a deleted agent) takes nothing: money there would be stranded. A cold
      // route also requires the wallet still cold (a promoted one answers HotRoutingStale once).
      expect(payee?.Update?.ConditionExpression).toBe(
        'attribute_exists(PK) AND attribute_not_exists(deletedAt) AND environment = :environment AND attribute_not_exists(hot) AND #status = :active',
      );
      expect(sentItems().every((item) => (item.Put ?? item.Update)?.ConditionExpression)).toBe(true);
    });

    it('conditions a decision on the from states of its trigger and takes the approval out of the pending index', async () => {
      ddb.on(TransactWriteCommand).resolves({});
      const approval = { id: 'apr_1', status: 'REJECTED', decidedAt: AT } as Approval;
      await createCommitter(table, WRITERS).commit([{ type: 'decideApproval', approval, trigger: 'reject' }]);
      const [decide] = sentItems();
      expect(decide?.Update).toMatchObject({
        Key: { PK: 'APPROVAL#apr_1', SK: 'APPROVAL' },
        ConditionExpression: '#a_status = :from0',
      });
      expect(decide?.Update?.ExpressionAttributeValues).toMatchObject({ ':from0': 'PENDING', ':a_status': 'REJECTED' });
      expect(decide?.Update?.UpdateExpression).toMatch(/ REMOVE GSI2PK, GSI2SK$/);
    });

    it('moves a transaction by trigger: the condition and the new status come from the state table', async () => {
      ddb.on(TransactWriteCommand).resolves({});
      await createCommitter(table, WRITERS).commit([
        {
          type: 'setTransactionStatus',
          transactionId: 'txn_1',
          trigger: 'reverse',
          fields: { reversedBy: 'txn_2' },
          onMismatch: 'REVERSAL_NOT_ALLOWED',
        },
      ]);
      const [move] = sentItems();
      // A reversal also needs the payment undisputed (docs/api.md "Disputes": a disputed payment is never reversed).
      expect(move?.Update?.ConditionExpression).toBe('#f_status = :from0 AND attribute_not_exists(disputeId)');
      expect(move?.Update?.ExpressionAttributeValues).toMatchObject({
        ':from0': 'POSTED',
        ':f_status': 'REVERSED',
        ':f_reversedBy': 'txn_2',
      });
    });

    it('closes a wallet only from an open state, and updates a field in any state but closed', async () => {
      ddb.on(TransactWriteCommand).resolves({});
      await createCommitter(table, WRITERS).commit([
        {
          type: 'updateWallet',
          walletId: 'wal_1',
          trigger: 'close',
          set: { status: 'FROZEN', deletedAt: AT },
          expectedBalance: new Big(0),
        },
        { type: 'updateWallet', walletId: 'wal_2', trigger: 'freeze', set: { status: 'FROZEN' } },
      ]);
      const [close, freeze] = sentItems();
      // A close also needs nothing held or clearing: that money would be stranded on a closed wallet;
      // and a cold wallet (a hot one's money is spread over its sub-items: it is demoted first).
      expect(close?.Update?.ConditionExpression).toBe(
        'attribute_exists(PK) AND attribute_not_exists(deletedAt) AND #w_state IN (:from0, :from1) AND attribute_not_exists(hot) AND balance = :expectedBalance AND (attribute_not_exists(heldBalance) OR heldBalance = :zero) AND (attribute_not_exists(pendingBalance) OR pendingBalance = :zero)',
      );
      expect(close?.Update?.ExpressionAttributeValues).toMatchObject({ ':from0': 'ACTIVE', ':from1': 'FROZEN' });
      // A status change of a wallet its routes know cold requires it cold (a hot one freezes its lanes too).
      expect(freeze?.Update?.ConditionExpression).toBe(
        'attribute_exists(PK) AND attribute_not_exists(deletedAt) AND #w_state = :from0 AND attribute_not_exists(hot)',
      );
      expect(freeze?.Update?.ExpressionAttributeValues).toMatchObject({ ':from0': 'ACTIVE' });
    });

    it('reads items with consistent reads', async () => {
      ddb.on(GetCommand).resolves({});
      await expect(createWalletReader(table).getWallet('wal_1')).resolves.toBeUndefined();
      expect(ddb.commandCalls(GetCommand)[0]?.args[0].input).toEqual({
        TableName: TABLE,
        Key: { PK: 'WALLET#wal_1', SK: 'WALLET' },
        ConsistentRead: true,
      });
    });
  });

  describe('failures mapped to ApiError', () => {
    it('maps a condition failure by the position of the failed item: the payer is short of funds', async () => {
      // Prepare: item 1 is the payer's balance update (item 0 the journal record).
      ddb.on(TransactWriteCommand).rejects(
        canceled([
          { Code: 'None' },
          {
            Code: 'ConditionalCheckFailed',
            Item: { balance: { N: '5.5' }, status: { S: 'ACTIVE' }, environment: { S: 'SANDBOX' } },
          },
          { Code: 'None' },
        ]),
      );
      // Act
      const outcome = createCommitter(table, WRITERS).commit([payment()]);
      // Assess
      await expect(outcome).rejects.toMatchObject({
        code: 'INSUFFICIENT_FUNDS',
        details: { walletId: 'wal_payer', balance: '5.50000000', requested: '10.00' },
      });
    });

    it('maps a condition failure by the position of the failed item: the payee is frozen', async () => {
      // Prepare: item 2 is the payee's balance update.
      ddb.on(TransactWriteCommand).rejects(
        canceled([
          { Code: 'None' },
          { Code: 'None' },
          {
            Code: 'ConditionalCheckFailed',
            Item: { balance: { N: '0' }, status: { S: 'FROZEN' }, environment: { S: 'SANDBOX' } },
          },
        ]),
      );
      await expect(createCommitter(table, WRITERS).commit([payment()])).rejects.toMatchObject({
        code: 'WALLET_FROZEN',
        details: { walletId: 'wal_payee' },
      });
    });

    it('maps a failed state condition to INVALID_STATE with the stored status', async () => {
      ddb
        .on(TransactWriteCommand)
        .rejects(canceled([{ Code: 'ConditionalCheckFailed', Item: { status: { S: 'APPROVED' } } }]));
      const approval = { id: 'apr_1', status: 'REJECTED' } as Approval;
      await expect(
        createCommitter(table, WRITERS).commit([{ type: 'decideApproval', approval, trigger: 'reject' }]),
      ).rejects.toMatchObject({ code: 'INVALID_STATE', details: { status: 'APPROVED' } });
    });

    it('retries a TransactionConflict and succeeds when it clears', async () => {
      ddb
        .on(TransactWriteCommand)
        .rejectsOnce(canceled([{ Code: 'TransactionConflict' }]))
        .resolves({});
      await createCommitter(table, WRITERS).commit([
        { type: 'createTransaction', transaction: { id: 'txn_1', type: 'PAYMENT', createdAt: AT } as Transaction },
      ]);
      expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(2);
      expect(sleep).toHaveBeenCalledTimes(1);
    });

    it('answers CONCURRENT_UPDATE (409, retryable) once the conflict outlasts the retries', async () => {
      ddb
        .on(TransactWriteCommand)
        .rejects(canceled([{ Code: 'None' }, { Code: 'TransactionConflict' }, { Code: 'None' }]));
      const outcome = createCommitter(table, WRITERS).commit([payment()]);
      await expect(outcome).rejects.toMatchObject({
        code: 'CONCURRENT_UPDATE',
        status: 409,
        details: { retryAfter: 1 },
      });
      expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(CONFLICT_RETRY_LIMIT);
    });

    it('lets no SDK exception out of a refused lastUsedAt write (it was recorded less than a minute ago)', async () => {
      ddb
        .on(UpdateCommand)
        .rejects(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }));
      await expect(createApiKeyAuthReader(table).touchApiKey('hash', new Date(AT), 60_000)).resolves.toBeUndefined();
      expect(ddb.commandCalls(UpdateCommand)[0]?.args[0].input.ConditionExpression).toBe(
        'attribute_exists(PK) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :threshold)',
      );
    });
  });
});
