import { ApiError } from '../domain/errors.js';
import type { RequestContext } from '../domain/tenancy.js';
import { parseWith } from '../edge/parse.js';
import { authorize } from '../operations/authorize.js';
import type { Cursors, Operation } from '../operations/define.js';
import { invoke } from '../operations/invoke.js';
import { pathParameterNames } from '../operations/paths.js';
import { refusalIn } from '../hosted/catalog-port.js';
import type { CallInput } from './context.js';

/** The operations the dashboard calls and what they run on (every group's services, built on first use). */
export interface DashboardCatalog {
  operations: readonly Operation[];
  services(): unknown;
  cursors(): Promise<Cursors>;
}

/** Ids are short tokens, as the HTTP edge requires of path parameters. */
const PATH_PARAMETER = /^[A-Za-z0-9_.-]{1,253}$/;

/**
 * `call(name, input)` of a page: the catalog operation of that name, run as the signed-in user
 * through `invoke`, in the HTTP edge's order (the role's permission first, then the input checked
 * by the operation's own schemas, then the operation). Resolves with the body the HTTP edge would
 * send; rejects with the ApiError, a stored refusal of an idempotent operation included.
 */
export function catalogCaller(catalog: DashboardCatalog, context: RequestContext) {
  const byName = new Map(catalog.operations.map((op) => [op.name, op]));
  return async <T>(name: string, input: CallInput = {}): Promise<T> => {
    const op = byName.get(name);
    if (!op) throw new Error(`no catalog operation named ${name}`);
    authorize(op, context.principal);
    const names = pathParameterNames(op.http.path);
    const params: Record<string, string> = {};
    for (const param of names) {
      const value = input.params?.[param];
      if (value === undefined || !PATH_PARAMETER.test(value)) throw new ApiError('NOT_FOUND', 'No such resource.');
      params[param] = value;
    }
    const body = op.body ? parseWith(op.body, input.body ?? {}, '') : undefined;
    const query = op.query ? parseWith(op.query, withoutUndefined(input.query ?? {}), '') : {};
    const result = await invoke(op, {
      services: catalog.services(),
      auth: context,
      body,
      query,
      params,
      idempotencyKeyHeader: input.idempotencyKey,
      cursors: catalog.cursors,
    });
    const refused = refusalIn(result.body);
    if (refused) throw refused;
    return result.body as T;
  };
}

const withoutUndefined = (query: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined));
