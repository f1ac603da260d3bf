import * as z from 'zod/mini';
import type { Page, PageRequest } from '../domain/types.js';
import { pageRequestOf, pageResponse } from './pagination.js';
import { lazy } from '../domain/validation.js';
import type { ViewName } from '../domain/view-registry.js';
import { pageFields } from './fields.js';
import type { OperationInput, OperationSpec } from './define.js';

type Shape = z.core.$ZodLooseShape;

/**
 * A list operation: its filters plus `limit` and `cursor`. The cursor is bound here, once, to the
 * operation, the path, the caller's key and the filter values: a cursor from another list, caller
 * or filter is a VALIDATION_ERROR (decisions.md section 9).
 */
export interface ListSpec<Services, Filters extends Shape, Item> extends Omit<
  OperationSpec<Services>,
  'query' | 'run' | 'present' | 'output'
> {
  /** The filter fields, built on first use (see `operation`). */
  filters: () => Filters;
  output: ViewName;
  list(
    input: OperationInput<Services, undefined, z.output<z.ZodMiniObject<Filters>>>,
    page: PageRequest,
  ): Promise<Page<Item>>;
  present(item: Item): unknown;
  /**
   * `standard-and-next-cursor`: the standard page plus the deprecated `nextCursor` (the cursor again,
   * absent on the last page) of interface-spec 4.10's audit log, kept for the clients that read it
   * (docs/api.md, Audit logs).
   */
  pageShape?: 'standard' | 'standard-and-next-cursor';
}

export function listOperation<Services>() {
  return <Filters extends Shape, Item>(spec: ListSpec<Services, Filters, Item>): OperationSpec<Services> =>
    listSpec(spec);
}

function listSpec<Services, Filters extends Shape, Item>(
  spec: ListSpec<Services, Filters, Item>,
): OperationSpec<Services> {
  const { filters, list, present, pageShape = 'standard', ...rest } = spec;
  let filterNames: readonly string[] | undefined;
  const filterNamesOf = () => (filterNames ??= Object.keys(filters()));
  return {
    ...rest,
    query: lazy(() => z.strictObject({ ...filters(), ...pageFields() })),
    async run(input) {
      const query = input.query as Record<string, string | undefined>;
      const cursors = await input.cursors();
      const binding = bindingOf(
        input.operation,
        input.auth.principal.keyId,
        input.params,
        Object.fromEntries(filterNamesOf().map((f) => [f, query[f] ?? null])),
      );
      const page = await list(input as never, pageRequestOf(cursors, query, binding));
      const response = pageResponse(cursors, page, binding, present);
      return pageShape === 'standard-and-next-cursor' && response.cursor
        ? { ...response, nextCursor: response.cursor }
        : response;
    },
  };
}

function bindingOf(
  operation: string,
  keyId: string,
  params: Record<string, string>,
  filters: Record<string, unknown>,
): string {
  return JSON.stringify([operation, keyId, params, filters]);
}
