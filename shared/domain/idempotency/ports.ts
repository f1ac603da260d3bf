import type { ChangeCommitter } from '../changes.js';
import type { Environment } from '../tenancy.js';
import type { IdempotencyRecord } from '../types.js';

export type IdempotencyChange =
  /** Fails with IDEMPOTENCY_KEY_IN_USE when the key was taken meanwhile (the caller then replays). */
  { type: 'idempotency'; record: IdempotencyRecord };

/** What the idempotency helpers need: the record under a key, and the commit that claims one. */
export interface IdempotencyStore extends ChangeCommitter<IdempotencyChange> {
  getIdempotencyRecord(organizationId: string, environment: Environment, key: string): Promise<IdempotencyRecord | undefined>;
}

export interface IdempotencyCompleter {
  /** Saves the response of an in-flight idempotency record (written in the movement's transaction). */
  completeIdempotencyRecord(organizationId: string, environment: Environment, key: string, status: number, body: string): Promise<void>;
}
