import type { AuditChange } from '../audit/ports.js';
import type { ChangeCommitter } from '../change-committer.js';
import type { IdempotencyChange, IdempotencyStore } from '../idempotency/ports.js';
import type { PostingChange } from '../ledger/posting.js';
import type { Environment, OrganizationScope } from '../tenancy.js';
import type { Page, PageRequest } from '../types.js';
import type { WalletReader, WalletSnapshotReader } from '../wallets/ports.js';
import type { AuthorizationTrigger, CardTrigger } from './card-states.js';
import type { CardSpendCount } from './card-rules.js';
import type { Authorization, Card, CardDetails, CardSecrets, Cardholder, IntervalKey } from './types.js';

/**
 * The issuer port (decisions.md section 5, docs/api.md "Cards: the issuer port"). The sandbox
 * issuer (sandbox-issuer.ts) makes the number and CVC itself and keeps them sealed on the card; a
 * production issuer asks the issuing processor to create the card, keeps only its reference
 * (`secrets` absent) and fetches the details from the processor on each read, storing neither.
 */
export interface CardIssuer {
  /** Creates the card at the issuer: what the card record keeps (never the number or CVC in clear). */
  issue(card: { id: string; environment: Environment; issuedAt: Date }): Promise<IssuedCard>;
  /** The sensitive details of an issued card, for one answer only (never stored, logged or sent elsewhere). */
  details(card: Pick<Card, 'id' | 'expMonth' | 'expYear' | 'secrets'>): Promise<CardDetails>;
}

export interface IssuedCard {
  brand: 'visa';
  last4: string;
  expMonth: number;
  expYear: number;
  secrets?: CardSecrets;
}

export type CardChange =
  | { type: 'putCardholder'; cardholder: Cardholder }
  | { type: 'putCard'; card: Card }
  /**
   * A change of status (by the state table's trigger) and/or spending limits, conditioned on the
   * version read (CONCURRENT_UPDATE otherwise) and the trigger's `from` states (INVALID_STATE);
   * increments the version.
   */
  | {
      type: 'updateCard';
      cardId: string;
      expectedVersion: number;
      trigger?: CardTrigger;
      set: Partial<Pick<Card, 'spendingLimits' | 'cancelledAt' | 'updatedAt'>>;
    }
  /**
   * An approved authorization's spend on the card: ACTIVE, same version, every limited interval
   * within its limit; for a single-use card, `usedBy` (the authorization) set only if unset.
   */
  | { type: 'countCardSpend'; spend: CardSpendCount; usedBy?: string }
  /**
   * What a capture or reversal changes on the card, in one write of its item: spend given back (a
   * reversal, the uncaptured rest of a capture) to the counters it was added to, and for a
   * single-use card its end (CANCELLED whatever it was: repeating it changes nothing), or, when its
   * authorization is reversed, its `usedBy` removed (`free`: that authorization) so it may be used again.
   */
  | {
      type: 'settleCard';
      cardId: string;
      release?: { amount: string; keys: IntervalKey[] };
      closeAt?: string;
      free?: string;
    }
  | { type: 'putAuthorization'; authorization: Authorization }
  /** APPROVED -> CAPTURED | REVERSED, once; off the expiry index (GSI4) in the same write. */
  | {
      type: 'transitionAuthorization';
      authorizationId: string;
      trigger: AuthorizationTrigger;
      set: Partial<
        Pick<Authorization, 'capturedAmount' | 'captureTransactionId' | 'capturedAt' | 'reversedAt' | 'expiredAt'>
      >;
    }
  /** A refund of a CAPTURED authorization: never more in all than was captured. */
  /** The expiry could not reverse it (not a race): the sweep looks at it again at `retryAt` instead of first in every batch. */
  | { type: 'deferAuthorizationExpiry'; authorizationId: string; retryAt: string }
  | { type: 'refundAuthorization'; authorizationId: string; amount: string; capturedAmount: string };

export interface CardFilter {
  walletId?: string | undefined;
}

export interface CardStore
  extends
    WalletReader,
    WalletSnapshotReader,
    Omit<IdempotencyStore, 'commit'>,
    ChangeCommitter<CardChange | PostingChange | IdempotencyChange | AuditChange> {
  getCard(cardId: string): Promise<Card | undefined>;
  listCards(scope: OrganizationScope, filter: CardFilter, page: PageRequest): Promise<Page<Card>>;
  getCardholder(cardholderId: string): Promise<Cardholder | undefined>;
  listCardholders(scope: OrganizationScope, page: PageRequest): Promise<Page<Cardholder>>;
  getAuthorization(authorizationId: string): Promise<Authorization | undefined>;
  listAuthorizations(cardId: string, page: PageRequest): Promise<Page<Authorization>>;
  /** APPROVED authorizations whose `expiresAt` is before `now`, oldest first, at most `limit` (the index is eventually consistent: read the record before acting). */
  listDueAuthorizations(now: Date, limit: number): Promise<Authorization[]>;
}
