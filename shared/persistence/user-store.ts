import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { MAX_USERS_PER_ORGANIZATION, type UserReader } from '../domain/users/ports.js';
import type { User } from '../domain/users/types.js';
import type { UserStore } from '../domain/users/user-store.js';
import { readInt } from './client.js';
import { createCommitter } from './change-writer.js';
import { organizationKeys } from './entities/organization.js';
import { userCodec, userKeys } from './entities/user.js';
import type { Item } from './item.js';
import { GSI } from './table-schema.js';
import { getItem, type TableContext } from './table-context.js';
import { auditWriters } from './writers/audit-writers.js';
import { userWriters } from './writers/user-writers.js';

/** Most ACTIVE users one email may be across organizations (sign-in by email asks which). */
const MAX_USERS_BY_EMAIL = 10;

/** UserReader's contract (sign-in reads users with it); index hits are read again from their item. */
export function createUserReader(table: TableContext): UserReader {
  const getUser = async (id: string): Promise<User | undefined> => {
    const item = await getItem(table, userKeys.primary(id));
    return item ? userCodec.fromItem(item) : undefined;
  };

  async function query(index: (typeof GSI)[keyof typeof GSI], partition: string, limit: number): Promise<Item[]> {
    const output = await table.client.send(
      new QueryCommand({
        TableName: table.tableName,
        IndexName: index.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': index.partition },
        ExpressionAttributeValues: { ':pk': partition },
        ScanIndexForward: true,
        Limit: limit,
      }),
    );
    return output.Items ?? [];
  }

  /** The users an index names, as stored now (an index lags its items). */
  const fresh = async (items: Item[]) =>
    (await Promise.all(items.map((item) => getUser(String(item.id))))).filter((user) => user !== undefined);

  return {
    getUser,
    async getUserByInvitationHash(hash) {
      const users = await fresh(await query(GSI.GSI2, userKeys.invitation(hash).GSI2PK, 2));
      return users.find((user) => user.status === 'INVITED' && user.invitationHash === hash);
    },
    async listUsers(organizationId) {
      const items = await query(GSI.GSI1, userKeys.ofOrganization(organizationId).GSI1PK, MAX_USERS_PER_ORGANIZATION);
      return items.map(userCodec.fromItem).filter((user) => user.status !== 'REMOVED');
    },
    async findActiveUsersByEmail(email) {
      const users = await fresh(await query(GSI.GSI2, userKeys.activeEmail(email).GSI2PK, MAX_USERS_BY_EMAIL));
      return users.filter((user) => user.status === 'ACTIVE' && user.email === email);
    },
  };
}

export function createUserStore(table: TableContext): UserStore {
  return {
    ...createUserReader(table),
    ...createCommitter(table, { ...userWriters, ...auditWriters }),
    async rosterVersion(organizationId) {
      const item = await getItem(table, userKeys.roster(organizationId));
      return item?.version === undefined ? 0 : readInt(item.version);
    },
    async organizationExists(organizationId) {
      return (await getItem(table, organizationKeys.primary(organizationId))) !== undefined;
    },
  };
}
