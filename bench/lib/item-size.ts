/**
 * DynamoDB item sizes and capacity units, computed the way DynamoDB bills them
 * (developer guide, "Item sizes and formats" and "Read/write capacity units"):
 *
 * - item size = sum over attributes of (UTF-8 length of the name + size of the value);
 * - String: UTF-8 bytes; Binary: bytes; Number: 1 byte per two significant digits + 1;
 *   Boolean and Null: 1 byte; List and Map: 3 bytes + per element 1 byte + the element
 *   (+ the key's UTF-8 length for a map); sets: the sum of their elements;
 * - writes: 1 WCU per started KB per item (transactional: 2 WCU);
 * - strongly consistent reads: 1 RCU per started 4 KB (transactional: 2); a Query adds up the
 *   sizes of all items it reads and rounds once; a read that finds nothing still costs one unit.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

export type AttributeMap = Record<string, AttributeValue>;

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

/** Bytes of a DynamoDB Number given as decimal text. */
export function numberSize(text: string): number {
  const digits = text.replace(/^[+-]/, '').toLowerCase().split('e')[0]!.replace('.', '');
  const significant = digits.replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(significant.length / 2) + 1;
}

export function attributeValueSize(value: AttributeValue): number {
  if (value.S !== undefined) return utf8(value.S);
  if (value.N !== undefined) return numberSize(value.N);
  if (value.B !== undefined) return value.B.byteLength;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS !== undefined) return value.SS.reduce((sum, s) => sum + utf8(s), 0);
  if (value.NS !== undefined) return value.NS.reduce((sum, n) => sum + numberSize(n), 0);
  if (value.BS !== undefined) return value.BS.reduce((sum, b) => sum + b.byteLength, 0);
  if (value.L !== undefined) return 3 + value.L.reduce((sum, element) => sum + 1 + attributeValueSize(element), 0);
  if (value.M !== undefined) {
    return (
      3 +
      Object.entries(value.M).reduce((sum, [name, element]) => sum + 1 + utf8(name) + attributeValueSize(element), 0)
    );
  }
  return 0;
}

export function itemSize(item: AttributeMap): number {
  return Object.entries(item).reduce((sum, [name, value]) => sum + utf8(name) + attributeValueSize(value), 0);
}

/**
 * A document-client value (what lib-dynamodb returns: strings, NumberValue wrappers, Sets,
 * Uint8Arrays, plain objects) as the AttributeValue it was stored as. Undefined is dropped.
 */
export function toAttributeValue(value: unknown): AttributeValue | undefined {
  if (value === undefined) return undefined;
  if (value === null) return { NULL: true };
  if (typeof value === 'string') return { S: value };
  if (typeof value === 'number' || typeof value === 'bigint') return { N: String(value) };
  if (typeof value === 'boolean') return { BOOL: value };
  if (value instanceof Uint8Array) return { B: value };
  if (isNumberValue(value)) return { N: value.value };
  if (Array.isArray(value))
    return { L: value.map(toAttributeValue).filter((v): v is AttributeValue => v !== undefined) };
  if (value instanceof Set) {
    const members = [...value];
    if (members.every((m) => typeof m === 'string')) return { SS: members as string[] };
    if (members.every((m) => m instanceof Uint8Array)) return { BS: members as Uint8Array[] };
    return { NS: members.map((m) => (isNumberValue(m) ? m.value : String(m))) };
  }
  if (typeof value === 'object') return { M: toAttributeMap(value as Record<string, unknown>) };
  return undefined;
}

export function toAttributeMap(item: Record<string, unknown>): AttributeMap {
  const out: AttributeMap = {};
  for (const [name, value] of Object.entries(item)) {
    const converted = toAttributeValue(value);
    if (converted !== undefined) out[name] = converted;
  }
  return out;
}

function isNumberValue(value: unknown): value is { value: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    'value' in value &&
    typeof (value as { value: unknown }).value === 'string' &&
    value.constructor?.name.includes('NumberValue') === true
  );
}

export function docItemSize(item: Record<string, unknown>): number {
  return itemSize(toAttributeMap(item));
}

/** Write units of one item write: 1 per started KB, doubled in a transaction. */
export function writeUnits(bytes: number, transactional: boolean): number {
  return Math.max(1, Math.ceil(bytes / 1024)) * (transactional ? 2 : 1);
}

/** Read units of bytes read in one request (a Query rounds its total once). */
export function readUnits(bytes: number, options: { consistent: boolean; transactional?: boolean }): number {
  const units = Math.max(1, Math.ceil(bytes / 4096));
  if (options.transactional) return units * 2;
  return options.consistent ? units : units / 2;
}
