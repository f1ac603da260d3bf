import type { WriteContext } from './hot/hot-routes.js';
import type { Item, ItemKey } from './item.js';
import type { TransactWrite } from './transact.js';

/** A change a service decided: data, named by its `type` (each area declares its own in its ports.ts). */
export type AnyChange = { readonly type: string };

/**
 * The items one change writes, each with its condition and the error a failed condition means.
 * `context`: the attempt's routes of hot wallets (only the posting writer reads them).
 */
export type ChangeWriter<C extends AnyChange> = (
  tableName: string,
  change: C,
  context?: WriteContext,
) => TransactWrite[];

/** An area's writers: exactly one per change type of the area. */
export type ChangeWriters<C extends AnyChange> = { [K in C['type']]: ChangeWriter<Extract<C, { type: K }>> };

/** Small builders of transaction items: conditional puts and updates with their failure mapping. */
export const update = (
  tableName: string,
  key: ItemKey,
  expression: string,
  condition: string,
  values: Record<string, unknown>,
  names: Record<string, string> | undefined,
  onConditionFailed: TransactWrite['onConditionFailed'],
): TransactWrite => ({
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

export function setFields(
  fields: Record<string, unknown>,
  prefix: string,
): { sets: string[]; names: Record<string, string>; values: Record<string, unknown> } {
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

/**
 * The condition that an attribute (an expression name, e.g. `#status`) holds one of `states`
 * (a state table's `from` states), with its values named `${prefix}0`, `${prefix}1`, ...
 */
export function inStates(
  name: string,
  states: readonly string[],
  prefix: string,
): { condition: string; values: Record<string, unknown> } {
  const placeholders = states.map((_, i) => `${prefix}${i}`);
  const values = Object.fromEntries(states.map((state, i) => [placeholders[i], state]));
  return {
    condition: placeholders.length === 1 ? `${name} = ${placeholders[0]}` : `${name} IN (${placeholders.join(', ')})`,
    values,
  };
}

const duplicate = (what: string) => () => new Error(`${what} already exists (id collision)`);

/** A put of a new item: it must not exist yet (by default an id collision is a bug, not a client error). */
export function put(
  tableName: string,
  item: Item,
  conditionFailed?: TransactWrite['onConditionFailed'],
): TransactWrite {
  return {
    item: { Put: { TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(PK)' } },
    onConditionFailed: conditionFailed ?? duplicate(String(item.PK)),
  };
}

/**
 * A status change by a state table (shared/domain/state-table.ts): `status` moves to the trigger's
 * target, conditioned on its `from` states (and `condition`, if given), with more fields `set`
 * (`setFields`) and attributes removed. The one shape of every conditioned transition write.
 */
export function transitionUpdate(
  tableName: string,
  key: ItemKey,
  transition: { readonly from: readonly string[]; readonly to: string },
  spec: {
    set?: Record<string, unknown>;
    remove?: readonly string[];
    condition?: string;
    values?: Record<string, unknown>;
    onConditionFailed: TransactWrite['onConditionFailed'];
  },
): TransactWrite {
  const from = inStates('#status', transition.from, ':from');
  const { sets, names, values } = setFields(spec.set ?? {}, 'f_');
  const remove = spec.remove && spec.remove.length > 0 ? ` REMOVE ${spec.remove.join(', ')}` : '';
  return update(
    tableName,
    key,
    `SET ${['#status = :to', ...sets].join(', ')}${remove}`,
    spec.condition ? `${spec.condition} AND ${from.condition}` : from.condition,
    { ...values, ...spec.values, ...from.values, ':to': transition.to },
    { ...names, '#status': 'status' },
    spec.onConditionFailed,
  );
}
