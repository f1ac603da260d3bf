import { TABLE_ATTRIBUTES, TTL_ATTRIBUTE } from './table-schema.js';

/** An item as the document client reads and writes it. */
export type Item = Record<string, unknown>;

/** The primary key of an item. */
export interface ItemKey {
  PK: string;
  SK: string;
}

/** The key, index and bookkeeping attributes every entity may carry; never part of a record. */
const BOOKKEEPING = new Set<string>([...TABLE_ATTRIBUTES, 'entityType', TTL_ATTRIBUTE]);

/** The record an item stores, without its key, index and bookkeeping attributes. */
export function recordOf(item: Item): Item {
  return Object.fromEntries(Object.entries(item).filter(([name]) => !BOOKKEEPING.has(name)));
}

export const str = (value: unknown): string => (typeof value === 'string' ? value : String(value));

/** A value read with wrapped numbers (NumberValue), deeply back to plain JSON (free-form data: event payloads). */
export function plainJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainJson);
  if (value && typeof value === 'object') {
    const keys = Object.keys(value);
    if (
      keys.length === 1 &&
      keys[0] === 'value' &&
      typeof (value as { value: unknown }).value === 'string' &&
      value.constructor?.name === 'NumberValue'
    )
      return Number((value as { value: string }).value);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainJson(v)]));
  }
  return value;
}
