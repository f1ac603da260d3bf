import {
  createJournalProjector,
  type EventPublisher,
  type ProjectionReport,
} from '../domain/ledger/journal-projector.js';
import { UNPUBLISHED_EVENTS } from './journal-stream.js';
import { createProjectionStore, scanJournal } from './projection-store.js';
import type { TableContext } from './table-context.js';

/**
 * Rebuilds the journal's projections from every journal record of the table (`npm run
 * journal:replay`): audit entries and organization payment listings that are missing are
 * written, those present are left alone (read first: a complete journal writes nothing), and
 * every event is handed to the publisher again (same derived ids).
 */
export async function replayJournal(
  table: TableContext,
  publisher: EventPublisher = UNPUBLISHED_EVENTS,
): Promise<ProjectionReport> {
  const projector = createJournalProjector({ store: createProjectionStore(table), publisher });
  const total: ProjectionReport = { records: 0, events: 0, written: 0, present: 0 };
  await scanJournal(table, async (changes) => {
    const report = await projector.project(changes, { checkFirst: true });
    total.records += report.records;
    total.events += report.events;
    total.written += report.written;
    total.present += report.present;
  });
  return total;
}
