import type * as z from 'zod/mini';

/**
 * How an area declares its events (in its own `<area>-events.ts`; docs/architecture.md "Events").
 * Two declarations per area, each keyed by the event names, so that a function bundle that needs
 * only the names and the wallets never carries a payload view:
 * - `<AREA>_EVENTS`: for each event its payload (a public view: an event never carries an internal
 *   record) and when it is committed; read by `eventChange`'s types, OpenAPI and docs/api.md only
 *   (shared/domain/event-payloads.ts);
 * - `<AREA>_EVENT_WALLETS`: for each event the wallets it concerns, a function of its payload; read
 *   at run time (shared/domain/event-names.ts). The compiler asks for one function per declared
 *   event, and for nothing else.
 */
export interface EventDeclaration {
  /** The schema of `data` (a lazy public view). */
  readonly payload: z.ZodMiniType;
  /** When it is committed: one sentence, shown in the OpenAPI `webhooks` and the events table of docs/api.md. */
  readonly occasion: string;
}

export type EventDeclarations = Readonly<Record<string, EventDeclaration>>;

/**
 * The wallets an event concerns, read from its payload: a wallet-scoped (agent) key sees the event
 * when its wallet is one of them. Values that are not wallet ids (`acc_...`, absent fields) are
 * dropped where the lists are read (shared/domain/events/event-scope.ts).
 */
export type WalletsOfPayload<P> = (data: P) => readonly (string | null | undefined)[];

/** One wallets function per event of `D`, typed by that event's payload. */
export type EventWallets<D extends EventDeclarations> = { readonly [N in keyof D]: WalletsOfPayload<z.output<D[N]['payload']>> };

/** For an event that concerns no wallet (an organization's or a webhook's): only organization-wide keys see it. */
export const noWallet = (): readonly string[] => [];
