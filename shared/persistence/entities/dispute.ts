import type { Dispute, FundsRefusals } from '../../domain/disputes/types.js';
import type { Environment } from '../../domain/tenancy.js';
import { recordOf, type Item, type ItemKey } from '../item.js';
import { TTL_ATTRIBUTE, type IndexUsage } from '../table-schema.js';

export const DISPUTE_ENTITY = 'DISPUTE';

/**
 * A dispute, stored once in its own partition (`DISPUTE#id`) and listed by both parties, each index
 * entry sorted newest first by `${createdAt}#${id}`: GSI1 the initiator's organization environment,
 * GSI2 the respondent's, GSI3 the paying wallet (within the initiator's), GSI4 the receiving wallet
 * (within the respondent's). Every partition names its organization, so no wallet partition is
 * shared across organizations.
 */
export const disputeKeys = {
  primary: (disputeId: string): ItemKey => ({ PK: `DISPUTE#${disputeId}`, SK: DISPUTE_ENTITY }),
  ofOrganization: (organizationId: string, environment: Environment) => `DISPUTES#${organizationId}#${environment}`,
  ofWallet: (organizationId: string, environment: Environment, walletId: string) =>
    `DISPUTES#${organizationId}#${environment}#WALLET#${walletId}`,
  sort: (dispute: Pick<Dispute, 'createdAt' | 'id'>) => `${dispute.createdAt}#${dispute.id}`,
};

export const disputeCodec = {
  toItem(dispute: Dispute): Item {
    const sort = disputeKeys.sort(dispute);
    const { environment } = dispute;
    return {
      ...disputeKeys.primary(dispute.id),
      entityType: DISPUTE_ENTITY,
      GSI1PK: disputeKeys.ofOrganization(dispute.organizationId, environment),
      GSI1SK: sort,
      GSI2PK: disputeKeys.ofOrganization(dispute.respondentOrgId, environment),
      GSI2SK: sort,
      GSI3PK: disputeKeys.ofWallet(dispute.organizationId, environment, dispute.payerWalletId),
      GSI3SK: sort,
      GSI4PK: disputeKeys.ofWallet(dispute.respondentOrgId, environment, dispute.receivingWalletId),
      GSI4SK: sort,
      ...dispute,
    };
  },
  fromItem(item: Item): Dispute {
    return recordOf(item) as unknown as Dispute;
  },
};

/** What each index of DISPUTE items serves (one entry of INDEX_USAGE, entities/index-usage.ts). */
export const DISPUTE_INDEXES = {
  DISPUTE: {
    GSI1: 'disputes an organization environment opened (as initiator), newest first',
    GSI2: 'disputes against an organization environment (as respondent), newest first',
    GSI3: "disputes of a paying wallet (within the initiator's organization environment): an agent key's list",
    GSI4: "disputes of a receiving wallet (within the respondent's organization environment): an agent key's list",
  },
} as const satisfies IndexUsage;

export const DISPUTE_REFUSALS_ENTITY = 'DISPUTE_REFUSALS';

/**
 * The refusals for funds of one payment's openings (`DISPUTE_REFUSALS#transactionId`): a counter
 * the table deletes a day after its window (TTL); no index.
 */
export const fundsRefusalsCodec = {
  key: (transactionId: string): ItemKey => ({ PK: `DISPUTE_REFUSALS#${transactionId}`, SK: DISPUTE_REFUSALS_ENTITY }),
  toItem: (transactionId: string, refusals: FundsRefusals): Item => ({
    ...fundsRefusalsCodec.key(transactionId),
    entityType: DISPUTE_REFUSALS_ENTITY,
    count: refusals.count,
    since: refusals.since,
    [TTL_ATTRIBUTE]: Math.floor(Date.parse(refusals.since) / 1000) + 2 * 86_400,
  }),
  fromItem: (item: Item): FundsRefusals => ({ count: Number(item.count), since: String(item.since) }),
};
