import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { ApprovalStore } from '../domain/approvals/ports.js';
import { createCommitter } from './change-writer.js';
import { approvalWriters } from './writers/approval-writers.js';
import { paymentWriters } from './writers/payment-writers.js';
import { postingWriters } from './writers/posting-writers.js';
import { auditWriters } from './writers/audit-writers.js';
import { riderWriters } from './writers/invoice-writers.js';
import { paymentLinkWriters } from './writers/payment-link-writers.js';
import { APPROVAL_ENTITY, approvalCodec, approvalKeys, PENDING_APPROVALS_INDEX } from './entities/approval.js';
import { createTransactionReader } from './payment-store.js';
import { createQueries, equalityFilter } from './queries.js';
import { GSI } from './table-schema.js';
import { getItem, type TableContext } from './table-context.js';
import { createWalletSnapshotReader } from './wallet-store.js';

export function createApprovalStore(table: TableContext): ApprovalStore {
  const { queryIndex } = createQueries(table.client, table.tableName);
  return {
    ...createTransactionReader(table),
    ...createWalletSnapshotReader(table),
    ...createCommitter(table, {
      ...approvalWriters,
      ...paymentWriters,
      ...postingWriters,
      ...auditWriters,
      ...riderWriters,
      // A payment link decided by its approval (approval-subjects.ts), under the link's own condition.
      transitionPaymentLink: paymentLinkWriters.transitionPaymentLink,
    }),
    async getApproval(approvalId) {
      const item = await getItem(table, approvalKeys.primary(approvalId));
      return item ? approvalCodec.fromItem(item) : undefined;
    },
    listApprovals(organizationId, environment, filter, page) {
      return queryIndex(
        GSI.GSI1,
        approvalKeys.ofOrganization(organizationId, environment).GSI1PK,
        page,
        approvalCodec.fromItem,
        equalityFilter({ status: filter.status, walletId: filter.walletId }),
      );
    },
    async listExpiredApprovals(now, limit) {
      const output = await table.client.send(
        new QueryCommand({
          TableName: table.tableName,
          IndexName: PENDING_APPROVALS_INDEX.name,
          KeyConditionExpression: `${PENDING_APPROVALS_INDEX.partition} = :pk AND ${PENDING_APPROVALS_INDEX.sort} < :now`,
          ExpressionAttributeValues: { ':pk': approvalKeys.pending().GSI2PK, ':now': approvalKeys.expiredBefore(now) },
          Limit: limit,
        }),
      );
      return (output.Items ?? []).filter((item) => item.entityType === APPROVAL_ENTITY).map(approvalCodec.fromItem);
    },
  };
}
