/**
 * The closed set of errors a client can see: adding a code here is the only way to expose a new
 * failure, and every edge (HTTP, MCP, OpenAPI) reads this table. What each code means to a client: its HTTP status, whether retrying the same request may
 * succeed (`retryable`: contention, rate limits, a request still in flight), whether a refusal is
 * kept under the idempotency key like a success (`storedOnRefusal`, decisions.md section 3), and
 * whether it fails a queued payment at approval time instead of leaving it pending
 * (`failsQueuedPosting`). Groupings elsewhere derive from this one table.
 */
export interface ErrorTraits {
  status: number;
  retryable: boolean;
  storedOnRefusal: boolean;
  failsQueuedPosting?: true;
  /** Seconds a retryable refusal suggests waiting (`details.retryAfter`, `Retry-After`) when its thrower names none. */
  retryAfterS?: number;
}

export const ERRORS = {
  // interface-spec section 7
  INSUFFICIENT_FUNDS: { status: 402, retryable: false, storedOnRefusal: true, failsQueuedPosting: true },
  POLICY_DENIED: { status: 403, retryable: false, storedOnRefusal: true, failsQueuedPosting: true },
  APPROVAL_REQUIRED: { status: 202, retryable: false, storedOnRefusal: false },
  WALLET_FROZEN: { status: 403, retryable: false, storedOnRefusal: true, failsQueuedPosting: true },
  WALLET_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: true, failsQueuedPosting: true },
  WALLET_LIMIT_EXCEEDED: { status: 403, retryable: false, storedOnRefusal: false },
  INVALID_AMOUNT: { status: 400, retryable: false, storedOnRefusal: false },
  VALIDATION_ERROR: { status: 400, retryable: false, storedOnRefusal: false },
  UNAUTHORIZED: { status: 401, retryable: false, storedOnRefusal: false },
  API_KEY_REVOKED: { status: 401, retryable: false, storedOnRefusal: false },
  PERMISSION_DENIED: { status: 403, retryable: false, storedOnRefusal: false },
  ENVIRONMENT_MISMATCH: { status: 403, retryable: false, storedOnRefusal: true },
  RATE_LIMIT_EXCEEDED: { status: 429, retryable: true, storedOnRefusal: false },
  IDEMPOTENCY_KEY_REUSE: { status: 409, retryable: false, storedOnRefusal: false },
  MERCHANT_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: true },
  MERCHANT_SUSPENDED: { status: 403, retryable: false, storedOnRefusal: true },
  CLOSED_LOOP_UNAVAILABLE: { status: 400, retryable: false, storedOnRefusal: true },
  TRANSFER_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false },
  WEBHOOK_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false },
  POLICY_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false },
  REVERSAL_NOT_ALLOWED: { status: 422, retryable: false, storedOnRefusal: true },
  PAYMENT_LINK_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false },
  BATCH_PARTIAL_FAILURE: { status: 207, retryable: false, storedOnRefusal: false },
  SANDBOX_ONLY: { status: 403, retryable: false, storedOnRefusal: false },
  CARD_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false },
  BANK_ACCOUNT_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false },
  BANK_ACCOUNT_NOT_VERIFIED: { status: 400, retryable: false, storedOnRefusal: false },
  SELF_PAYMENT: { status: 400, retryable: false, storedOnRefusal: true },
  ACTIVATION_INCOMPLETE: { status: 400, retryable: false, storedOnRefusal: false },
  ACTIVATION_REQUIRED: { status: 403, retryable: false, storedOnRefusal: false },
  // decisions.md section 9 and the not-found codes it names
  NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false },
  METHOD_NOT_ALLOWED: { status: 405, retryable: false, storedOnRefusal: false },
  INVALID_STATE: { status: 409, retryable: false, storedOnRefusal: false },
  INTERNAL_ERROR: { status: 500, retryable: true, storedOnRefusal: false },
  IDEMPOTENCY_KEY_IN_USE: { status: 409, retryable: true, storedOnRefusal: false, retryAfterS: 1 },
  RECIPIENT_NOT_ALLOWED: { status: 403, retryable: false, storedOnRefusal: false },
  API_KEY_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false },
  TRANSACTION_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: true },
  APPROVAL_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false },
  ORGANIZATION_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false },
  DISPUTE_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false },
  EVENT_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false },
  DELIVERY_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false },
  CUSTOMER_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false },
  CUSTOMER_EMAIL_TAKEN: { status: 409, retryable: false, storedOnRefusal: false },
  PAYMENT_METHOD_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false },
  INVOICE_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false },
  // Ours (docs/api.md, Cards): an unknown or invisible cardholder or card authorization.
  CARDHOLDER_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false },
  AUTHORIZATION_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false },
  // Ours (docs/api.md, Bank accounts): wrong micro-deposit amounts; details.attemptsRemaining (0: the account is VERIFICATION_FAILED).
  BANK_ACCOUNT_VERIFICATION_FAILED: { status: 400, retryable: false, storedOnRefusal: false },
  // Ours (docs/api.md): contention on one wallet outlasted the retries; safe to retry with the same idempotency key.
  CONCURRENT_UPDATE: { status: 409, retryable: true, storedOnRefusal: false, retryAfterS: 1 },
  // decisions.md section 9: a request body over 1 MB (answered with the envelope and the security headers).
  PAYLOAD_TOO_LARGE: { status: 413, retryable: false, storedOnRefusal: false },
  // Ours (docs/api.md, Conventions): a request body sent as anything but `application/json` (UTF-8).
  UNSUPPORTED_MEDIA_TYPE: { status: 415, retryable: false, storedOnRefusal: false },
} as const satisfies Record<string, ErrorTraits>;

export type ErrorCode = keyof typeof ERRORS;

const codesWhere = (trait: (traits: ErrorTraits) => boolean | undefined): ReadonlySet<ErrorCode> =>
  new Set((Object.keys(ERRORS) as ErrorCode[]).filter((code) => trait(ERRORS[code])));

/** Refusals kept under an idempotency key like a success. */
export const STORED_FAILURES = codesWhere((t) => t.storedOnRefusal);
/** Refusals that end a queued payment FAILED when its approval tries to post it. */
export const QUEUED_POSTING_FAILURES = codesWhere((t) => t.failsQueuedPosting);

export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/** Each code's HTTP status (derived from ERRORS). */
export const ERROR_STATUS = Object.fromEntries(ERROR_CODES.map((code) => [code, ERRORS[code].status])) as { readonly [K in ErrorCode]: (typeof ERRORS)[K]['status'] };

/** A code whose 404 names one kind of resource. */
export type NotFoundCode = Extract<ErrorCode, `${string}_NOT_FOUND`>;

/** What each not-found code did not find, for its message (a new not-found code fails to compile without one). */
const NOT_FOUND_NOUNS: Record<NotFoundCode, string> = {
  WALLET_NOT_FOUND: 'wallet',
  MERCHANT_NOT_FOUND: 'merchant',
  TRANSFER_NOT_FOUND: 'transfer',
  WEBHOOK_NOT_FOUND: 'webhook',
  POLICY_NOT_FOUND: 'policy',
  PAYMENT_LINK_NOT_FOUND: 'payment link',
  CARD_NOT_FOUND: 'card',
  BANK_ACCOUNT_NOT_FOUND: 'bank account',
  API_KEY_NOT_FOUND: 'API key',
  TRANSACTION_NOT_FOUND: 'transaction',
  APPROVAL_NOT_FOUND: 'approval',
  ORGANIZATION_NOT_FOUND: 'organization',
  DISPUTE_NOT_FOUND: 'dispute',
  EVENT_NOT_FOUND: 'event',
  DELIVERY_NOT_FOUND: 'webhook delivery',
  CUSTOMER_NOT_FOUND: 'customer',
  PAYMENT_METHOD_NOT_FOUND: 'payment method',
  INVOICE_NOT_FOUND: 'invoice',
  CARDHOLDER_NOT_FOUND: 'cardholder',
  AUTHORIZATION_NOT_FOUND: 'card authorization',
};

/** "No transfer with id trf_x was found." (or "No such transfer." without an id): never the code again. */
export function notFoundMessage(code: NotFoundCode, id?: string): string {
  const noun = NOT_FOUND_NOUNS[code];
  return id === undefined ? `No such ${noun}.` : `No ${noun} with id ${id} was found.`;
}

/** The 404 of a lookup: the message names what was not found (and its id, when the caller has it). */
export function notFound(code: NotFoundCode, id?: string, details?: ErrorDetails): ApiError {
  return new ApiError(code, notFoundMessage(code, id), details);
}

const isNotFoundCode = (code: ErrorCode): code is NotFoundCode => code in NOT_FOUND_NOUNS;

/** Every code's message when its thrower gives none; a test checks none is the code itself. */
const DEFAULT_MESSAGES: Partial<Record<ErrorCode, string>> = {
  INSUFFICIENT_FUNDS: 'The wallet does not hold enough available funds.',
  POLICY_DENIED: 'A spend policy blocked this payment.',
  APPROVAL_REQUIRED: 'A spend policy requires human approval; the payment is queued.',
  WALLET_FROZEN: 'The wallet is frozen.',
  WALLET_LIMIT_EXCEEDED: 'The wallet limit of this environment is reached.',
  INVALID_AMOUNT: 'The amount is zero, negative or malformed.',
  VALIDATION_ERROR: 'The request is invalid.',
  UNAUTHORIZED: 'A valid API key is required.',
  API_KEY_REVOKED: 'The API key is revoked or expired.',
  PERMISSION_DENIED: 'The API key lacks the permission this operation needs.',
  ENVIRONMENT_MISMATCH: 'The resource belongs to the other environment.',
  RATE_LIMIT_EXCEEDED: 'Too many requests.',
  SANDBOX_ONLY: 'This endpoint exists only in the sandbox.',
  ACTIVATION_INCOMPLETE: 'Activation requirements are missing.',
  ACTIVATION_REQUIRED: 'Production access requires activation.',
  NOT_FOUND: 'No such route.',
  METHOD_NOT_ALLOWED: 'This route does not accept that method.',
  INVALID_STATE: 'The resource is not in a state that allows this.',
  INTERNAL_ERROR: 'Something went wrong on our side.',
  BANK_ACCOUNT_VERIFICATION_FAILED: 'The micro-deposit amounts are wrong.',
  CONCURRENT_UPDATE: 'Too many concurrent changes to the same wallet; retry after the given number of seconds.',
  PAYLOAD_TOO_LARGE: 'The request body is larger than 1 MB.',
  REVERSAL_NOT_ALLOWED: 'This payment can not be reversed by this key.',
  BATCH_PARTIAL_FAILURE: 'Some items of the batch failed; see details.results.',
  MERCHANT_SUSPENDED: 'The merchant is suspended.',
  CLOSED_LOOP_UNAVAILABLE: 'Closed-loop payments are not available for this recipient.',
  IDEMPOTENCY_KEY_REUSE: 'This idempotency key was used with different parameters.',
  IDEMPOTENCY_KEY_IN_USE: 'A request with this idempotency key is still being processed; retry shortly.',
  BANK_ACCOUNT_NOT_VERIFIED: 'The bank account is not verified.',
  SELF_PAYMENT: 'The payer and the recipient are the same wallet.',
  RECIPIENT_NOT_ALLOWED: 'A policy of the wallet does not allow this recipient.',
  CUSTOMER_EMAIL_TAKEN: 'A customer with this email exists already.',
  UNSUPPORTED_MEDIA_TYPE: 'Send the request body as JSON with "Content-Type: application/json".',
};

export type ErrorDetails = Record<string, unknown>;

/** The one error type for expected failures; its HTTP status comes from ERRORS. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails | undefined;
  /** Extra top-level fields of the error object (e.g. ACTIVATION_INCOMPLETE's `missing`). */
  readonly extra: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message?: string, details?: ErrorDetails, extra?: Record<string, unknown>) {
    super(message ?? (isNotFoundCode(code) ? notFoundMessage(code) : DEFAULT_MESSAGES[code]) ?? code);
    this.name = 'ApiError';
    this.code = code;
    const retryAfterS = (ERRORS[code] as ErrorTraits).retryAfterS;
    this.details = retryAfterS !== undefined && details?.retryAfter === undefined ? { ...details, retryAfter: retryAfterS } : details;
    this.extra = extra;
  }

  get status(): number {
    return ERRORS[this.code].status;
  }
}

export function statusOf(code: ErrorCode): number {
  return ERRORS[code].status;
}

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; details?: ErrorDetails } & Record<string, unknown>;
}

export function toEnvelope(error: ApiError): ErrorEnvelope {
  return {
    error: {
      ...(error.extra ?? {}),
      code: error.code,
      message: error.message,
      ...(error.details === undefined ? {} : { details: error.details }),
    },
  };
}

export function validationError(field: string, message: string): ApiError {
  return new ApiError('VALIDATION_ERROR', `${field}: ${message}`, { field });
}
