import * as z from 'zod/mini';
import { AUDIT } from '../domain/audit/actions.js';
import {
  DEFAULT_DISPUTE_PAGE,
  MAX_DISPUTE_OFFSET,
  MAX_DISPUTE_REASON,
  MAX_DISPUTE_RESPONSE,
  MAX_EVIDENCE_URL,
  MAX_RESOLUTION_NOTE,
} from '../domain/disputes/dispute-rules.js';
import type { DisputeService } from '../domain/disputes/dispute-service.js';
import { presentDispute, presentDisputePage } from '../domain/disputes/dispute-view.js';
import { DISPUTE_OUTCOMES, DISPUTE_STATUSES, DISPUTE_TYPES } from '../domain/disputes/types.js';
import { HINTS, defineGroup, operation } from './define.js';
import { amount, describe, idempotencyKey, prefixedId, queryInteger, text } from './fields.js';
import { MAX_PAGE_SIZE, parseQueryInteger } from './pagination.js';

export interface DisputesServices {
  disputes: DisputeService;
}

const op = operation<DisputesServices>();
const disputeParam = { id: 'The dispute id (`dsp_...`).' };

/** An https URL (no other scheme), bounded. */
const evidenceUrl = () =>
  describe(
    z
      .string()
      .check(
        z.maxLength(MAX_EVIDENCE_URL, `must be at most ${MAX_EVIDENCE_URL} characters`),
        z.refine(isHttpsUrl, 'must be an https:// URL'),
      ),
    `Where the evidence is: an https:// URL (at most ${MAX_EVIDENCE_URL} characters).`,
  );

function isHttpsUrl(value: string): boolean {
  if (!value.startsWith('https://')) return false;
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

const OPEN_DESCRIPTION =
  "Disputes a POSTED payment your organization made to another organization (an agent key: a payment from its own wallet): `amount` (at most the payment's) moves at once from the receiving wallet into suspense, where neither side can use it, until the respondent answers and the operator decides, or the respondent does not answer by `respondBy` (7 days; sandbox: divided by TIME_SCALE) and the initiator wins. A payment is disputed at most once (DISPUTE_EXISTS) and can no longer be reversed. Not disputable (DISPUTE_NOT_ALLOWED): a reversal, funding or other movement, a payment between your own wallets (reverse it instead), a payment of an invoice (ask for a refund), a payment to a closed wallet. INSUFFICIENT_FUNDS when the receiving wallet can not give the amount now (nothing else of the respondent's is said). Send an Idempotency-Key so a retry opens once.";

/**
 * Disputes (interface-spec 2.5, 3.2, 4.4; decisions.md section 7; docs/api.md "Disputes"): the
 * paying organization opens one, the receiving organization answers, the operator resolves; both
 * parties read it. An agent key works with its own wallet's side only. No MCP tool for resolve.
 */
// The deadline workflow starts after each opening (Step Functions in AWS: the start grant; locally the in-process runner).
export const DISPUTES = defineGroup<DisputesServices>()('disputes', { grants: ['disputeWorkflow:start'] }, [
  op({
    name: 'openDispute',
    summary: 'Open a dispute',
    description: OPEN_DESCRIPTION,
    access: 'key',
    permission: 'payments:write',
    audit: AUDIT.dispute.create,
    events: ['dispute.created'],
    idempotency: 'key',
    http: { method: 'POST', path: '/v1/disputes', status: 201 },
    mcp: { tool: 'open_dispute', hints: HINTS.money },
    body: () =>
      z.strictObject({
        transactionId: prefixedId('transaction', 'transaction', 'The disputed payment (`txn_...`).'),
        respondentOrgId: z.optional(
          prefixedId(
            'organization',
            'organization',
            'The organization that received the payment (`org_...`); derived when omitted, checked when given.',
          ),
        ),
        type: describe(z.enum(DISPUTE_TYPES), 'What happened: REVERSAL, FRAUD or SERVICE_ISSUE.'),
        amount: amount("The disputed amount, > 0 and at most the payment's amount."),
        reason: text(MAX_DISPUTE_REASON, `Why (1-${MAX_DISPUTE_REASON} characters); both parties see it.`, {
          min: 1,
          multiline: true,
        }),
        idempotencyKey: idempotencyKey(),
      }),
    output: 'disputeView',
    errors: [
      'TRANSACTION_NOT_FOUND',
      'PERMISSION_DENIED',
      'DISPUTE_NOT_ALLOWED',
      'INVALID_STATE',
      'DISPUTE_EXISTS',
      'INVALID_AMOUNT',
      'INSUFFICIENT_FUNDS',
      'IDEMPOTENCY_KEY_REUSE',
      'IDEMPOTENCY_KEY_IN_USE',
      'ENVIRONMENT_MISMATCH',
    ],
    run: ({ services, auth, audit, body, idempotencyKey: key }) =>
      services.disputes.open(
        auth,
        audit,
        {
          transactionId: body.transactionId,
          respondentOrgId: body.respondentOrgId,
          type: body.type,
          amount: body.amount,
          reason: body.reason,
        },
        key,
      ),
  }),
  op({
    name: 'listDisputes',
    summary: 'List disputes',
    description: `Disputes where your organization is the initiator or the respondent (an agent key: where its wallet is the paying or the receiving one), in the key's environment, newest first. Pages by \`limit\` (1-${MAX_PAGE_SIZE}, default ${DEFAULT_DISPUTE_PAGE}) and \`offset\` (0-${MAX_DISPUTE_OFFSET}); \`hasMore\` says whether more follow.`,
    access: 'key',
    permission: 'payments:read',
    http: { method: 'GET', path: '/v1/disputes', status: 200 },
    mcp: { tool: 'list_disputes', hints: HINTS.read },
    query: () =>
      z.strictObject({
        status: z.optional(describe(z.enum(DISPUTE_STATUSES), 'Only disputes in this status.')),
        limit: z.optional(
          queryInteger(1, MAX_PAGE_SIZE, `Page size, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_DISPUTE_PAGE}).`),
        ),
        offset: z.optional(
          queryInteger(0, MAX_DISPUTE_OFFSET, `How many disputes to skip, 0 to ${MAX_DISPUTE_OFFSET} (default 0).`),
        ),
      }),
    output: 'disputePageView',
    errors: [],
    run: ({ services, auth, query }) =>
      services.disputes.list(
        auth,
        { status: query.status },
        {
          limit: parseQueryInteger('limit', query.limit, 1, MAX_PAGE_SIZE, DEFAULT_DISPUTE_PAGE),
          offset: parseQueryInteger('offset', query.offset, 0, MAX_DISPUTE_OFFSET, 0),
        },
      ),
    present: presentDisputePage,
  }),
  op({
    name: 'getDispute',
    summary: 'Get a dispute',
    description: "One dispute, as both parties see it. Anyone else's key: DISPUTE_NOT_FOUND.",
    access: 'key',
    permission: 'payments:read',
    http: { method: 'GET', path: '/v1/disputes/{id}', status: 200 },
    params: disputeParam,
    mcp: { tool: 'get_dispute', hints: HINTS.read },
    output: 'disputeView',
    errors: ['DISPUTE_NOT_FOUND', 'ENVIRONMENT_MISMATCH'],
    run: ({ services, auth, params }) => services.disputes.get(auth, params.id!),
    present: presentDispute,
  }),
  op({
    name: 'respondToDispute',
    summary: 'Respond to a dispute',
    description:
      'The respondent (the organization that received the payment; an agent key: of the receiving wallet) answers an OPEN dispute: OPEN -> RESPONDED; the operator then decides. The initiator gets PERMISSION_DENIED. Not OPEN, or at or after `respondBy` (the dispute then resolves RESOLVED_AGENT): INVALID_STATE.',
    access: 'key',
    permission: 'payments:write',
    audit: AUDIT.dispute.respond,
    events: ['dispute.responded'],
    http: { method: 'POST', path: '/v1/disputes/{id}/respond', status: 200 },
    params: disputeParam,
    mcp: { tool: 'respond_to_dispute', hints: HINTS.update },
    body: () =>
      z.strictObject({
        response: text(MAX_DISPUTE_RESPONSE, `Your explanation (1-${MAX_DISPUTE_RESPONSE} characters).`, {
          min: 1,
          multiline: true,
        }),
        evidenceUrl: z.optional(evidenceUrl()),
      }),
    output: 'disputeView',
    errors: ['DISPUTE_NOT_FOUND', 'PERMISSION_DENIED', 'INVALID_STATE', 'ENVIRONMENT_MISMATCH'],
    run: ({ services, auth, audit, params, body }) =>
      services.disputes.respond(auth, audit, params.id!, { response: body.response, evidenceUrl: body.evidenceUrl }),
    present: presentDispute,
  }),
  op({
    name: 'resolveDispute',
    summary: 'Resolve a dispute (operator)',
    description:
      "The service operator's decision on an OPEN or RESPONDED dispute (also past `respondBy`): RESOLVED_AGENT pays the held amount to the initiator's paying wallet; RESOLVED_MERCHANT and CLOSED return it to the receiving wallet (a closed wallet: its organization's main wallet). Otherwise INVALID_STATE.",
    access: 'operator',
    permission: 'service:admin',
    audit: AUDIT.dispute.resolve,
    events: ['dispute.resolved'],
    http: { method: 'POST', path: '/v1/disputes/{id}/resolve', status: 200 },
    params: disputeParam,
    body: () =>
      z.strictObject({
        outcome: describe(
          z.enum(DISPUTE_OUTCOMES),
          'RESOLVED_AGENT (the initiator wins), RESOLVED_MERCHANT or CLOSED.',
        ),
        note: z.optional(
          text(MAX_RESOLUTION_NOTE, `Why (at most ${MAX_RESOLUTION_NOTE} characters); both parties see it.`, {
            multiline: true,
          }),
        ),
      }),
    output: 'disputeView',
    errors: ['DISPUTE_NOT_FOUND', 'INVALID_STATE'],
    run: ({ services, auth, audit, params, body }) =>
      services.disputes.resolve(auth, audit, params.id!, { outcome: body.outcome, note: body.note }),
    present: presentDispute,
  }),
]);
