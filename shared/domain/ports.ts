import type { Clock } from './clock.js';
import type { IdGenerator } from './ids.js';
import type { Permission } from './tenancy.js';

/**
 * What every service gets besides its own store. Each area declares the narrow store it needs in
 * `<area>/ports.ts`; shared/persistence implements it in `<area>-store.ts`.
 */
export interface CoreDeps {
  clock: Clock;
  ids: IdGenerator;
  issueKey: KeyIssuer;
  limits: { walletsPerEnvironment: number; sandboxFundingMax: string };
  /** Sandbox durations are divided by it (approval expiry, settlement waits). */
  timeScale: number;
}

/** The deps of one area's service: the core deps and that area's store. */
export type ServiceDeps<Store> = CoreDeps & { store: Store };

/** A newly issued API key: the raw value goes to the caller once, only the hash is stored. */
export interface IssuedKey {
  raw: string;
  hash: string;
  prefix: string;
  last4: string;
}

export type KeyKind = 'SANDBOX' | 'PRODUCTION' | 'OPERATOR';
export type KeyIssuer = (kind: KeyKind) => IssuedKey;

export type { Permission };
