import type { IdGenerator } from '../ids.js';
import type { TransferStore, TransferWorkflows } from '../transfers/ports.js';
import type { TransferCounterparties } from '../transfers/transfer-counterparties.js';
import { reconcileAfter } from '../transfers/transfer-rules.js';
import type { Transfer } from '../transfers/types.js';
import type { ClaimByRail, RailClaimDestination, RailClaimRequest } from './rail-claim-port.js';
import type { ClaimDestination, PaymentLink, PaymentLinkClaim } from './types.js';

export interface RailClaimDeps {
  /** The transfer store commits the claim: the new transfer and the link's transition in one transaction. */
  store: Pick<TransferStore, 'commit'>;
  /** The transfer area's counterparties: the account number sealed, bound to the transfer id. */
  counterparties: Pick<TransferCounterparties, 'resolve'>;
  /** Starts the transfer workflow after the claim commits. */
  workflows?: TransferWorkflows | undefined;
  ids: IdGenerator;
  timeScale: number;
  log: Pick<Console, 'error'>;
}

/** The destination as the link keeps it: a bank's routing number and last 4 digits (the whole number only sealed, on the transfer). */
function summaryOf(destination: RailClaimDestination): ClaimDestination {
  if (destination.type === 'USDC') return { type: 'USDC', address: destination.address, chain: destination.chain };
  return {
    type: 'ACH',
    routingNumber: destination.routingNumber,
    last4: destination.accountNumber.slice(-4),
    ...(destination.accountName !== undefined ? { accountName: destination.accountName } : {}),
  };
}

/**
 * The ach/usdc claim of a payment link (decisions in docs/api.md "Payment links"): a WITHDRAWAL
 * transfer that adopts the link's hold (`holdId`: no new hold, the link's `amount` and `fee`, rail
 * ACH in USD or USDC in USDC, `paymentLinkId`), committed in ONE transaction with the link ACTIVE ->
 * CLAIMED (`claim`: method, the destination's summary, recipientEmail, transferId) and the claim
 * service's changes (audit entry, `payment_link.claimed`, the key's answer). The link's state
 * condition decides a race: of two concurrent claims one commits, the other fails INVALID_STATE
 * and creates nothing. Then the transfer workflow runs as for any withdrawal; its end decides the
 * link (payment-link-transfers.ts).
 */
export function createRailClaim(deps: RailClaimDeps): ClaimByRail {
  const { store, counterparties, ids } = deps;

  async function startWorkflow(transfer: Transfer): Promise<void> {
    if (!deps.workflows) return;
    try {
      await deps.workflows.start(transfer);
    } catch (error) {
      // Committed (INITIATED): the reconciler submits it at its `reconcileAt`.
      deps.log.error(`could not start the workflow of ${transfer.id} (payment link claim)`, error);
    }
  }

  return async function claimByRail(request: RailClaimRequest): Promise<PaymentLink> {
    const { link, destination, now } = request;
    const at = now.toISOString();
    const scope = { organizationId: link.organizationId, environment: link.environment };
    const id = ids('transfer');
    const currency = destination.type === 'USDC' ? 'USDC' : 'USD';
    const { rail, stored } = await counterparties.resolve(scope, id, 'destination', {
      walletId: link.walletId,
      amount: link.amount,
      currency,
      counterparty:
        destination.type === 'USDC'
          ? { type: 'USDC', address: destination.address, chain: destination.chain }
          : { type: 'ACH', routingNumber: destination.routingNumber, accountNumber: destination.accountNumber },
    });
    const transfer: Transfer = {
      id,
      ...scope,
      walletId: link.walletId,
      direction: 'WITHDRAWAL',
      rail,
      currency,
      amount: link.amount,
      fee: link.fee,
      status: 'INITIATED',
      destination: stored,
      holdId: link.holdId,
      paymentLinkId: link.id,
      reconcileAt: reconcileAfter(link.environment, now, deps.timeScale),
      createdAt: at,
    };
    const claim: PaymentLinkClaim = {
      method: destination.type === 'USDC' ? 'usdc' : 'ach',
      destination: summaryOf(destination),
      ...(request.recipientEmail !== undefined ? { recipientEmail: request.recipientEmail } : {}),
      transferId: id,
      claimedAt: at,
    };
    const set: Partial<PaymentLink> = { claim, updatedAt: at };
    const claimed: PaymentLink = { ...link, ...set, status: 'CLAIMED' };
    await store.commit([
      { type: 'putTransfer', transfer },
      { type: 'transitionPaymentLink', linkId: link.id, trigger: 'claim', set },
      ...request.claimChanges(claimed),
    ]);
    await startWorkflow(transfer);
    return claimed;
  };
}
