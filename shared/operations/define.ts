import * as z from 'zod/mini';
import type { AuditAction } from '../domain/audit/actions.js';
import type { ErrorCode } from '../domain/errors.js';
import type { ViewName } from '../domain/view-registry.js';
import { lazy } from '../domain/validation.js';
import type { EventName } from '../domain/event-names.js';
import type { IdempotentResponse } from '../domain/idempotency/idempotency.js';
import type { Permission, RequestContext } from '../domain/tenancy.js';
import type { Grant } from '../grants.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call: `key` needs an organization or agent key holding `permission`; `organization`
 * additionally refuses wallet-scoped (agent) keys; `operator` needs a `svc_admin_` key;
 * `public` needs no key (rate limited per client IP).
 */
export type Access = 'key' | 'organization' | 'operator' | 'public';

/** MCP tool annotations (a model reads them to decide whether a call is safe to repeat). */
export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** Signed, query-bound cursors (shared/operations/pagination.ts implements them). */
export interface Cursors {
  encode(lastKey: Record<string, unknown>, binding: string): string;
  decode(cursor: string, binding: string): Record<string, unknown>;
}

/** What an edge (HTTP or MCP) hands an operation after authentication and validation. */
export interface OperationInput<
  Services,
  Body,
  Query,
  Audit extends AuditAction | undefined = AuditAction | undefined,
> {
  services: Services;
  /** The caller (authenticated by the edge). */
  auth: RequestContext;
  body: Body;
  query: Query;
  params: Record<string, string>;
  /** Resolved from the body field or the Idempotency-Key header (operations with `idempotency`). */
  idempotencyKey: string | undefined;
  cursors(): Promise<Cursors>;
  operation: string;
  /**
   * The operation's declared `audit` action, passed on by `invoke`: the service writes this one
   * and does not name it (an operation declaring `audit` sees an AuditAction here, never undefined).
   */
  audit: Audit;
}

type AnySchema = z.ZodMiniType;

/** One entry of the catalog: everything the three edges (HTTP, MCP, OpenAPI) need to know. */
export interface OperationSpec<
  Services = never,
  Body = unknown,
  Query = unknown,
  Result = unknown,
  Audit extends AuditAction | undefined = AuditAction | undefined,
> {
  /** Unique operation id (also the OpenAPI operationId). */
  name: string;
  summary: string;
  /** For people and for models: what the operation does, when to use it, what it changes. */
  description: string;
  access: Access;
  permission?: Permission;
  /** The one audit entry a successful call writes (mutating operations only); `run` gets it as `audit`. */
  audit?: Audit;
  /** Events a successful call may emit. */
  events?: readonly EventName[];
  /**
   * `key`: accepts `idempotencyKey` (body) or the `Idempotency-Key` header, and `run` answers an
   * IdempotentResponse (replays carry `Idempotent-Replayed: true`).
   */
  idempotency?: 'key';
  /** Live keys get SANDBOX_ONLY before the body is validated. */
  sandboxOnly?: boolean;
  http: { method: HttpMethod; path: string; status: 200 | 201 | 202 };
  /** Path parameters with their descriptions (`{id}` in the path). */
  params?: Readonly<Record<string, string>>;
  /** Absent: not offered as an MCP tool (operator and public operations). */
  mcp?: { tool: string; hints: ToolHints };
  body?: AnySchema;
  query?: AnySchema;
  /**
   * The response body of a success (also the MCP tool's output schema): the name of a view
   * (`shared/domain/view-registry.ts`). A name, not the schema, so that function bundles carry no
   * response documentation; OpenAPI and MCP resolve it with `viewOf`.
   */
  output: ViewName;
  /** Error codes a client can get from this operation beyond the common ones. */
  errors: readonly ErrorCode[];
  run(input: OperationInput<Services, Body, Query, Audit>): Promise<Result>;
  /** Wire shape of the result (the presenter); identity when absent. */
  present?: (result: Result) => unknown;
}

/** An operation with its types erased, as the edges hold them. */
export type Operation<Services = any> = OperationSpec<Services, any, any, any>;

/**
 * Declares an operation so that `run` and `present` see the types inferred from the schemas.
 * `body` and `query` are given as functions building the schema: a function group builds the
 * schema of an operation when it first parses a request for it, not every schema of the group at
 * cold start (the edges see an ordinary, lazy, schema).
 */
export function operation<Services>() {
  return <
    BodySchema extends AnySchema = z.ZodMiniUndefined,
    QuerySchema extends AnySchema = z.ZodMiniUndefined,
    Result = unknown,
    Audit extends AuditAction | undefined = undefined,
  >(
    spec: Omit<
      OperationSpec<Services, z.output<BodySchema>, z.output<QuerySchema>, Result, Audit>,
      'body' | 'query'
    > & { body?: () => BodySchema; query?: () => QuerySchema },
  ): Operation<Services> => {
    const { body, query, ...rest } = spec;
    return {
      ...rest,
      ...(body ? { body: lazy(body) } : {}),
      ...(query ? { query: lazy(query) } : {}),
    } as Operation<Services>;
  };
}

/** What a function group declares besides its operations (read by CDK, the local server and the infra tests). */
export interface GroupOptions {
  /**
   * What the group's function may reach beyond the table every HTTP function has
   * (shared/grants.ts; lib/constructs/grants.ts binds each). The MCP function, which serves the
   * tools of every group, gets the union of the groups that offer tools.
   */
  grants?: readonly Grant[];
  /** Lambda timeout in seconds (default DEFAULT_TIMEOUT_S). */
  timeoutS?: number;
}

/**
 * The operations of one function group (one Lambda) and the services they use. `Group` is the
 * group's name as a literal type: the catalog's list of group modules (shared/operations/index.ts)
 * derives `FunctionGroup` from it.
 */
export interface OperationGroup<Services = unknown, Group extends string = string> extends GroupOptions {
  group: Group;
  operations: readonly Operation<Services>[];
}

/**
 * Declares a function group: `defineGroup<Services>()('wallets', {}, [...operations])` (curried so
 * that `Services` is given and the group's name inferred as a literal).
 */
export function defineGroup<Services>() {
  return <const Group extends string>(
    group: Group,
    options: GroupOptions,
    operations: readonly Operation<Services>[],
  ): OperationGroup<Services, Group> => ({ group, ...options, operations });
}

/** An answer from an idempotent operation (status and body as first stored). */
export function isIdempotentResponse(value: unknown): value is IdempotentResponse {
  return typeof value === 'object' && value !== null && 'replayed' in value && 'status' in value && 'body' in value;
}

/** Hints of the common kinds of operation. */
export const HINTS = {
  read: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  /** Creates something new each call (an idempotency key makes a retry safe). */
  create: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  /** Changes state; repeating it has no further effect. */
  update: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  /** Moves money or removes access; a retry without an idempotency key may repeat it. */
  money: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  destructive: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
} as const satisfies Record<string, ToolHints>;
