import type * as z from 'zod/mini';

/**
 * How an area declares its events (in its own `<area>-events.ts`; docs/architecture.md "Events"):
 * one object keyed by the event names, joined in the one list of shared/domain/event-names.ts. Per
 * event:
 * - `payload`: the NAME of its public view (an export of the area's view module, registered in
 *   shared/domain/view-registry.ts; an event never carries an internal record). A name, not the
 *   schema, so that a function bundle reading the event names carries no view: OpenAPI and
 *   docs/api.md resolve it with `viewOf(name)`, the compiler reads its type through a type-only import;
 * - `occasion`: when it is committed, one sentence (the OpenAPI `webhooks`, the events table of docs/api.md);
 * - `wallets`: the wallets it concerns, a function of its payload (the compiler refuses one that
 *   reads a field the payload lacks).
 */
export interface EventDeclaration<P extends string = string, D = never> {
  readonly payload: P;
  readonly occasion: string;
  readonly wallets: WalletsOfPayload<D>;
}

/**
 * The wallets an event concerns, read from its payload: a wallet-scoped (agent) key sees the event
 * when its wallet is one of them. Values that are not wallet ids (`acc_...`, absent fields) are
 * dropped where the lists are read (shared/domain/events/event-scope.ts).
 */
export type WalletsOfPayload<P> = (data: P) => readonly (string | null | undefined)[];

/** The names of the views a view module exports (its zod schemas). */
type ViewNamesOf<M> = Extract<{ [K in keyof M]: M[K] extends z.ZodMiniType ? K : never }[keyof M], string>;

/**
 * An area's events, checked against its view module `M` (`eventsOf<typeof import('./card-view.js')>()({...})`,
 * a type-only import): each `payload` names a view of `M`, each `wallets` function accepts that
 * view's output. The answer types each `wallets` by the whole payload, which is where
 * `EventData` (shared/domain/event-names.ts) reads an event's payload type.
 */
export const eventsOf =
  <M>() =>
  <const D extends Readonly<Record<string, ViewNamesOf<M>>>>(declarations: {
    readonly [N in keyof D]: EventDeclaration<D[N], z.output<M[D[N]] & z.ZodMiniType>>;
  }): { readonly [N in keyof D]: EventDeclaration<D[N], z.output<M[D[N]] & z.ZodMiniType>> } =>
    declarations;

/** For an event that concerns no wallet (an organization's or a webhook's): only organization-wide keys see it. */
export const noWallet = (): readonly string[] => [];
