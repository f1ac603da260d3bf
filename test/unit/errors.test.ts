import { describe, expect, it } from 'vitest';
import {
  ApiError,
  ERROR_CODES,
  ERROR_STATUS,
  notFound,
  statusOf,
  toEnvelope,
  validationError,
  type ErrorCode,
  type NotFoundCode,
} from '../../shared/domain/errors.js';

/** interface-spec.md section 7, copied from the table. */
const SPEC_TABLE: Record<string, number> = {
  INSUFFICIENT_FUNDS: 402,
  POLICY_DENIED: 403,
  APPROVAL_REQUIRED: 202,
  WALLET_FROZEN: 403,
  WALLET_NOT_FOUND: 404,
  WALLET_LIMIT_EXCEEDED: 403,
  INVALID_AMOUNT: 400,
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  API_KEY_REVOKED: 401,
  PERMISSION_DENIED: 403,
  ENVIRONMENT_MISMATCH: 403,
  RATE_LIMIT_EXCEEDED: 429,
  IDEMPOTENCY_KEY_REUSE: 409,
  MERCHANT_NOT_FOUND: 404,
  MERCHANT_SUSPENDED: 403,
  CLOSED_LOOP_UNAVAILABLE: 400,
  TRANSFER_NOT_FOUND: 404,
  WEBHOOK_NOT_FOUND: 404,
  POLICY_NOT_FOUND: 404,
  REVERSAL_NOT_ALLOWED: 422,
  PAYMENT_LINK_NOT_FOUND: 404,
  BATCH_PARTIAL_FAILURE: 207,
  SANDBOX_ONLY: 403,
  CARD_NOT_FOUND: 404,
  BANK_ACCOUNT_NOT_FOUND: 404,
  BANK_ACCOUNT_NOT_VERIFIED: 400,
  SELF_PAYMENT: 400,
  ACTIVATION_INCOMPLETE: 400,
  ACTIVATION_REQUIRED: 403,
};

/** decisions.md section 9, "Added error codes". */
const DECISIONS_TABLE: Record<string, number> = {
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  INVALID_STATE: 409,
  INTERNAL_ERROR: 500,
  IDEMPOTENCY_KEY_IN_USE: 409,
  RECIPIENT_NOT_ALLOWED: 403,
};

/** decisions.md section 1: revoking an unknown key. */
const NAMED_NOT_FOUND: Record<string, number> = { API_KEY_NOT_FOUND: 404 };

const table = ERROR_STATUS as Record<string, number>;

describe('error codes', () => {
  it.each(Object.entries(SPEC_TABLE))('maps the spec code %s to HTTP %i', (code, status) => {
    expect(table[code]).toBe(status);
  });

  it.each(Object.entries({ ...DECISIONS_TABLE, ...NAMED_NOT_FOUND }))(
    'maps the added code %s to HTTP %i',
    (code, status) => {
      expect(table[code]).toBe(status);
    },
  );

  it('lists every code of the table in ERROR_CODES', () => {
    expect([...ERROR_CODES].sort()).toEqual(Object.keys(ERROR_STATUS).sort());
  });

  it('gives every code a status that is a valid HTTP status', () => {
    for (const code of ERROR_CODES) {
      const status = statusOf(code);
      expect(Number.isInteger(status)).toBe(true);
      expect(status).toBeGreaterThanOrEqual(200);
      expect(status).toBeLessThan(600);
    }
  });

  it('names every further not-found code with the 404 status', () => {
    for (const code of ERROR_CODES.filter((c) => c.endsWith('_NOT_FOUND'))) {
      expect(statusOf(code)).toBe(404);
    }
  });
});

describe('ApiError', () => {
  it('takes its status from the table', () => {
    for (const code of ERROR_CODES) {
      expect(new ApiError(code).status).toBe(ERROR_STATUS[code]);
    }
  });

  it('is an Error with a name, the code and a default message', () => {
    const error = new ApiError('WALLET_FROZEN');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ApiError');
    expect(error.code).toBe('WALLET_FROZEN');
    expect(error.message.length).toBeGreaterThan(0);
    expect(error.details).toBeUndefined();
  });

  it('has a non-empty message for every code', () => {
    for (const code of ERROR_CODES) expect(new ApiError(code).message).not.toBe('');
  });

  it('keeps a given message and details', () => {
    const error = new ApiError('INSUFFICIENT_FUNDS', 'Not enough.', {
      walletId: 'wal_1',
      balance: '1.00',
      requested: '2.00',
    });
    expect(error.message).toBe('Not enough.');
    expect(error.details).toEqual({ walletId: 'wal_1', balance: '1.00', requested: '2.00' });
    expect(error.status).toBe(402);
  });
});

describe('toEnvelope', () => {
  it('wraps code and message in an error object without details when there are none', () => {
    const envelope = toEnvelope(new ApiError('UNAUTHORIZED', 'A valid API key is required.'));
    expect(envelope).toEqual({ error: { code: 'UNAUTHORIZED', message: 'A valid API key is required.' } });
    expect(Object.keys(envelope.error)).not.toContain('details');
  });

  it('includes details when present', () => {
    const envelope = toEnvelope(new ApiError('RATE_LIMIT_EXCEEDED', 'Slow down.', { retryAfter: 3 }));
    expect(envelope).toEqual({
      error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Slow down.', details: { retryAfter: 3 } },
    });
  });

  it('puts ACTIVATION_INCOMPLETE missing at the top level of the error object', () => {
    const missing = ['tos', 'kyb'];
    const envelope = toEnvelope(new ApiError('ACTIVATION_INCOMPLETE', 'Missing.', { missing }, { missing }));
    expect(envelope.error.code).toBe('ACTIVATION_INCOMPLETE');
    expect(envelope.error.missing).toEqual(['tos', 'kyb']);
    expect(envelope.error.details).toEqual({ missing });
  });

  it('never lets extra fields override code or message', () => {
    const envelope = toEnvelope(new ApiError('INVALID_STATE', 'Real.', undefined, { code: 'FAKE', message: 'fake' }));
    expect(envelope.error.code).toBe('INVALID_STATE');
    expect(envelope.error.message).toBe('Real.');
  });

  it('serializes to JSON with only the error key', () => {
    const json = JSON.parse(JSON.stringify(toEnvelope(new ApiError('NOT_FOUND')))) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual(['error']);
  });
});

describe('validationError', () => {
  it('is a VALIDATION_ERROR naming the field in details and message', () => {
    const error = validationError('limit', 'must be an integer');
    const code: ErrorCode = error.code;
    expect(code).toBe('VALIDATION_ERROR');
    expect(error.status).toBe(400);
    expect(error.details).toEqual({ field: 'limit' });
    expect(error.message).toBe('limit: must be an integer');
  });
});

describe('error messages say what went wrong, not the code again', () => {
  it('gives every code a default message other than the code itself', () => {
    for (const code of ERROR_CODES) expect(new ApiError(code).message, code).not.toBe(code);
  });

  it('names the kind of resource of every not-found code, and the id when given', () => {
    const notFoundCodes = ERROR_CODES.filter((c): c is NotFoundCode => c.endsWith('_NOT_FOUND'));
    for (const code of notFoundCodes) {
      const error = notFound(code, 'xyz_123');
      expect(error.code).toBe(code);
      expect(error.message, code).toMatch(/^No [A-Za-z][A-Za-z ]+ with id xyz_123 was found\.$/);
    }
    expect(notFound('TRANSFER_NOT_FOUND', 'trf_x').message).toBe('No transfer with id trf_x was found.');
    expect(notFound('API_KEY_NOT_FOUND').message).toBe('No such API key.');
  });
});

describe('retryable conflicts say when to retry', () => {
  it('gives IDEMPOTENCY_KEY_IN_USE details.retryAfter (seconds) unless the thrower gave one', () => {
    expect(new ApiError('IDEMPOTENCY_KEY_IN_USE', 'Still running.', { idempotencyKey: 'k' }).details).toEqual({
      idempotencyKey: 'k',
      retryAfter: 1,
    });
    expect(new ApiError('IDEMPOTENCY_KEY_IN_USE').details).toEqual({ retryAfter: 1 });
    expect(new ApiError('IDEMPOTENCY_KEY_IN_USE', 'x', { retryAfter: 3 }).details).toEqual({ retryAfter: 3 });
    expect(new ApiError('CONCURRENT_UPDATE').details).toEqual({ retryAfter: 1 });
  });
});
