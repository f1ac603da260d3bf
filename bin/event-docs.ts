/**
 * npm run docs:events: writes the events table of docs/api.md ("Events") from the event
 * declarations (each area's `<area>-events.ts`, joined in shared/domain/event-names.ts).
 * test/unit/event-docs.test.ts fails while the committed table differs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { withEventTable } from '../shared/operations/event-docs.js';

const file = path.resolve(import.meta.dirname, '../docs/api.md');
const before = readFileSync(file, 'utf8');
const after = withEventTable(before);
writeFileSync(file, after);
console.log(after === before ? 'docs/api.md: the events table is up to date' : 'docs/api.md: events table written');
