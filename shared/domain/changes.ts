import type { ApiKeyChange } from './api-keys/ports.js';
import type { ApprovalChange } from './approvals/ports.js';
import type { AuditChange } from './audit/ports.js';
import type { BankAccountChange } from './bank-accounts/ports.js';
import type { CardChange } from './cards/ports.js';
import type { IdempotencyChange } from './idempotency/ports.js';
import type { PostingChange } from './ledger/posting.js';
import type { MerchantChange } from './merchants/ports.js';
import type { OrganizationChange } from './organizations/ports.js';
import type { PaymentChange } from './payments/ports.js';
import type { PolicyChange } from './policies/ports.js';
import type { TransferChange } from './transfers/ports.js';
import type { WalletChange } from './wallets/ports.js';
import type { WebhookChange } from './webhooks/ports.js';

export type { OrganizationUpdate } from './organizations/ports.js';

/**
 * What a service decided to write, as data: the union of every area's changes (each declared in
 * the area's ports.ts). The store writes one list of changes in ONE DynamoDB transaction with
 * each change's condition; a failed condition becomes the ApiError the persistence layer maps
 * for that change kind. shared/persistence has exactly one writer per change type (checked by
 * the compiler).
 */
export type Change =
  | OrganizationChange
  | WalletChange
  | ApiKeyChange
  | PostingChange
  | PaymentChange
  | IdempotencyChange
  | PolicyChange
  | ApprovalChange
  | MerchantChange
  | WebhookChange
  | BankAccountChange
  | AuditChange
  | TransferChange
  | CardChange;

/**
 * The one write path of every store: all the changes in one transaction, or none. `C` is the
 * change types the area writes, so its store registers exactly their writers (and bundles no
 * other area's).
 */
export interface ChangeCommitter<C extends Change = Change> {
  // A property, not a method: parameters are then checked strictly, so a store whose writers miss
  // one of its port's change types does not compile.
  commit: (changes: C[]) => Promise<void>;
}
