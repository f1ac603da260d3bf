/**
 * State tables as data: an entity with states declares each transition once, keyed by its
 * trigger (`from` states -> `to` state), in its own area (`<area>/<entity>-states.ts`). Services
 * check transitions against it and the store derives the conditions of its writes from it, so
 * the rule and the condition that enforces it at commit can not drift apart.
 */
export type StateTable<State extends string, Trigger extends string> = {
  readonly [T in Trigger]: { readonly from: readonly State[]; readonly to: State };
};

type AnyTable = StateTable<string, string>;

/** Every trigger of a table has its transition (the table is keyed by its triggers). */
const transitionOf = <Table extends AnyTable, Trigger extends keyof Table>(table: Table, trigger: Trigger) =>
  table[trigger] as Table[Trigger];

/** Every state a table names. */
export type StateOf<Table extends AnyTable> = Table[keyof Table]['from'][number] | Table[keyof Table]['to'];

/** The states a trigger may fire from (the condition of the write that performs it). */
export function fromStatesOf<Table extends AnyTable, Trigger extends keyof Table>(
  table: Table,
  trigger: Trigger,
): Table[Trigger]['from'] {
  return transitionOf(table, trigger).from;
}

/** The state a trigger leads to. */
export function targetOf<Table extends AnyTable, Trigger extends keyof Table>(
  table: Table,
  trigger: Trigger,
): Table[Trigger]['to'] {
  return transitionOf(table, trigger).to;
}

export function canTransition<Table extends AnyTable>(
  table: Table,
  state: StateOf<Table>,
  trigger: keyof Table,
): boolean {
  return transitionOf(table, trigger).from.includes(state);
}

/** States some trigger leaves from: every state but the terminal ones. */
export function nonTerminalStatesOf<Table extends AnyTable>(table: Table): Table[keyof Table]['from'][number][] {
  return [...new Set(Object.values(table).flatMap((transition) => transition.from))];
}

/** States no trigger leaves: where an entity's life ends (in the order the table first names them). */
export function terminalStatesOf<Table extends AnyTable>(
  table: Table,
): Exclude<StateOf<Table>, Table[keyof Table]['from'][number]>[] {
  const leaving = new Set<string>(nonTerminalStatesOf(table));
  return [...new Set(Object.values(table).map((transition) => transition.to))].filter(
    (state) => !leaving.has(state),
  ) as Exclude<StateOf<Table>, Table[keyof Table]['from'][number]>[];
}
