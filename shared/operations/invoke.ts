import { resolveIdempotencyKey } from '../domain/idempotency/idempotency.js';
import type { RequestContext } from '../domain/tenancy.js';
import { authorize } from './authorize.js';
import { isIdempotentResponse, type Cursors, type Operation } from './define.js';

/** What an operation answered, before an edge shapes it (HTTP response, MCP tool result). */
export interface OperationResult {
  status: number;
  body: unknown;
  /** A stored idempotent answer given again. */
  replayed: boolean;
}

export interface InvokeRequest<Services> {
  services: Services;
  auth: RequestContext;
  /** Validated by the edge against the operation's schemas. */
  body: unknown;
  query: unknown;
  params: Record<string, string>;
  /** The Idempotency-Key header (HTTP) if any. */
  idempotencyKeyHeader?: string | undefined;
  cursors(): Promise<Cursors>;
}

/**
 * Runs one catalog operation for an authenticated caller: the same path for every edge. The
 * access rules are checked here (again, if the edge checked them first to keep its order of
 * errors), the audit action comes from the catalog, and the presenter shapes the result.
 */
export async function invoke<Services>(
  op: Operation<Services>,
  request: InvokeRequest<Services>,
): Promise<OperationResult> {
  if (op.access !== 'public') authorize(op, request.auth.principal);
  const body = request.body as { idempotencyKey?: string } | undefined;
  const idempotencyKey = op.idempotency
    ? resolveIdempotencyKey(body?.idempotencyKey, request.idempotencyKeyHeader)
    : undefined;
  const result = await op.run({
    services: request.services,
    auth: request.auth,
    body: request.body,
    query: request.query,
    params: request.params,
    idempotencyKey,
    cursors: request.cursors,
    operation: op.name,
    audit: op.audit,
  });
  if (op.idempotency && isIdempotentResponse(result))
    return { status: result.status, body: result.body, replayed: result.replayed };
  return { status: op.http.status, body: op.present ? op.present(result) : result, replayed: false };
}
