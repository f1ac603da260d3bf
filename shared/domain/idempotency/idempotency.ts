import { ApiError, STORED_FAILURES, toEnvelope, validationError } from '../errors.js';
import type { IdempotencyChange } from './ports.js';
import type { OrganizationScope } from '../tenancy.js';
import type { IdempotencyRecord } from '../types.js';
import type { IdempotencyStore } from './ports.js';

/** Idempotency records are kept 24 hours (decisions.md section 3). */
export const IDEMPOTENCY_RETENTION_S = 24 * 3600;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** The key from the body field or the Idempotency-Key header; both present and different is an error. */
export function resolveIdempotencyKey(bodyKey: string | undefined, headerKey: string | undefined): string | undefined {
  if (bodyKey !== undefined && headerKey !== undefined && bodyKey !== headerKey) {
    throw validationError('idempotencyKey', 'differs from the Idempotency-Key header');
  }
  const key = bodyKey ?? headerKey;
  if (key === undefined) return undefined;
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw validationError('idempotencyKey', `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable characters without spaces`);
  }
  return key;
}

/** Parameters compared after normalization: a canonical JSON text with sorted keys. */
export function fingerprintOf(operation: string, params: Record<string, unknown>): string {
  const sorted = Object.keys(params)
    .sort()
    .reduce<Record<string, unknown>>((out, key) => {
      out[key] = params[key] ?? null;
      return out;
    }, {});
  return JSON.stringify({ operation, ...sorted });
}

export interface IdempotentResponse<T = unknown> {
  status: number;
  body: T;
  replayed: boolean;
}

/** The stored first response for this key, or IDEMPOTENCY_KEY_REUSE if the parameters differ. */
function replayOf(record: IdempotencyRecord, fingerprint: string): IdempotentResponse {
  if (record.fingerprint !== fingerprint) {
    throw new ApiError('IDEMPOTENCY_KEY_REUSE', 'This idempotency key was used with different parameters.', { idempotencyKey: record.key });
  }
  if (record.status === IN_FLIGHT_STATUS) {
    throw new ApiError('IDEMPOTENCY_KEY_IN_USE', 'A request with this idempotency key is still being processed; retry shortly.', { idempotencyKey: record.key });
  }
  return { status: record.status, body: JSON.parse(record.body) as unknown, replayed: true };
}

/**
 * For responses known only after the commit (a balance read back): the record goes into the
 * movement's transaction as in flight, and the response is saved right after.
 */
export const IN_FLIGHT_STATUS = 0;
/** An in-flight record older than this was left by a request that died after its commit. */
export const IN_FLIGHT_STALE_MS = 10_000;

/** `partial`: what is known before the commit, from which a stale record's answer is rebuilt. */
export function inFlightIdempotencyChange(scope: OrganizationScope, key: string, fingerprint: string, now: Date, partial: unknown): IdempotencyChange {
  return idempotencyChange(scope, key, fingerprint, IN_FLIGHT_STATUS, partial, now);
}

/** Rebuilds and saves the answer of a stale in-flight record (the movement itself committed). */
export type InFlightRecovery = (partial: unknown) => Promise<IdempotentResponse>;

export function idempotencyChange(scope: OrganizationScope, key: string, fingerprint: string, status: number, body: unknown, now: Date): IdempotencyChange {
  return {
    type: 'idempotency',
    record: {
      ...scope,
      key,
      fingerprint,
      status,
      body: JSON.stringify(body),
      createdAt: now.toISOString(),
      expiresAtEpochS: Math.floor(now.getTime() / 1000) + IDEMPOTENCY_RETENTION_S,
    },
  };
}

/** The record under a key, unless it is past its 24 hours (TTL deletion lags behind). */
async function liveRecord(store: IdempotencyStore, scope: OrganizationScope, key: string, now: Date): Promise<IdempotencyRecord | undefined> {
  const record = await store.getIdempotencyRecord(scope.organizationId, scope.environment, key);
  return record && record.expiresAtEpochS * 1000 > now.getTime() ? record : undefined;
}

/** The stored response for this key and parameters, if any (IDEMPOTENCY_KEY_REUSE if they differ). */
export async function storedReplay(store: IdempotencyStore, scope: OrganizationScope, key: string, fingerprint: string, now: Date): Promise<IdempotentResponse | undefined> {
  const record = await liveRecord(store, scope, key, now);
  return record ? replayOf(record, fingerprint) : undefined;
}

/**
 * Runs an idempotent operation: a stored response is replayed; otherwise `execute` commits the
 * movement together with the idempotency record (one transaction). If a concurrent request with
 * the same key won the race, its stored response is replayed instead. A refusal in
 * STORED_FAILURES (the error table's `storedOnRefusal`) is kept under the key like a success.
 */
export async function runIdempotent(
  store: IdempotencyStore,
  scope: OrganizationScope,
  key: string | undefined,
  fingerprint: string,
  now: Date,
  execute: () => Promise<IdempotentResponse>,
  recover?: InFlightRecovery,
): Promise<IdempotentResponse> {
  if (key === undefined) return execute();
  const existing = await liveRecord(store, scope, key, now);
  const stale = existing?.status === IN_FLIGHT_STATUS && now.getTime() - Date.parse(existing.createdAt) > IN_FLIGHT_STALE_MS;
  if (existing && stale && recover && existing.fingerprint === fingerprint) return recover(JSON.parse(existing.body) as unknown);
  if (existing) return replayOf(existing, fingerprint);
  try {
    return await execute();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.code === 'IDEMPOTENCY_KEY_IN_USE') return replayWinner(store, scope, key, fingerprint, error);
    if (!STORED_FAILURES.has(error.code)) throw error;
    return storeResponse(store, scope, key, fingerprint, { status: error.status, body: toEnvelope(error), replayed: false }, now);
  }
}

async function replayWinner(store: IdempotencyStore, scope: OrganizationScope, key: string, fingerprint: string, error: ApiError): Promise<IdempotentResponse> {
  const winner = await store.getIdempotencyRecord(scope.organizationId, scope.environment, key);
  if (!winner) throw error;
  return replayOf(winner, fingerprint);
}


/**
 * Stores a response decided outside a movement's transaction (a refusal, a batch's answer); if
 * another request with the key stored first, that response is the answer.
 */
export async function storeResponse(store: IdempotencyStore, scope: OrganizationScope, key: string, fingerprint: string, response: IdempotentResponse, now: Date): Promise<IdempotentResponse> {
  try {
    await store.commit([idempotencyChange(scope, key, fingerprint, response.status, response.body, now)]);
    return response;
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'IDEMPOTENCY_KEY_IN_USE') throw error;
    return replayWinner(store, scope, key, fingerprint, error);
  }
}
