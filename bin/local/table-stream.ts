/**
 * The local stand-in for a DynamoDB stream event source mapping: polls DynamoDB Local's stream of
 * the table (DescribeStream, GetShardIterator, GetRecords with @aws-sdk/client-dynamodb-streams)
 * and hands each batch to the worker's handler as the `Records` of a DynamoDBStreamEvent, the
 * shape Lambda delivers. As the mapping does in AWS: records are filtered by the new image's
 * `entityType`, a batch is delivered again from the record the handler reports as failed
 * (partial batch response), and shards are followed as they close and new ones open.
 */
import { DescribeTableCommand, DynamoDBClient, GetItemCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';

export interface StreamPollerOptions {
  endpoint: string;
  tableName: string;
  region?: string;
  batchSize: number;
  startingPosition: 'TRIM_HORIZON' | 'LATEST';
  entityTypes: readonly string[];
  /** Pause between polls when the stream had nothing new. */
  idleMs: number;
  /** Delivers a batch; answers the sequence numbers to deliver again from (Lambda's batchItemFailures). */
  deliver(records: DynamoDBRecord[]): Promise<string[]>;
  log: Pick<Console, 'error'>;
}

export interface StreamPoller {
  stop(): Promise<void>;
  /** Resolves once every record written so far has been delivered (tests wait on projections with it). */
  drained(): Promise<void>;
}

const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
/** Pause after a failed batch before delivering it again. */
const RETRY_PAUSE_MS = 200;

interface ShardState {
  iterator: string | undefined;
  /** The shard closed and every record of it was delivered. */
  done: boolean;
}

export function startStreamPoller(options: StreamPollerOptions): StreamPoller {
  const config = { endpoint: options.endpoint, region: options.region ?? 'us-east-1', credentials: LOCAL_CREDENTIALS };
  const tables = new DynamoDBClient(config);
  const streams = new DynamoDBStreamsClient(config);
  const shards = new Map<string, ShardState>();
  let streamArn: string | undefined;
  let stopped = false;
  let idleWaiters: (() => void)[] = [];
  let timer: NodeJS.Timeout | undefined;

  async function discover(): Promise<void> {
    streamArn ??= (await tables.send(new DescribeTableCommand({ TableName: options.tableName }))).Table
      ?.LatestStreamArn;
    if (!streamArn) throw new Error(`table ${options.tableName} has no stream`);
    let startShard: string | undefined;
    do {
      const described = await streams.send(
        new DescribeStreamCommand({
          StreamArn: streamArn,
          ...(startShard ? { ExclusiveStartShardId: startShard } : {}),
        }),
      );
      for (const shard of described.StreamDescription?.Shards ?? []) {
        if (!shard.ShardId || shards.has(shard.ShardId)) continue;
        // A parent shard not yet known is read from its start as well: its children come after it.
        const iterator = await streams.send(
          new GetShardIteratorCommand({
            StreamArn: streamArn,
            ShardId: shard.ShardId,
            ShardIteratorType: shards.size === 0 ? options.startingPosition : 'TRIM_HORIZON',
          }),
        );
        shards.set(shard.ShardId, { iterator: iterator.ShardIterator, done: false });
      }
      startShard = described.StreamDescription?.LastEvaluatedShardId;
    } while (startShard);
  }

  const wanted = (record: _Record) => {
    if (options.entityTypes.length === 0) return true;
    const type = record.dynamodb?.NewImage?.entityType?.S;
    return type !== undefined && options.entityTypes.includes(type);
  };

  /**
   * DynamoDB Local 3.x sends an empty map or list in a stream image without its type (`{}` instead of
   * `{"M": {}}` or `{"L": []}`; awslabs/amazon-dynamodb-local-samples#37), which no unmarshaller reads.
   * Such a new image is read again from the table (the item as written, typed); an old image's untyped
   * values become NULL (old images are read for a status or a marker, never for an empty collection).
   */
  async function withTypedImages(record: _Record): Promise<_Record> {
    const image = record.dynamodb;
    if (!image) return record;
    const newImage = image.NewImage;
    let typedNew = newImage;
    if (newImage && hasUntyped(newImage) && image.Keys) {
      const read = await tables.send(
        new GetItemCommand({ TableName: options.tableName, Key: image.Keys as never, ConsistentRead: true }),
      );
      typedNew = (read.Item as typeof newImage | undefined) ?? nullsFor(newImage);
    }
    const oldImage = image.OldImage && hasUntyped(image.OldImage) ? nullsFor(image.OldImage) : image.OldImage;
    if (typedNew === newImage && oldImage === image.OldImage) return record;
    return {
      ...record,
      dynamodb: {
        ...image,
        ...(typedNew ? { NewImage: typedNew } : {}),
        ...(oldImage ? { OldImage: oldImage } : {}),
      },
    };
  }

  /** One pass over the open shards: true if any record arrived. */
  async function pollOnce(): Promise<boolean> {
    await discover();
    let received = false;
    for (const [shardId, state] of shards) {
      if (state.done || !state.iterator) continue;
      const output = await streams.send(
        new GetRecordsCommand({ ShardIterator: state.iterator, Limit: options.batchSize }),
      );
      const records = output.Records ?? [];
      const batch = await Promise.all(
        records.filter(wanted).map(async (record) => toLambdaRecord(await withTypedImages(record), streamArn!)),
      );
      if (batch.length > 0) {
        const failures = await options.deliver(batch);
        if (failures.length > 0) {
          // Delivered again from the first record reported (Lambda resumes from it).
          const from = records.findIndex((record) => record.dynamodb?.SequenceNumber === failures[0]);
          const iterator = await streams.send(
            new GetShardIteratorCommand({
              StreamArn: streamArn!,
              ShardId: shardId,
              ShardIteratorType: 'AT_SEQUENCE_NUMBER',
              SequenceNumber: records[Math.max(0, from)]!.dynamodb!.SequenceNumber!,
            }),
          );
          state.iterator = iterator.ShardIterator;
          await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
          return true;
        }
      }
      received ||= records.length > 0;
      state.iterator = output.NextShardIterator;
      if (!state.iterator) state.done = true;
    }
    return received;
  }

  const loop = async () => {
    if (stopped) return;
    let busy = false;
    try {
      busy = await pollOnce();
    } catch (error) {
      options.log.error(
        'local table stream: poll failed; reading the shards again from their start (the handler is idempotent)',
        error,
      );
      // An expired or trimmed iterator, a stream replaced: start over rather than fail forever.
      shards.clear();
      streamArn = undefined;
    }
    if (!busy) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const wake of waiters) wake();
    }
    if (!stopped) {
      timer = setTimeout(() => void loop(), busy ? 0 : options.idleMs);
      timer.unref();
    }
  };
  void loop();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      for (const wake of idleWaiters) wake();
      tables.destroy();
      streams.destroy();
    },
    drained() {
      // The next idle pass saw nothing new: everything written before this call was delivered.
      return new Promise<void>((resolve) => {
        if (stopped) resolve();
        else idleWaiters.push(() => idleWaiters.push(resolve));
      });
    },
  };
}

/** A stream record as Lambda's event source mapping delivers it. */
type Image = Record<string, AttributeValue>;
const isUntyped = (value: object) => Object.keys(value).length === 0;

function hasUntyped(image: Image): boolean {
  return Object.values(image).some((value) => valueHasUntyped(value));
}

function valueHasUntyped(value: AttributeValue): boolean {
  if (isUntyped(value)) return true;
  if (value.M) return hasUntyped(value.M);
  if (value.L) return value.L.some((item) => valueHasUntyped(item));
  return false;
}

function nullsFor(image: Image): Image {
  const fix = (value: AttributeValue): AttributeValue => {
    if (isUntyped(value)) return { NULL: true };
    if (value.M) return { M: nullsFor(value.M) };
    if (value.L) return { L: value.L.map(fix) };
    return value;
  };
  return Object.fromEntries(Object.entries(image).map(([name, value]) => [name, fix(value)]));
}

function toLambdaRecord(record: _Record, streamArn: string): DynamoDBRecord {
  return {
    ...(record.eventID ? { eventID: record.eventID } : {}),
    ...(record.eventName ? { eventName: record.eventName } : {}),
    eventVersion: record.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: record.awsRegion ?? 'local',
    eventSourceARN: streamArn,
    dynamodb: record.dynamodb as DynamoDBRecord['dynamodb'],
  } as DynamoDBRecord;
}
