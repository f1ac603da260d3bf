/**
 * The closed set of errors a client can see: adding a code here is the only way to expose a new
 * failure, and every edge (HTTP, MCP, OpenAPI) reads this table. What each code means to a client: its HTTP status, whether retrying the same request may
 * succeed (`retryable`: contention, rate limits, a request still in flight), whether a refusal is
 * kept under the idempotency key like a success (`storedOnRefusal`, decisions.md section 3), and
 * whether it fails a queued payment at approval time instead of leaving it pending
 * (`failsQueuedPosting`), and its message when its thrower gives none: a `message`, or for a
 * not-found code the `noun` of what was not found ("No such card.", "No card with id card_x was
 * found."). Groupings elsewhere derive from this one table.
 */
export type ErrorTraits = {
  status: number;
  retryable: boolean;
  storedOnRefusal: boolean;
  failsQueuedPosting?: true;
  /** Seconds a retryable refusal suggests waiting (`details.retryAfter`, `Retry-After`) when its thrower names none. */
  retryAfterS?: number;
} & ({ message: string; noun?: never } | { noun: string; message?: never });

export const ERRORS = {
  // interface-spec section 7
  INSUFFICIENT_FUNDS: {
    status: 402,
    retryable: false,
    storedOnRefusal: true,
    failsQueuedPosting: true,
    message: 'The wallet does not hold enough available funds.',
  },
  POLICY_DENIED: {
    status: 403,
    retryable: false,
    storedOnRefusal: true,
    failsQueuedPosting: true,
    message: 'A spend policy blocked this payment.',
  },
  APPROVAL_REQUIRED: {
    status: 202,
    retryable: false,
    storedOnRefusal: false,
    message: 'A spend policy requires human approval; the payment is queued.',
  },
  WALLET_FROZEN: {
    status: 403,
    retryable: false,
    storedOnRefusal: true,
    failsQueuedPosting: true,
    message: 'The wallet is frozen.',
  },
  WALLET_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: true, failsQueuedPosting: true, noun: 'wallet' },
  WALLET_LIMIT_EXCEEDED: {
    status: 403,
    retryable: false,
    storedOnRefusal: false,
    message: 'The wallet limit of this environment is reached.',
  },
  INVALID_AMOUNT: {
    status: 400,
    retryable: false,
    storedOnRefusal: false,
    message: 'The amount is zero, negative or malformed.',
  },
  VALIDATION_ERROR: { status: 400, retryable: false, storedOnRefusal: false, message: 'The request is invalid.' },
  UNAUTHORIZED: { status: 401, retryable: false, storedOnRefusal: false, message: 'A valid API key is required.' },
  API_KEY_REVOKED: {
    status: 401,
    retryable: false,
    storedOnRefusal: false,
    message: 'The API key is revoked or expired.',
  },
  PERMISSION_DENIED: {
    status: 403,
    retryable: false,
    storedOnRefusal: false,
    message: 'The API key lacks the permission this operation needs.',
  },
  ENVIRONMENT_MISMATCH: {
    status: 403,
    retryable: false,
    storedOnRefusal: true,
    message: 'The resource belongs to the other environment.',
  },
  RATE_LIMIT_EXCEEDED: { status: 429, retryable: true, storedOnRefusal: false, message: 'Too many requests.' },
  IDEMPOTENCY_KEY_REUSE: {
    status: 409,
    retryable: false,
    storedOnRefusal: false,
    message: 'This idempotency key was used with different parameters.',
  },
  MERCHANT_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: true, noun: 'merchant' },
  MERCHANT_SUSPENDED: { status: 403, retryable: false, storedOnRefusal: true, message: 'The merchant is suspended.' },
  CLOSED_LOOP_UNAVAILABLE: {
    status: 400,
    retryable: false,
    storedOnRefusal: true,
    message: 'Closed-loop payments are not available for this recipient.',
  },
  TRANSFER_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false, noun: 'transfer' },
  WEBHOOK_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false, noun: 'webhook' },
  POLICY_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false, noun: 'policy' },
  REVERSAL_NOT_ALLOWED: {
    status: 422,
    retryable: false,
    storedOnRefusal: true,
    message: 'This payment can not be reversed by this key.',
  },
  PAYMENT_LINK_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false, noun: 'payment link' },
  BATCH_PARTIAL_FAILURE: {
    status: 207,
    retryable: false,
    storedOnRefusal: false,
    message: 'Some items of the batch failed; see details.results.',
  },
  SANDBOX_ONLY: {
    status: 403,
    retryable: false,
    storedOnRefusal: false,
    message: 'This endpoint exists only in the sandbox.',
  },
  CARD_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false, noun: 'card' },
  BANK_ACCOUNT_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false, noun: 'bank account' },
  BANK_ACCOUNT_NOT_VERIFIED: {
    status: 400,
    retryable: false,
    storedOnRefusal: false,
    message: 'The bank account is not verified.',
  },
  SELF_PAYMENT: {
    status: 400,
    retryable: false,
    storedOnRefusal: true,
    message: 'The payer and the recipient are the same wallet.',
  },
  ACTIVATION_INCOMPLETE: {
    status: 400,
    retryable: false,
    storedOnRefusal: false,
    message: 'Activation requirements are missing.',
  },
  ACTIVATION_REQUIRED: {
    status: 403,
    retryable: false,
    storedOnRefusal: false,
    message: 'Production access requires activation.',
  },
  // decisions.md section 9 and the not-found codes it names
  NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false, message: 'No such route.' },
  METHOD_NOT_ALLOWED: {
    status: 405,
    retryable: false,
    storedOnRefusal: false,
    message: 'This route does not accept that method.',
  },
  INVALID_STATE: {
    status: 409,
    retryable: false,
    storedOnRefusal: false,
    message: 'The resource is not in a state that allows this.',
  },
  INTERNAL_ERROR: {
    status: 500,
    retryable: true,
    storedOnRefusal: false,
    message: 'Something went wrong on our side.',
  },
  IDEMPOTENCY_KEY_IN_USE: {
    status: 409,
    retryable: true,
    storedOnRefusal: false,
    retryAfterS: 1,
    message: 'A request with this idempotency key is still being processed; retry shortly.',
  },
  RECIPIENT_NOT_ALLOWED: {
    status: 403,
    retryable: false,
    storedOnRefusal: false,
    message: 'A policy of the wallet does not allow this recipient.',
  },
  API_KEY_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false, noun: 'API key' },
  TRANSACTION_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: true, noun: 'transaction' },
  APPROVAL_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false, noun: 'approval' },
  ORGANIZATION_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false, noun: 'organization' },
  DISPUTE_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false, noun: 'dispute' },
  // Ours (docs/api.md, Disputes): a payment is disputed at most once.
  DISPUTE_EXISTS: {
    status: 409,
    retryable: false,
    storedOnRefusal: true,
    message: 'This payment has been disputed already.',
  },
  // Ours (docs/api.md, Disputes): a payment that can not be disputed (between your own wallets, or one that paid an invoice).
  DISPUTE_NOT_ALLOWED: {
    status: 422,
    retryable: false,
    storedOnRefusal: true,
    message: 'This payment can not be disputed.',
  },
  USER_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false, noun: 'user' },
  // Ours (docs/api.md, Users): an email is a member (or invited) at most once per organization.
  USER_EXISTS: {
    status: 409,
    retryable: false,
    storedOnRefusal: false,
    message: 'A user with this email is already a member of the organization or invited to it.',
  },
  EVENT_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false, noun: 'event' },
  DELIVERY_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false, noun: 'webhook delivery' },
  CUSTOMER_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false, noun: 'customer' },
  CUSTOMER_EMAIL_TAKEN: {
    status: 409,
    retryable: false,
    storedOnRefusal: false,
    message: 'A customer with this email exists already.',
  },
  PAYMENT_METHOD_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false, noun: 'payment method' },
  INVOICE_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false, noun: 'invoice' },
  // Ours (docs/api.md, Customers): an unknown setup or update link of the hosted payment-method page.
  PAYMENT_METHOD_SESSION_NOT_FOUND: {
    status: 404,
    retryable: false,
    storedOnRefusal: false,
    noun: 'payment method session',
  },
  // Ours (docs/api.md, Invoices): the processor declined the customer's card or bank debit; details.declineCode.
  PAYMENT_DECLINED: {
    status: 402,
    retryable: false,
    storedOnRefusal: true,
    message: "The customer's payment method was declined.",
  },
  // Ours (docs/api.md, Cards): an unknown or invisible cardholder or card authorization.
  CARDHOLDER_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false, noun: 'cardholder' },
  AUTHORIZATION_NOT_FOUND: { status: 404, retryable: false, storedOnRefusal: false, noun: 'card authorization' },
  // Ours (docs/api.md, Bank accounts): wrong micro-deposit amounts; details.attemptsRemaining (0: the account is VERIFICATION_FAILED).
  BANK_ACCOUNT_VERIFICATION_FAILED: {
    status: 400,
    retryable: false,
    storedOnRefusal: false,
    message: 'The micro-deposit amounts are wrong.',
  },
  // Ours (docs/api.md): contention on one wallet outlasted the retries; safe to retry with the same idempotency key.
  CONCURRENT_UPDATE: {
    status: 409,
    retryable: true,
    storedOnRefusal: false,
    retryAfterS: 1,
    message: 'Too many concurrent changes to the same wallet; retry after the given number of seconds.',
  },
  // decisions.md section 9: a request body over 1 MB (answered with the envelope and the security headers).
  PAYLOAD_TOO_LARGE: {
    status: 413,
    retryable: false,
    storedOnRefusal: false,
    message: 'The request body is larger than 1 MB.',
  },
  // Ours (docs/api.md, Conventions): a request body sent as anything but `application/json` (UTF-8).
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    retryable: false,
    storedOnRefusal: false,
    message: 'Send the request body as JSON with "Content-Type: application/json".',
  },
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
export const ERROR_STATUS = Object.fromEntries(ERROR_CODES.map((code) => [code, ERRORS[code].status])) as {
  readonly [K in ErrorCode]: (typeof ERRORS)[K]['status'];
};

/** A code whose 404 names one kind of resource. */
export type NotFoundCode = Extract<ErrorCode, `${string}_NOT_FOUND`>;

/** The codes whose entry names a `noun`. */
type NounedCode = { [K in ErrorCode]: (typeof ERRORS)[K] extends { noun: string } ? K : never }[ErrorCode];
type Holds<T extends true> = T;
/** Compiles only while every not-found code names its noun in ERRORS, and only they do. */
export type NotFoundCodesNameTheirNoun = Holds<
  [NotFoundCode] extends [NounedCode] ? ([NounedCode] extends [NotFoundCode] ? true : false) : false
>;

/** "No transfer with id trf_x was found." (or "No such transfer." without an id): never the code again. */
export function notFoundMessage(code: NotFoundCode, id?: string): string {
  return notFoundText(ERRORS[code].noun, id);
}

const notFoundText = (noun: string, id?: string) =>
  id === undefined ? `No such ${noun}.` : `No ${noun} with id ${id} was found.`;

/** The 404 of a lookup: the message names what was not found (and its id, when the caller has it). */
export function notFound(code: NotFoundCode, id?: string, details?: ErrorDetails): ApiError {
  return new ApiError(code, notFoundMessage(code, id), details);
}

export type ErrorDetails = Record<string, unknown>;

/** The one error type for expected failures; its HTTP status comes from ERRORS. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails | undefined;
  /** Extra top-level fields of the error object (e.g. ACTIVATION_INCOMPLETE's `missing`). */
  readonly extra: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message?: string, details?: ErrorDetails, extra?: Record<string, unknown>) {
    const traits: ErrorTraits = ERRORS[code];
    super(message ?? (traits.noun === undefined ? traits.message : notFoundText(traits.noun)));
    this.name = 'ApiError';
    this.code = code;
    const retryAfterS = (ERRORS[code] as ErrorTraits).retryAfterS;
    this.details =
      retryAfterS !== undefined && details?.retryAfter === undefined
        ? { ...details, retryAfter: retryAfterS }
        : details;
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
