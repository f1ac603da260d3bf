import type { GsiName } from '../table-schema.js';
import * as entities from './index.js';

type Entities = typeof entities;
type IndexDeclarations = Extract<keyof Entities, `${string}_INDEXES`>;
/** The entity types that use an index (each declared by its entity module's `<ENTITY>_INDEXES`). */
export type IndexedEntityType = { [K in IndexDeclarations]: keyof Entities[K] }[IndexDeclarations];

/**
 * Which entity uses which index, and for what: every entity module's `<ENTITY>_INDEXES`, joined
 * (read by the table-schema tests and docs; the entity modules are listed once, in index.ts).
 */
export const INDEX_USAGE = Object.assign(
  {},
  ...Object.entries(entities)
    .filter(([name]) => name.endsWith('_INDEXES'))
    .map(([, usage]) => usage),
) as Record<IndexedEntityType, Partial<Record<GsiName, string>>>;

/**
 * Wallet index partitions keyed by the wallet alone, and why that is right: a journal record is
 * in the partitions of the wallets whose money it moved (statements, a wallet's payments), and a
 * payment between organizations is on both wallets' statements (decisions.md section 3: the payee
 * sees the payment; its presenters never show the payer's idempotency key).
 */
export const WALLET_INDEXES_SHARED_ACROSS_ORGANIZATIONS: Partial<Record<IndexedEntityType, readonly GsiName[]>> = {
  TRANSACTION: ['GSI2', 'GSI3'],
};
