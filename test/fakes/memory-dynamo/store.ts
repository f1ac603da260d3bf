/**
 * The tables of memory-dynamo: items in wire form by partition and sort key, each global
 * secondary index (projection ALL, from shared/persistence/table-schema.ts) kept in step on
 * every write, pages read in key order. Sorted views are built lazily and dropped on inserts.
 */
import { GSI, TABLE_KEY } from '../../../shared/persistence/table-schema.js';
import { itemSize } from '../../../bench/lib/item-size.js';
import { compareStrings, ValidationError, type AttributeMap } from './values.js';

export interface Stored {
  item: AttributeMap;
  size: number;
}

/** One index (or the base table): partition key -> entries by their composite key. */
class KeyedIndex {
  readonly partitions = new Map<string, Map<string, Stored>>();
  private readonly sorted = new Map<string, { keys: string[]; entries: Stored[] }>();

  constructor(
    readonly partitionName: string,
    readonly sortName: string,
    readonly isBase: boolean,
  ) {}

  /** Entry id: the index sort key, then (for an index) the base key that makes it unique. */
  entryId(item: AttributeMap): string {
    const sort = item[this.sortName]!.S!;
    return this.isBase ? sort : `${sort}\u0000${item[TABLE_KEY.partition]!.S!}\u0000${item[TABLE_KEY.sort]!.S!}`;
  }

  put(stored: Stored): void {
    const pk = stored.item[this.partitionName]!.S!;
    let partition = this.partitions.get(pk);
    if (!partition) this.partitions.set(pk, (partition = new Map()));
    const id = this.entryId(stored.item);
    if (!partition.has(id)) this.sorted.delete(pk);
    partition.set(id, stored);
    const view = this.sorted.get(pk);
    if (view) view.entries[binarySearch(view.keys, id)] = stored;
  }

  remove(item: AttributeMap): void {
    const pk = item[this.partitionName]!.S!;
    const partition = this.partitions.get(pk);
    if (!partition) return;
    if (partition.delete(this.entryId(item))) this.sorted.delete(pk);
    if (partition.size === 0) this.partitions.delete(pk);
  }

  /** The partition's entries in key order. */
  view(pk: string): { keys: string[]; entries: Stored[] } {
    let view = this.sorted.get(pk);
    if (!view) {
      const partition = this.partitions.get(pk);
      const keys = partition ? [...partition.keys()] : [];
      keys.sort(compareIds);
      view = { keys, entries: keys.map((key) => partition!.get(key)!) };
      this.sorted.set(pk, view);
    }
    return view;
  }
}

function compareIds(a: string, b: string): number {
  return compareStrings(a, b);
}

/** Index of `id` in sorted `keys`, or where it would go. */
export function binarySearch(keys: string[], id: string): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (compareIds(keys[middle]!, id) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

export const INDEX_NAMES = Object.values(GSI).map((index) => index.name);
const MAX_ITEM_BYTES = 400 * 1024;

export class MemoryTable {
  readonly base = new KeyedIndex(TABLE_KEY.partition, TABLE_KEY.sort, true);
  readonly indexes = new Map<string, KeyedIndex>(
    Object.values(GSI).map((index) => [index.name, new KeyedIndex(index.partition, index.sort, false)]),
  );

  constructor(readonly name: string) {}

  get(pk: string, sk: string): Stored | undefined {
    return this.base.partitions.get(pk)?.get(sk);
  }

  /** The index partitions an item is in (only when it has both index key attributes). */
  indexKeysOf(item: AttributeMap): { index: string; partitionKey: string }[] {
    const out: { index: string; partitionKey: string }[] = [];
    for (const [name, index] of this.indexes) {
      const pk = item[index.partitionName];
      if (pk !== undefined && item[index.sortName] !== undefined) out.push({ index: name, partitionKey: pk.S! });
    }
    return out;
  }

  /** Checks an item as DynamoDB would before storing it. */
  validate(item: AttributeMap): number {
    for (const name of [TABLE_KEY.partition, TABLE_KEY.sort]) {
      const value = item[name];
      if (value?.S === undefined)
        throw new ValidationError(`One or more parameter values were invalid: Missing the key ${name} in the item`);
      if (value.S === '')
        throw new ValidationError(
          `One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: ${name}`,
        );
    }
    for (const index of this.indexes.values()) {
      for (const name of [index.partitionName, index.sortName]) {
        const value = item[name];
        if (value === undefined) continue;
        if (value.S === undefined)
          throw new ValidationError(
            `One or more parameter values were invalid: Type mismatch for Index Key ${name} Expected: S`,
          );
        if (value.S === '')
          throw new ValidationError(
            `One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty string value. IndexName: ${index.partitionName}, IndexKey: ${name}`,
          );
      }
    }
    const size = itemSize(item);
    if (size > MAX_ITEM_BYTES) throw new ValidationError('Item size has exceeded the maximum allowed size');
    return size;
  }

  /** Stores (or deletes, when `next` is undefined) the item at `pk`/`sk`, keeping the indexes in step. */
  write(pk: string, sk: string, next: Stored | undefined): void {
    const old = this.get(pk, sk);
    if (old) {
      for (const index of this.indexes.values()) if (hasKeys(old.item, index)) index.remove(old.item);
    }
    if (next) {
      this.base.put(next);
      for (const index of this.indexes.values()) if (hasKeys(next.item, index)) index.put(next);
    } else if (old) this.base.remove(old.item);
  }

  index(name: string | undefined): KeyedIndex {
    if (name === undefined) return this.base;
    const index = this.indexes.get(name);
    if (!index) throw new ValidationError(`The table does not have the specified index: ${name}`);
    return index;
  }

  /** Every item, partition by partition in insertion order, each partition in key order. */
  *scan(indexName: string | undefined): Generator<Stored> {
    const index = this.index(indexName);
    for (const pk of index.partitions.keys()) yield* index.view(pk).entries;
  }
}

function hasKeys(item: AttributeMap, index: KeyedIndex): boolean {
  return item[index.partitionName] !== undefined && item[index.sortName] !== undefined;
}

export type { KeyedIndex };
