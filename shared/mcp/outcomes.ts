import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isJsonObject } from '../domain/json.js';
import * as z from 'zod/mini';
import { ApiError, ERRORS, ERROR_CODES, toEnvelope, type ErrorCode } from '../domain/errors.js';
import { describe, id, text, timestamp } from '../domain/views.js';
import type { OperationResult } from '../operations/invoke.js';

/**
 * What a tool call answers, for a model to act on (decisions.md section 10):
 * - success: `structuredContent` is the operation's answer (its output schema), with a one-line
 *   summary and the same JSON as text for clients that do not read structured content;
 * - queued (APPROVAL_REQUIRED): a success, not an error, naming the approval and the tool to check it;
 * - failure: `isError` with the REST code, message, details, whether a retry can help and what to
 *   do next. No `structuredContent` on failures: clients check it against the output schema.
 */

export const queuedPaymentResult = z.strictObject({
  outcome: describe(
    z.literal('QUEUED_FOR_APPROVAL'),
    'Always QUEUED_FOR_APPROVAL: no money moved yet; a spend policy holds the payment until a person approves or rejects it.',
  ),
  code: describe(
    z.literal('APPROVAL_REQUIRED'),
    "The REST API's code for this answer (HTTP 202): not a failure of the call.",
  ),
  approvalId: id('approval', 'The approval a person decides; check it with the get_approval tool (`id`).'),
  transactionId: id('transaction', 'The payment, stored QUEUED; it posts by itself once approved.'),
  expiresAt: timestamp('Deadline of the decision; after it the payment fails with APPROVAL_EXPIRED.'),
  paymentLinkId: z.optional(
    id(
      'paymentLink',
      'A payment link queued for approval (create_payment_link): PENDING_APPROVAL with its amount and fee held, ACTIVE once approved. Absent for a payment.',
    ),
  ),
  checkWith: text("The tool that reports the approval's status (PENDING, APPROVED, REJECTED, EXPIRED or FAILED)."),
  message: text('What happened and what to do next, in words.'),
});
export type QueuedPaymentResult = z.infer<typeof queuedPaymentResult>;

const textBlock = (value: string) => ({ type: 'text' as const, text: value });

// ---- Success ------------------------------------------------------------------------------------

/** Scalar fields worth a glance, in this order (never a secret such as `apiKey`: the JSON carries it). */
const SUMMARY_FIELDS = [
  'object',
  'id',
  'name',
  'status',
  'amount',
  'currency',
  'from',
  'to',
  'balance',
  'walletId',
  'newBalance',
  'approvalId',
] as const;
const MAX_SUMMARY_VALUE = 80;

/** One line a model (or a person reading a transcript) can take in at a glance. */
export function summaryOf(title: string, body: Record<string, unknown>): string {
  if (Array.isArray(body.data)) {
    const more =
      typeof body.cursor === 'string' && body.hasMore !== false
        ? body.cursor
        : typeof body.nextCursor === 'string'
          ? body.nextCursor
          : undefined;
    return `${title}: ${body.data.length} item${body.data.length === 1 ? '' : 's'}${more ? `; more on the next page (pass cursor "${more}")` : ''}.`;
  }
  const facts = SUMMARY_FIELDS.flatMap((name) => {
    const value = body[name];
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return [];
    const shown = String(value);
    return [`${name} ${shown.length > MAX_SUMMARY_VALUE ? `${shown.slice(0, MAX_SUMMARY_VALUE)}...` : shown}`];
  });
  return `${title}: done${facts.length ? ` (${facts.join(', ')})` : ''}.`;
}

export function successResult(title: string, body: unknown): CallToolResult {
  const structured = isJsonObject(body) ? body : { result: body };
  return {
    content: [textBlock(summaryOf(title, structured)), textBlock(JSON.stringify(structured))],
    structuredContent: structured,
  };
}

// ---- Queued for approval ------------------------------------------------------------------------

/** The 202 APPROVAL_REQUIRED answer of a payment as a success result. */
export function queuedResult(details: Record<string, unknown>, getApprovalTool: string): CallToolResult {
  const approvalId = String(details.approvalId);
  const expiresAt = String(details.expiresAt);
  const linkId = typeof details.paymentLinkId === 'string' ? details.paymentLinkId : undefined;
  const message = linkId
    ? `The payment link ${linkId} is queued for human approval (approval ${approvalId}): PENDING_APPROVAL, its amount and fee held. This is not an error: do not retry it (a retry without the same idempotencyKey makes a second link). ` +
      `It becomes ACTIVE (claimable) once a person approves it, before ${expiresAt}. Check it with ${getApprovalTool} {"id":"${approvalId}"}.`
    : `The payment is queued for human approval (approval ${approvalId}); no money has moved yet. This is not an error: do not retry it (a retry without the same idempotencyKey queues a second payment). ` +
      `It posts by itself once a person approves it, before ${expiresAt}. Check it with ${getApprovalTool} {"id":"${approvalId}"}.`;
  const structured: QueuedPaymentResult = {
    outcome: 'QUEUED_FOR_APPROVAL',
    code: 'APPROVAL_REQUIRED',
    approvalId,
    transactionId: String(details.transactionId),
    expiresAt,
    ...(linkId ? { paymentLinkId: linkId } : {}),
    checkWith: getApprovalTool,
    message,
  };
  return { content: [textBlock(message), textBlock(JSON.stringify(structured))], structuredContent: structured };
}

// ---- Failures -----------------------------------------------------------------------------------

const isErrorCode = (code: unknown): code is ErrorCode =>
  typeof code === 'string' && (ERROR_CODES as string[]).includes(code);

/** What to do next, where the code alone says more than "retry" or "do not retry". */
function nextSteps(prefix: string): Partial<Record<ErrorCode, string>> {
  return {
    VALIDATION_ERROR:
      "Fix the argument named in details.field (the tool's input schema says what it accepts) and call again.",
    INVALID_AMOUNT:
      'Send a positive amount with at most 2 decimal places as a string, such as "25.00", and call again.',
    PERMISSION_DENIED:
      'This API key may not do this; calling again will not help. Ask a person holding an organization key (with the permission in details) to do it.',
    SANDBOX_ONLY: 'This exists only in the sandbox; use a sandbox key (svc_test_...).',
    ACTIVATION_REQUIRED:
      'The organization must complete production activation first (a person does this in the dashboard).',
    POLICY_DENIED:
      "A spend policy of the paying wallet blocks this payment (details name the rule and limit). Do not retry it unchanged: pay less, pay an allowed recipient, wait for the period to reset, or ask the wallet's owner to change the policy.",
    RECIPIENT_NOT_ALLOWED:
      "The paying wallet's policy does not allow this recipient. Pay an allowed recipient or ask the wallet's owner.",
    INSUFFICIENT_FUNDS: `The paying wallet lacks available funds (details give balance and requested). Check it with ${prefix}get_balance and ask the organization for more budget (${prefix}adjust_budget) before trying again.`,
    WALLET_FROZEN: 'The wallet is paused or frozen; a person must resume it before it can pay.',
    WALLET_NOT_FOUND: `No wallet with that id is visible to this key (an agent key sees only its own wallet; other organizations' wallets do not exist for it). Check the id, e.g. with ${prefix}list_wallets.`,
    SELF_PAYMENT: 'The payer and the recipient are the same wallet; pay another wallet.',
    MERCHANT_NOT_FOUND: 'No merchant is registered under that domain; check the spelling (merchant:<domain>).',
    IDEMPOTENCY_KEY_REUSE:
      'This idempotencyKey was already used with other arguments. Use a new key for a new payment, or the original arguments to get the first answer again.',
    IDEMPOTENCY_KEY_IN_USE:
      'The first call with this idempotencyKey is still running: wait a second, then call again with the same key and arguments.',
    CONCURRENT_UPDATE:
      'Many changes hit the same wallet at once: call again with the same arguments and the same idempotencyKey.',
    RATE_LIMIT_EXCEEDED: 'Too many calls with this key: wait details.retryAfter seconds, then call again.',
    BATCH_PARTIAL_FAILURE:
      'Some payments did not post (details.results, by index); posted ones stay posted. Retry only the failed items, or send the same batch with the same idempotencyKey to get this answer again.',
    INVALID_STATE:
      'The resource is not in a state that allows this (e.g. already decided or already paused); read it again before deciding what to do.',
    INTERNAL_ERROR:
      'Something failed on the service side. Call once more with the same arguments and idempotencyKey; if it fails again, report the requestId.',
    UNAUTHORIZED: 'The API key is not valid; check the X-Api-Key configured for this MCP server.',
    API_KEY_REVOKED: 'The API key is revoked or expired; ask for a new key.',
  };
}

function nextStepOf(code: ErrorCode, prefix: string): string {
  const specific = nextSteps(prefix)[code];
  if (specific) return specific;
  if (ERRORS[code].status === 404)
    return 'Nothing with that id is visible to this key: check the id (list tools show what exists).';
  return ERRORS[code].retryable
    ? 'Retryable: call again with the same arguments (and the same idempotencyKey).'
    : 'Not retryable: the same call gives the same answer. Change the request or ask a person.';
}

/** A failure with the REST error object, its status, whether to retry and what to do next. */
export function errorResult(
  error: { code: ErrorCode; message: string } & Record<string, unknown>,
  requestId: string,
  prefix: string,
): CallToolResult {
  const { status, retryable } = ERRORS[error.code];
  const nextStep = nextStepOf(error.code, prefix);
  const body = { error: { ...error, status, retryable, nextStep, requestId } };
  const summary = `${error.code} (HTTP ${status}, ${retryable ? 'retryable' : 'not retryable'}): ${error.message} Next: ${nextStep}`;
  return { isError: true, content: [textBlock(summary), textBlock(JSON.stringify(body))] };
}

export function apiErrorResult(error: ApiError, requestId: string, prefix: string): CallToolResult {
  return errorResult(toEnvelope(error).error, requestId, prefix);
}

/**
 * An operation's answer as a tool result: an `error` body (a stored refusal replayed under its
 * idempotency key, a batch's 207) is a failure, APPROVAL_REQUIRED is the queued success, and
 * anything else is the operation's output.
 */
export function operationResult(
  title: string,
  result: OperationResult,
  requestId: string,
  prefix: string,
): CallToolResult {
  const error = isJsonObject(result.body) && isJsonObject(result.body.error) ? result.body.error : undefined;
  if (error && isErrorCode(error.code)) {
    if (error.code === 'APPROVAL_REQUIRED' && isJsonObject(error.details))
      return queuedResult(error.details, `${prefix}get_approval`);
    return errorResult({ ...error, code: error.code, message: String(error.message ?? error.code) }, requestId, prefix);
  }
  return successResult(title, result.body);
}
