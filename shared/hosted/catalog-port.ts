import { ApiError, ERROR_CODES, type ErrorCode, type ErrorDetails } from '../domain/errors.js';
import type { Principal, RequestContext } from '../domain/tenancy.js';
import { parseWith } from '../edge/parse.js';
import type { Cursors, Operation } from '../operations/define.js';
import { invoke } from '../operations/invoke.js';
import { pathParameterNames } from '../operations/paths.js';
import { HOSTED_ROUTES, type HostedOperations } from './port.js';

/** The operations the pages may call and what they run on (the groups' services). */
export interface HostedCatalog {
  operations: readonly Operation[];
  services(): unknown;
  cursors(): Promise<Cursors>;
}

/** Who calls: nobody signed in (public operations), known by the request's IP. */
export interface PageCaller {
  requestId: string;
  ipAddress: string;
}

/** The caller of a public operation: no key, no organization (as the HTTP edge's public routes). */
const ANONYMOUS: Principal = {
  kind: 'ORGANIZATION',
  keyId: 'anonymous',
  organizationId: null,
  environment: null,
  permissions: [],
  walletId: null,
};

/** `GET /v1/x/{id}/y` -> `GET /v1/x/{}/y`: operations are matched by method and path shape, whatever a parameter is called. */
const shapeOf = (op: Operation) => `${op.http.method} ${op.http.path.replace(/\{[^}]+\}/g, '{}')}`;

/**
 * Finds the pages' operations in `operations` (public ones only: the pages never call anything a
 * key would be needed for) and calls them through `invoke`, validating the input with the
 * operation's own schema as the HTTP edge does. An operation missing from the catalog answers as an
 * unknown link, except USDC, whose absence hides the USDC section.
 */
export function hostedOperationsOf(catalog: HostedCatalog, caller: PageCaller): HostedOperations {
  const byShape = new Map(catalog.operations.filter((op) => op.access === 'public').map((op) => [shapeOf(op), op]));
  const context: RequestContext = {
    principal: ANONYMOUS,
    actor: { actorType: 'SYSTEM', actorId: ANONYMOUS.keyId, ipAddress: caller.ipAddress },
    requestId: caller.requestId,
  };

  const call = async <T>(
    route: string,
    id: string,
    body?: Record<string, unknown>,
    idempotencyKey?: string,
  ): Promise<T> => {
    const op = byShape.get(route);
    if (!op) throw new ApiError('NOT_FOUND', 'No such page.');
    const [param] = pathParameterNames(op.http.path);
    const result = await invoke(op, {
      services: catalog.services(),
      auth: context,
      body: op.body ? parseWith(op.body, body ?? {}, '') : undefined,
      query: {},
      params: param ? { [param]: id } : {},
      idempotencyKeyHeader: idempotencyKey,
      cursors: catalog.cursors,
    });
    const refused = refusalIn(result.body);
    if (refused) throw refused;
    return result.body as T;
  };

  return {
    paymentMethodSession: (token) => call(HOSTED_ROUTES.paymentMethodSession, token),
    completePaymentMethodSession: (token, input) => call(HOSTED_ROUTES.completePaymentMethodSession, token, input),
    payableInvoice: (slug) => call(HOSTED_ROUTES.payableInvoice, slug),
    payInvoice: (slug, input) => call(HOSTED_ROUTES.payInvoice, slug, input),
    usdcPayment: byShape.has(HOSTED_ROUTES.usdcPayment) ? (slug) => call(HOSTED_ROUTES.usdcPayment, slug) : undefined,
    paymentLinkClaim: (slug) => call(HOSTED_ROUTES.paymentLinkClaim, slug),
    claimPaymentLink: (slug, input, key) => call(HOSTED_ROUTES.claimPaymentLink, slug, input, key),
  };
}

/**
 * An idempotent operation answers a refusal it stores (errors.ts `storedOnRefusal`: WALLET_NOT_FOUND,
 * SELF_PAYMENT, ...) as a response with the error envelope, first and on replay, where the HTTP
 * edge sends its status: the pages get it back as the ApiError it was.
 */
export function refusalIn(body: unknown): ApiError | undefined {
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  const error = body.error as { code?: unknown; message?: unknown; details?: unknown } | null;
  if (typeof error?.code !== 'string' || !(ERROR_CODES as readonly string[]).includes(error.code)) return undefined;
  const details = typeof error.details === 'object' && error.details !== null ? error.details : undefined;
  return new ApiError(
    error.code as ErrorCode,
    typeof error.message === 'string' ? error.message : undefined,
    details as ErrorDetails | undefined,
  );
}
