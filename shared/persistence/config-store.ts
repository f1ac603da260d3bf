import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { configCodec, configKeys } from './entities/config.js';
import { getItem, type TableContext } from './table-context.js';

/** Service secrets kept in the table (e.g. the cursor signing secret when none is configured). */
export interface ConfigStore {
  /** The secret under `name`, created once on first use (the first writer wins a race). */
  getOrCreateSecret(name: string, create: () => string): Promise<string>;
}

export function createConfigStore(table: TableContext): ConfigStore {
  return {
    async getOrCreateSecret(name, create) {
      const existing = configCodec.valueOf(await getItem(table, configKeys.primary(name)));
      if (existing !== undefined) return existing;
      try {
        const value = create();
        await table.client.send(
          new PutCommand({
            TableName: table.tableName,
            Item: configCodec.toItem(name, value),
            ConditionExpression: 'attribute_not_exists(PK)',
          }),
        );
        return value;
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        const winner = await getItem(table, configKeys.primary(name));
        return String(winner?.value);
      }
    },
  };
}
