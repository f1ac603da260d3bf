import { ApiError, STORED_FAILURES, toEnvelope, validationError } from '../errors.js';
import { derivedId, digestOf } from '../ledger/derived-ids.js';
import type { JournalRecord } from '../ledger/journal.js';
import type { OrganizationScope } from '../tenancy.js';
import type { IdempotencyRecord } from '../types.js';
import type { IdempotencyChange, IdempotencySlot, IdempotencyStore } from './ports.js';

/** Idempotency keys are kept 24 hours (decisions.md section 3); after that a key may start anew. */
export const IDEMPOTENCY_RETENTION_S = 24 * 3600;
/**
 * An idempotency answer (a stored refusal, a batch's claim, a card or transfer answer) is deleted by
 * the table's TTL this long after its key's window ends: a day to look at it, then gone.
 */
export const IDEMPOTENCY_TTL_AFTER_WINDOW_S = 24 * 3600;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** Idempotency keys of card network requests (`network:<processor id>`); refused from clients. */
export const RESERVED_KEY_PREFIX = 'network:';
/** A movement committed in flight whose answer is still missing after this was left by a request that died. */
export const IN_FLIGHT_STALE_MS = 10_000;
/** Safety bound on the slots tried in one request (each try follows a slot claimed meanwhile). */
const MAX_SLOT_ATTEMPTS = 8;

/** The key from the body field or the Idempotency-Key header; both present and different is an error. */
export function resolveIdempotencyKey(bodyKey: string | undefined, headerKey: string | undefined): string | undefined {
  if (bodyKey !== undefined && headerKey !== undefined && bodyKey !== headerKey) {
    throw validationError('idempotencyKey', 'differs from the Idempotency-Key header');
  }
  const key = bodyKey ?? headerKey;
  if (key === undefined) return undefined;
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw validationError(
      'idempotencyKey',
      `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable characters without spaces`,
    );
  }
  // The card network's requests claim `network:<processor id>` in the same slots: a client key can not take one first.
  if (key.startsWith(RESERVED_KEY_PREFIX))
    throw validationError(
      'idempotencyKey',
      `must not start with "${RESERVED_KEY_PREFIX}" (reserved for card network requests)`,
    );
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

/**
 * A request's claim on its key: the key, a digest of its normalized parameters, and its slots.
 * Generation 0 is the key's first slot; once a slot's claim is older than 24 hours the key may be
 * used anew, in the next generation's slot (a journal record is forever; only an expired answer's
 * slot is taken again, by the key's next claim).
 */
export interface KeyClaim {
  scope: OrganizationScope;
  key: string;
  /** The key as the client sent it, when `key` is namespaced (a public claim's `claim:<linkId>:<key>`): what errors show. */
  clientKey?: string;
  fingerprint: string;
  slotId(generation: number): Promise<string>;
}

/** The claim a movement's journal record carries (PostingIdempotency) for a key's claim. */
export function postingClaim(claim: KeyClaim): { key: string; fingerprint: string } {
  return { key: claim.key, fingerprint: claim.fingerprint };
}

/** A key's claim; `clientKey`: the key the client sent when `key` namespaces it (errors show only the client's). */
export async function claimOf(
  scope: OrganizationScope,
  key: string,
  fingerprintText: string,
  clientKey?: string,
): Promise<KeyClaim> {
  const slots = new Map<number, Promise<string>>();
  return {
    // Only the scope's two fields: a caller passing a richer object (a card) must not have it stored.
    scope: { organizationId: scope.organizationId, environment: scope.environment },
    key,
    ...(clientKey !== undefined ? { clientKey } : {}),
    fingerprint: await digestOf(fingerprintText),
    slotId(generation) {
      let id = slots.get(generation);
      if (!id) {
        // The organization's id makes the slot (a transaction id) unpredictable to anyone outside it.
        id = derivedId('transaction', `idempotency|${scope.organizationId}|${scope.environment}|${generation}|${key}`);
        slots.set(generation, id);
      }
      return id;
    },
  };
}

/** How one idempotent operation commits, and how its first answer is told again. */
export interface IdempotentRun {
  /**
   * Commits the movement with its journal record at `transactionId`: the key's slot when `claim`
   * is given (the write fails with IDEMPOTENCY_KEY_IN_USE if the slot was taken meanwhile).
   */
  execute(transactionId: string, claim: KeyClaim | undefined): Promise<IdempotentResponse>;
  /** The first answer, rebuilt from the movement's journal record (a payment as it posted). */
  replay?(record: JournalRecord): IdempotentResponse | Promise<IdempotentResponse>;
  /**
   * Movements whose answer is known only after the commit (a balance read back) save it onto the
   * record right after; a record still without one after IN_FLIGHT_STALE_MS is answered and
   * completed here (its movement did commit).
   */
  recover?(record: JournalRecord): Promise<IdempotentResponse>;
}

const isLive = (slot: IdempotencySlot, now: Date): boolean =>
  slot.kind === 'answer'
    ? slot.record.expiresAtEpochS * 1000 > now.getTime()
    : Date.parse(slot.record.createdAt) + IDEMPOTENCY_RETENTION_S * 1000 > now.getTime();

/** The live claim of a key, if any, and the first generation whose slot is free. */
interface SlotSearch {
  live?: IdempotencySlot;
  free: number;
}

/**
 * Slots 0..k-1 of a key are taken and k.. free, and only the last taken one can still be live
 * (the next is claimed only once it expired). Slot 0 answers almost every request; a key reused
 * day after day is found by galloping, then bisecting: O(log k) reads. An answer (a stored
 * refusal, a batch's claim, a card or transfer answer) is deleted by the table's TTL after its
 * window, so it is only ever the last taken slot: the next claim of its key takes the expired
 * answer's own slot (the claim's condition allows exactly that), never the one after it, and the
 * run of taken slots stays without holes whether the TTL has deleted the answer yet or not.
 */
async function searchSlots(
  store: IdempotencyStore,
  claim: KeyClaim,
  now: Date,
  first?: IdempotencySlot | null,
): Promise<SlotSearch> {
  const read = async (generation: number) => store.getIdempotencySlot(await claim.slotId(generation));
  const slot0 = first === undefined ? await read(0) : (first ?? undefined);
  if (!slot0) return { free: 0 };
  if (isLive(slot0, now)) return { live: slot0, free: 1 };
  let taken = 0;
  let takenSlot = slot0;
  let step = 1;
  let free: number;
  for (;;) {
    const slot = await read(taken + step);
    if (!slot) {
      free = taken + step;
      break;
    }
    taken += step;
    takenSlot = slot;
    step *= 2;
  }
  while (free - taken > 1) {
    const middle = Math.floor((taken + free) / 2);
    const slot = await read(middle);
    if (slot) {
      taken = middle;
      takenSlot = slot;
    } else {
      free = middle;
    }
  }
  if (isLive(takenSlot, now)) return { live: takenSlot, free };
  // An expired answer's slot is the key's next claim (its item waits for the TTL, or is gone already):
  // every write taking a slot may replace such an answer (persistence slotClaimWrite).
  return takenSlot.kind === 'answer' ? { free: taken } : { free };
}

/** The first answer of a live claim; IDEMPOTENCY_KEY_REUSE when the parameters differ. */
async function answerOf(
  slot: IdempotencySlot,
  claim: KeyClaim,
  run: IdempotentRun | undefined,
  now: Date,
): Promise<IdempotentResponse> {
  const fingerprint = slot.kind === 'answer' ? slot.record.fingerprint : slot.record.idempotencyFingerprint;
  if (fingerprint !== claim.fingerprint) {
    throw new ApiError('IDEMPOTENCY_KEY_REUSE', 'This idempotency key was used with different parameters.', {
      idempotencyKey: claim.clientKey ?? claim.key,
    });
  }
  if (slot.kind === 'answer')
    return { status: slot.record.status, body: JSON.parse(slot.record.body) as unknown, replayed: true };
  const { record } = slot;
  if (record.reply !== undefined) return { status: 200, body: JSON.parse(record.reply) as unknown, replayed: true };
  if (run?.recover) {
    if (now.getTime() - Date.parse(record.createdAt) <= IN_FLIGHT_STALE_MS) {
      throw new ApiError(
        'IDEMPOTENCY_KEY_IN_USE',
        'A request with this idempotency key is still being processed; retry shortly.',
        { idempotencyKey: claim.clientKey ?? claim.key },
      );
    }
    return { ...(await run.recover(record)), replayed: true };
  }
  if (!run?.replay) throw new Error(`slot ${record.id} holds a movement this operation can not replay`);
  return { ...(await run.replay(record)), replayed: true };
}

/**
 * Runs an idempotent operation (decisions.md section 3). A live claim of the key is answered
 * again (nothing executes, nothing is written); otherwise `execute` commits the movement with its
 * journal record in the key's free slot, one transaction. If a concurrent request claimed the slot
 * first, its answer is given. A refusal whose code is stored on refusal (errors.ts) is kept in the
 * slot like a success. `first`: slot 0 as read together with another read (null: absent).
 */
export async function runIdempotent(
  store: IdempotencyStore,
  claim: KeyClaim | undefined,
  now: Date,
  newTransactionId: () => string,
  run: IdempotentRun,
  first?: IdempotencySlot | null,
): Promise<IdempotentResponse> {
  if (claim === undefined) return run.execute(newTransactionId(), undefined);
  let search = await searchSlots(store, claim, now, first);
  for (let attempt = 1; ; attempt++) {
    if (search.live) return answerOf(search.live, claim, run, now);
    try {
      return await run.execute(await claim.slotId(search.free), claim);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === 'IDEMPOTENCY_KEY_IN_USE' && attempt < MAX_SLOT_ATTEMPTS) {
        // Claimed meanwhile, by a concurrent request with the key (answered) or an old claim.
        search = await searchSlots(store, claim, now);
        continue;
      }
      if (!STORED_FAILURES.has(error.code)) throw error;
      return storeAnswer(
        store,
        claim,
        search.free,
        { status: error.status, body: toEnvelope(error), replayed: false },
        now,
        run,
      );
    }
  }
}

/**
 * An idempotency answer: the key's scope, the key, the parameters' digest and the first response,
 * nothing else (the response is the presented view: never a card's sealed number or CVC). Kept
 * through the key's window and IDEMPOTENCY_TTL_AFTER_WINDOW_S after it (the table's TTL).
 */
export function answerChange(
  slotId: string,
  claim: KeyClaim,
  status: number,
  body: unknown,
  now: Date,
): IdempotencyChange {
  const record: IdempotencyRecord = {
    organizationId: claim.scope.organizationId,
    environment: claim.scope.environment,
    key: claim.key,
    fingerprint: claim.fingerprint,
    status,
    body: JSON.stringify(body),
    createdAt: now.toISOString(),
    expiresAtEpochS: Math.floor(now.getTime() / 1000) + IDEMPOTENCY_RETENTION_S,
  };
  return { type: 'idempotency', slotId, record };
}

/**
 * Stores an answer decided without a movement (a refusal) in the key's free slot; if another
 * request with the key claimed it first, that request's answer is the answer.
 */
async function storeAnswer(
  store: IdempotencyStore,
  claim: KeyClaim,
  generation: number,
  response: IdempotentResponse,
  now: Date,
  run?: IdempotentRun,
): Promise<IdempotentResponse> {
  try {
    await store.commit([answerChange(await claim.slotId(generation), claim, response.status, response.body, now)]);
    return response;
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'IDEMPOTENCY_KEY_IN_USE') throw error;
    const search = await searchSlots(store, claim, now);
    if (!search.live) throw error;
    return answerOf(search.live, claim, run, now);
  }
}

/** A batch's claim answers nothing itself: its items answer, each under its own key. */
const BATCH_CLAIM_STATUS = 0;

/**
 * Claims a batch's key for these items (decisions.md section 3, "Batch idempotency"): the same
 * key with other items is IDEMPOTENCY_KEY_REUSE; with the same items the batch runs again, each
 * item under its derived key, so posted and refused items answer as before and retryable ones run
 * again. Only the digest of the items is stored, whatever the items' size.
 */
export async function claimBatchKey(store: IdempotencyStore, claim: KeyClaim, now: Date): Promise<void> {
  for (let attempt = 1; attempt <= MAX_SLOT_ATTEMPTS; attempt++) {
    const search = await searchSlots(store, claim, now);
    if (search.live) {
      const fingerprint =
        search.live.kind === 'answer' ? search.live.record.fingerprint : search.live.record.idempotencyFingerprint;
      if (
        fingerprint !== claim.fingerprint ||
        search.live.kind !== 'answer' ||
        search.live.record.status !== BATCH_CLAIM_STATUS
      ) {
        throw new ApiError('IDEMPOTENCY_KEY_REUSE', 'This idempotency key was used with different parameters.', {
          idempotencyKey: claim.clientKey ?? claim.key,
        });
      }
      return;
    }
    try {
      await store.commit([answerChange(await claim.slotId(search.free), claim, BATCH_CLAIM_STATUS, null, now)]);
      return;
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'IDEMPOTENCY_KEY_IN_USE') throw error;
    }
  }
  throw new ApiError(
    'IDEMPOTENCY_KEY_IN_USE',
    'A request with this idempotency key is still being processed; retry shortly.',
    { idempotencyKey: claim.clientKey ?? claim.key },
  );
}
