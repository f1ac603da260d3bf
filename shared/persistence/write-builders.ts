import type { Item } from './items/codecs.js';
import type { ItemKey } from './keys.js';
import type { TransactWrite } from './transact.js';

/** Small builders of transaction items: conditional puts and updates with their failure mapping. */
export const update = (tableName: string, key: ItemKey, expression: string, condition: string, values: Record<string, unknown>, names: Record<string, string> | undefined, onConditionFailed: TransactWrite['onConditionFailed']): TransactWrite => ({
  item: {
    Update: {
      TableName: tableName,
      Key: key,
      UpdateExpression: expression,
      ConditionExpression: condition,
      ExpressionAttributeValues: values,
      ...(names ? { ExpressionAttributeNames: names } : {}),
    },
  },
  onConditionFailed,
});

export function setFields(fields: Record<string, unknown>, prefix: string): { sets: string[]; names: Record<string, string>; values: Record<string, unknown> } {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([field, value]) => {
      names[`#${prefix}${field}`] = field;
      values[`:${prefix}${field}`] = value;
      return `#${prefix}${field} = :${prefix}${field}`;
    });
  return { sets, names, values };
}

export const mustNotExist = 'attribute_not_exists(PK)';
const duplicate = (what: string) => () => new Error(`${what} already exists (id collision)`);

export function put(tableName: string, item: Item, conditionFailed?: TransactWrite['onConditionFailed']): TransactWrite {
  return {
    item: { Put: { TableName: tableName, Item: item, ConditionExpression: mustNotExist } },
    onConditionFailed: conditionFailed ?? duplicate(String(item.PK)),
  };
}
