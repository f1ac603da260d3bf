/**
 * DynamoDB attribute values (the wire form, `{ S }`, `{ N }`, ...) as memory-dynamo keeps them:
 * comparison, equality and number arithmetic the way DynamoDB defines them. Numbers are exact
 * decimals (big.js), strings compare by UTF-8 bytes (code points), binaries by bytes.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import Big from 'big.js';

export type AttributeMap = Record<string, AttributeValue>;

/** The DynamoDB type of a value: S, N, B, BOOL, NULL, SS, NS, BS, L or M. */
export function typeOf(value: AttributeValue): string {
  for (const type of ['S', 'N', 'B', 'BOOL', 'NULL', 'SS', 'NS', 'BS', 'L', 'M'] as const) {
    if ((value as unknown as Record<string, unknown>)[type] !== undefined) return type;
  }
  throw new ValidationError('Supplied AttributeValue is empty, must contain exactly one of the supported datatypes');
}

/** Strings by code point (what UTF-8 byte order gives), not by UTF-16 unit. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Only a surrogate against a BMP character above it orders differently by code point.
    if ((x >= 0xd800 && x <= 0xdfff) !== (y >= 0xd800 && y <= 0xdfff)) return x >= 0xd800 && x <= 0xdfff ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  return Buffer.compare(
    Buffer.from(a.buffer, a.byteOffset, a.byteLength),
    Buffer.from(b.buffer, b.byteOffset, b.byteLength),
  );
}

/** Orders two scalars of the same type (S, N or B); undefined when they are not comparable. */
export function compareScalars(a: AttributeValue, b: AttributeValue): number | undefined {
  if (a.S !== undefined && b.S !== undefined) return compareStrings(a.S, b.S);
  if (a.N !== undefined && b.N !== undefined) return new Big(a.N).cmp(new Big(b.N));
  if (a.B !== undefined && b.B !== undefined) return compareBytes(a.B, b.B);
  return undefined;
}

export function valuesEqual(a: AttributeValue, b: AttributeValue): boolean {
  const type = typeOf(a);
  if (type !== typeOf(b)) return false;
  switch (type) {
    case 'S':
    case 'N':
    case 'B':
      return compareScalars(a, b) === 0;
    case 'BOOL':
      return a.BOOL === b.BOOL;
    case 'NULL':
      return true;
    case 'SS':
      return sameSet(a.SS!, b.SS!, (x, y) => x === y);
    case 'NS':
      return sameSet(a.NS!, b.NS!, (x, y) => new Big(x).eq(new Big(y)));
    case 'BS':
      return sameSet(a.BS!, b.BS!, (x, y) => compareBytes(x, y) === 0);
    case 'L':
      return a.L!.length === b.L!.length && a.L!.every((element, i) => valuesEqual(element, b.L![i]!));
    default: {
      const left = Object.keys(a.M!);
      return (
        left.length === Object.keys(b.M!).length &&
        left.every((name) => b.M![name] !== undefined && valuesEqual(a.M![name]!, b.M![name]!))
      );
    }
  }
}

function sameSet<T>(a: T[], b: T[], equal: (x: T, y: T) => boolean): boolean {
  return a.length === b.length && a.every((x) => b.some((y) => equal(x, y)));
}

/** DynamoDB numbers: at most 38 significant digits, magnitude within 1E-130 .. 9.99E+125. */
export function number(text: string): Big {
  let value: Big;
  try {
    value = new Big(text);
  } catch {
    throw new ValidationError(`A value provided cannot be converted into a number`);
  }
  return value;
}

export function checkNumber(value: Big): string {
  const digits = value.c.length;
  if (digits > 38)
    throw new ValidationError(
      'Number overflow. Attempting to store a number with magnitude larger than supported range',
    );
  if (!value.eq(0) && (value.e > 125 || value.e < -130))
    throw new ValidationError(
      'Number overflow. Attempting to store a number with magnitude larger than supported range',
    );
  return value.toFixed();
}

export function addNumbers(a: string, b: string, sign: 1 | -1): string {
  const left = number(a);
  const right = number(b);
  return checkNumber(sign === 1 ? left.plus(right) : left.minus(right));
}

/** A deep copy (stored items never share structure with what callers hold). */
export function cloneValue(value: AttributeValue): AttributeValue {
  if (value.L !== undefined) return { L: value.L.map(cloneValue) };
  if (value.M !== undefined) return { M: cloneMap(value.M) };
  if (value.SS !== undefined) return { SS: [...value.SS] };
  if (value.NS !== undefined) return { NS: [...value.NS] };
  if (value.BS !== undefined) return { BS: value.BS.map((b) => new Uint8Array(b)) };
  if (value.B !== undefined) return { B: new Uint8Array(value.B) };
  return { ...value } as AttributeValue;
}

export function cloneMap(map: AttributeMap): AttributeMap {
  const out: AttributeMap = {};
  for (const [name, value] of Object.entries(map)) out[name] = cloneValue(value);
  return out;
}

/** What DynamoDB answers 400 ValidationException for (a malformed request or expression). */
export class ValidationError extends Error {
  override readonly name = 'ValidationException';
  readonly $fault = 'client';
  readonly $metadata = { httpStatusCode: 400 };
}
