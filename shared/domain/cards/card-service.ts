import { assertAccessible, scopeOf } from '../access.js';
import { AUDIT, type AuditAction } from '../audit/actions.js';
import { auditChange, eventChange } from '../audit/audit.js';
import type { AuditChange } from '../audit/ports.js';
import { ApiError, notFound, validationError } from '../errors.js';
import type { ServiceDeps } from '../ports.js';
import { canTransition } from '../state-table.js';
import type { RequestContext } from '../tenancy.js';
import type { Page, PageRequest } from '../types.js';
import { accessibleCard, accessibleCardholder } from './access.js';
import type { AuthorizationEngine } from './authorization-engine.js';
import { normalizeSpendingLimits } from './card-rules.js';
import { CARD_STATES, type CardTrigger } from './card-states.js';
import { presentCard, presentCardDetails, type CardDetailsView } from './card-view.js';
import type { CardFilter, CardIssuer, CardStore } from './ports.js';
import type { Authorization, BillingAddress, Card, Cardholder, CardType, SpendingInterval } from './types.js';

export interface SpendingLimitInput {
  amount: string;
  interval: SpendingInterval;
  categories?: string[] | undefined;
}

export interface CardInput {
  walletId: string;
  type: CardType;
  spendingLimits?: SpendingLimitInput[] | undefined;
  cardholderId?: string | undefined;
}

export interface CardholderInput {
  name: string;
  email?: string | undefined;
  phone?: string | undefined;
  billingAddress: Omit<BillingAddress, 'line2'> & { line2?: string | undefined };
}

export interface CardUpdate {
  status?: 'ACTIVE' | 'INACTIVE' | undefined;
  spendingLimits?: SpendingLimitInput[] | undefined;
}

export interface CardServiceOptions {
  /** The issuer of each environment (the sandbox issuer; production's processor, or one that refuses). */
  issuers: Record<'SANDBOX' | 'PRODUCTION', CardIssuer>;
  /**
   * The authorization engine (`createAuthorizationEngine` of authorization-engine.ts over the same
   * deps), passed in so that a function that never authorizes (the MCP tools) need not bundle it.
   */
  engine: AuthorizationEngine;
}

const CARD_RESOURCE = 'card';

/**
 * Cards and cardholders (interface-spec 4.6, decisions.md section 5), and the authorization engine
 * (authorization-engine.ts) that the card network and the sandbox test helpers share. Every change
 * is one transaction with its event and audit entry; the number and CVC exist only sealed (sandbox
 * issuer) and leave only through `details`, whose every read is audited.
 */
export function createCardService(deps: ServiceDeps<CardStore>, options: CardServiceOptions) {
  const { store, clock, ids } = deps;
  const { engine } = options;

  const loadCard = async (ctx: RequestContext, cardId: string) =>
    accessibleCard(ctx, await store.getCard(cardId), cardId);

  const auditOf = (
    ctx: RequestContext,
    card: Card,
    action: AuditAction,
    at: string,
    metadata: Record<string, unknown> = {},
  ): AuditChange =>
    auditChange(
      {
        organizationId: card.organizationId,
        environment: card.environment,
        actor: ctx.actor,
        action,
        resource: CARD_RESOURCE,
        resourceId: card.id,
        walletId: card.walletId,
        metadata: { type: card.type, status: card.status, last4: card.last4, ...metadata },
        createdAt: at,
      },
      ids,
    );

  const cardEvent = (card: Card, type: 'card.created' | 'card.updated' | 'card.cancelled', at: string) =>
    eventChange(
      {
        organizationId: card.organizationId,
        environment: card.environment,
        type,
        data: presentCard(card),
        createdAt: at,
      },
      ids,
    );

  // ---- Cardholders ------------------------------------------------------------------------------

  async function createCardholder(
    ctx: RequestContext,
    action: AuditAction,
    input: CardholderInput,
  ): Promise<Cardholder> {
    const scope = scopeOf(ctx.principal);
    const at = clock.now().toISOString();
    const { line2, ...address } = input.billingAddress;
    const cardholder: Cardholder = {
      id: ids('cardholder'),
      ...scope,
      name: input.name,
      ...(input.email !== undefined ? { email: input.email } : {}),
      ...(input.phone !== undefined ? { phone: input.phone } : {}),
      billingAddress: { ...address, country: address.country.toUpperCase(), ...(line2 !== undefined ? { line2 } : {}) },
      createdAt: at,
    };
    await store.commit([
      { type: 'putCardholder', cardholder },
      auditChange(
        {
          ...scope,
          actor: ctx.actor,
          action,
          resource: 'cardholder',
          resourceId: cardholder.id,
          metadata: { country: cardholder.billingAddress.country },
          createdAt: at,
        },
        ids,
      ),
    ]);
    return cardholder;
  }

  async function getCardholder(ctx: RequestContext, cardholderId: string): Promise<Cardholder> {
    return accessibleCardholder(ctx, await store.getCardholder(cardholderId), cardholderId);
  }

  function listCardholders(ctx: RequestContext, page: PageRequest): Promise<Page<Cardholder>> {
    return store.listCardholders(scopeOf(ctx.principal), page);
  }

  // ---- Cards ------------------------------------------------------------------------------------

  async function create(ctx: RequestContext, action: AuditAction, input: CardInput): Promise<Card> {
    const scope = scopeOf(ctx.principal);
    const wallet = assertAccessible(ctx.principal, await store.getWallet(input.walletId), input.walletId);
    if (wallet.deletedAt) throw notFound('WALLET_NOT_FOUND', input.walletId);
    if (input.cardholderId !== undefined)
      accessibleCardholder(ctx, await store.getCardholder(input.cardholderId), input.cardholderId, 'cardholderId');
    const spendingLimits = normalizeSpendingLimits(input.spendingLimits ?? []);
    const now = clock.now();
    const at = now.toISOString();
    const id = ids('card');
    const issued = await options.issuers[scope.environment].issue({
      id,
      environment: scope.environment,
      issuedAt: now,
    });
    const card: Card = {
      id,
      ...scope,
      walletId: wallet.id,
      ...(input.cardholderId !== undefined ? { cardholderId: input.cardholderId } : {}),
      type: input.type,
      status: 'ACTIVE',
      ...issued,
      spendingLimits,
      version: 1,
      createdAt: at,
      updatedAt: at,
    };
    await store.commit([
      { type: 'putCard', card },
      cardEvent(card, 'card.created', at),
      auditOf(ctx, card, action, at),
    ]);
    return card;
  }

  async function get(ctx: RequestContext, cardId: string): Promise<Card> {
    return loadCard(ctx, cardId);
  }

  async function list(ctx: RequestContext, filter: CardFilter, page: PageRequest): Promise<Page<Card>> {
    const scope = scopeOf(ctx.principal);
    const walletId = filter.walletId ?? ctx.principal.walletId ?? undefined;
    if (walletId !== undefined) assertAccessible(ctx.principal, await store.getWallet(walletId), walletId);
    return store.listCards(scope, { walletId }, page);
  }

  /** Commits a change of status and/or limits, conditioned on the version read; answers the card after it. */
  async function change(
    ctx: RequestContext,
    card: Card,
    action: AuditAction,
    trigger: CardTrigger | undefined,
    set: Partial<Pick<Card, 'spendingLimits' | 'cancelledAt'>>,
  ): Promise<Card> {
    const at = clock.now().toISOString();
    const after: Card = {
      ...card,
      ...set,
      ...(trigger ? { status: CARD_STATES[trigger].to } : {}),
      version: card.version + 1,
      updatedAt: at,
    };
    const type = trigger === 'cancel' ? 'card.cancelled' : 'card.updated';
    await store.commit([
      {
        type: 'updateCard',
        cardId: card.id,
        expectedVersion: card.version,
        ...(trigger ? { trigger } : {}),
        set: { ...set, updatedAt: at },
      },
      cardEvent(after, type, at),
      auditOf(ctx, after, action, at, trigger ? { from: card.status } : {}),
    ]);
    return after;
  }

  function refuseCancelled(card: Card): void {
    if (card.status === 'CANCELLED')
      throw new ApiError('INVALID_STATE', 'The card is cancelled; a cancelled card never changes again.', {
        status: card.status,
      });
  }

  /**
   * PATCH: either the status (ACTIVE / INACTIVE) or the spending limits. Asking for the status it
   * has changes nothing. Lifting a guardrail (new limits, unfreezing) needs an organization key
   * (decisions.md section 1: a scoped key never manages its own guardrails); an agent key may only
   * freeze (and cancel). The catalog refuses agent keys for PATCH and unfreeze already; this is the
   * same rule where the change is made.
   */
  async function update(ctx: RequestContext, action: AuditAction, cardId: string, input: CardUpdate): Promise<Card> {
    if ((input.status === undefined) === (input.spendingLimits === undefined))
      throw validationError('status', 'give either status or spendingLimits');
    if (ctx.principal.walletId !== null && (input.spendingLimits !== undefined || input.status === 'ACTIVE')) {
      throw new ApiError(
        'PERMISSION_DENIED',
        "Changing a card's spending limits or unfreezing it needs an organization API key.",
      );
    }
    const card = await loadCard(ctx, cardId);
    refuseCancelled(card);
    if (input.spendingLimits !== undefined)
      return change(ctx, card, action, undefined, { spendingLimits: normalizeSpendingLimits(input.spendingLimits) });
    const trigger: CardTrigger = input.status === 'INACTIVE' ? 'freeze' : 'unfreeze';
    if (!canTransition(CARD_STATES, card.status, trigger)) return card;
    return change(ctx, card, action, trigger, {});
  }

  const freeze = (ctx: RequestContext, action: AuditAction, cardId: string) =>
    update(ctx, action, cardId, { status: 'INACTIVE' });
  const unfreeze = (ctx: RequestContext, action: AuditAction, cardId: string) =>
    update(ctx, action, cardId, { status: 'ACTIVE' });

  /** DELETE: CANCELLED for good. Holds of approved authorizations stay capturable. */
  async function cancel(ctx: RequestContext, action: AuditAction, cardId: string): Promise<Card> {
    const card = await loadCard(ctx, cardId);
    refuseCancelled(card);
    return change(ctx, card, action, 'cancel', { cancelledAt: clock.now().toISOString() });
  }

  /**
   * The sensitive details (`cards:sensitive_read`): opened from the issuer, then the read is
   * audited (`card.details.viewed`, without the number or the CVC) before anything is answered.
   * A read declares no audit action in the catalog (`audit` is a mutation's one entry), so this
   * service names it (docs/architecture.md, "Audit actions").
   */
  async function details(ctx: RequestContext, cardId: string): Promise<CardDetailsView> {
    const card = await loadCard(ctx, cardId);
    const opened = await options.issuers[card.environment].details(card);
    const at = clock.now().toISOString();
    await store.commit([auditOf(ctx, card, AUDIT.card.viewDetails, at)]);
    return presentCardDetails(card.id, opened);
  }

  async function listAuthorizations(
    ctx: RequestContext,
    cardId: string,
    page: PageRequest,
  ): Promise<Page<Authorization>> {
    const card = await loadCard(ctx, cardId);
    return store.listAuthorizations(card.id, page);
  }

  return {
    createCardholder,
    getCardholder,
    listCardholders,
    create,
    get,
    list,
    update,
    freeze,
    unfreeze,
    cancel,
    details,
    listAuthorizations,
    ...engine,
  };
}

export type CardService = ReturnType<typeof createCardService>;
