/**
 * The closed set of errors a client can see. Each code maps to exactly one HTTP status; adding a
 * code here is the only way to expose a new failure, and every edge (HTTP, MCP) reads this table.
 */
export const ERROR_STATUS = {
  // interface-spec section 7
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
  // decisions.md section 9 and the not-found codes it names
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  INVALID_STATE: 409,
  INTERNAL_ERROR: 500,
  IDEMPOTENCY_KEY_IN_USE: 409,
  RECIPIENT_NOT_ALLOWED: 403,
  API_KEY_NOT_FOUND: 404,
  TRANSACTION_NOT_FOUND: 404,
  APPROVAL_NOT_FOUND: 404,
  ORGANIZATION_NOT_FOUND: 404,
  DISPUTE_NOT_FOUND: 404,
  CUSTOMER_NOT_FOUND: 404,
  CUSTOMER_EMAIL_TAKEN: 409,
  PAYMENT_METHOD_NOT_FOUND: 404,
  INVOICE_NOT_FOUND: 404,
  // Ours (docs/api.md): contention on one wallet outlasted the retries; safe to retry with the same idempotency key.
  CONCURRENT_UPDATE: 409,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

const DEFAULT_MESSAGES: Partial<Record<ErrorCode, string>> = {
  INSUFFICIENT_FUNDS: 'The wallet does not hold enough available funds.',
  POLICY_DENIED: 'A spend policy blocked this payment.',
  APPROVAL_REQUIRED: 'A spend policy requires human approval; the payment is queued.',
  WALLET_FROZEN: 'The wallet is frozen.',
  WALLET_NOT_FOUND: 'No such wallet.',
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
  API_KEY_NOT_FOUND: 'No such API key.',
  ORGANIZATION_NOT_FOUND: 'No such organization.',
  CONCURRENT_UPDATE: 'Too many concurrent changes to the same wallet; retry after the given number of seconds.',
};

export type ErrorDetails = Record<string, unknown>;

/** The one error type for expected failures; its HTTP status comes from ERROR_STATUS. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails | undefined;
  /** Extra top-level fields of the error object (e.g. ACTIVATION_INCOMPLETE's `missing`). */
  readonly extra: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message?: string, details?: ErrorDetails, extra?: Record<string, unknown>) {
    super(message ?? DEFAULT_MESSAGES[code] ?? code);
    this.name = 'ApiError';
    this.code = code;
    this.details = details;
    this.extra = extra;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export function statusOf(code: ErrorCode): number {
  return ERROR_STATUS[code];
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
