import type { OutboxEvent } from '../types.js';
import type { JournalRecord } from './journal.js';
import {
  projectionsOf,
  projectsOnChange,
  type JournalChangeKind,
  type JournalProjections,
} from './journal-projection.js';

/** A change of a journal record, as the table's stream reports it. */
export interface JournalChange {
  /**
   * INSERT: the record's first write, a new item or one written over its key's expired
   * idempotency answer (a MODIFY for the stream, whose old image is that answer); POSTED: a later
   * change that made the record POSTED (a queued payment approved); MODIFY: any other later change
   * (REVERSED, a hold settled, an answer saved, a dispute's mark).
   */
  change: JournalChangeKind;
  record: JournalRecord;
  /** The request id that wrote the record (its item's `cid`): carried on the events it projects. */
  correlationId?: string;
}

export interface ProjectionWrites {
  /** Items written now. */
  written: number;
  /** Items that were there already (projected before). */
  present: number;
}

export interface ProjectionStore {
  /**
   * Writes the audit entries and payment listings of these projections, each only if absent
   * (`attribute_not_exists`). `checkFirst` reads which exist before writing (a replay over a
   * complete journal then writes nothing, and pays reads instead of failed conditional writes).
   */
  writeProjections(projections: JournalProjections[], options: { checkFirst: boolean }): Promise<ProjectionWrites>;
}

/**
 * Where events go once projected. The event bus comes with the events area; until then the local
 * run and AWS hand events to a publisher that only counts them (their ids are derived from the
 * journal record, so publishing again later, from a replay, delivers the same events).
 */
export interface EventPublisher {
  publish(events: OutboxEvent[]): Promise<void>;
}

export interface ProjectionReport extends ProjectionWrites {
  records: number;
  events: number;
}

/**
 * The journal's projector: the consumer of the table's stream (functions/journal-projector) and
 * of `npm run journal:replay`. Idempotent: every projection has an id derived from its record.
 */
export function createJournalProjector(deps: { store: ProjectionStore; publisher: EventPublisher }) {
  async function project(
    changes: JournalChange[],
    options: { checkFirst: boolean } = { checkFirst: false },
  ): Promise<ProjectionReport> {
    const relevant = changes.filter((change) => projectsOnChange(change.change));
    const projections = await Promise.all(
      relevant.map(async (change) => withCorrelationId(await projectionsOf(change.record), change.correlationId)),
    );
    const writes = await deps.store.writeProjections(projections, options);
    const events = projections.flatMap((projection) => projection.events);
    if (events.length > 0) await deps.publisher.publish(events);
    return { records: relevant.length, events: events.length, ...writes };
  }
  return { project };
}

export type JournalProjector = ReturnType<typeof createJournalProjector>;

/** The projections' events with the correlation id of their record (internal metadata, never presented). */
function withCorrelationId(projections: JournalProjections, correlationId: string | undefined): JournalProjections {
  if (!correlationId) return projections;
  return { ...projections, events: projections.events.map((event) => ({ ...event, correlationId })) };
}
