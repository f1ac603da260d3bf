/**
 * npm run ledger:check: checks the ledger invariants of a table (TABLE_NAME, and
 * DYNAMODB_ENDPOINT for DynamoDB Local; AWS credentials from the environment otherwise).
 * Exits 1 when any invariant fails.
 */
import { loadConfig } from '../shared/config/config.js';
import { createDocumentClient } from '../shared/persistence/client.js';
import { checkLedger } from '../shared/persistence/ledger-check.js';

const config = loadConfig();
const report = await checkLedger(
  createDocumentClient({ endpoint: config.dynamodbEndpoint, region: config.region }),
  config.tableName,
);
console.log(JSON.stringify(report, null, 2));
process.exit(report.problems.length === 0 ? 0 : 1);
