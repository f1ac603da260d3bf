/**
 * npm run journal:replay: rebuilds the projections of the journal (audit entries, organization
 * payment listings; events are handed to the publisher again) from every journal record of a
 * table (TABLE_NAME, and DYNAMODB_ENDPOINT for DynamoDB Local; AWS credentials from the
 * environment otherwise). Idempotent: what exists is left alone, so on a complete journal it
 * writes nothing. It scans the table: an operator tool, never on a request path.
 */
import { loadConfig } from '../shared/config/config.js';
import { createDocumentClient } from '../shared/persistence/client.js';
import { replayJournal } from '../shared/persistence/journal-replay.js';

const config = loadConfig();
const report = await replayJournal({
  client: createDocumentClient({ endpoint: config.dynamodbEndpoint, region: config.region }),
  tableName: config.tableName,
});
console.log(JSON.stringify(report, null, 2));
