import type { EmittedEventName } from './event-names.js';

/**
 * When each emitted event is committed: one sentence per name, shown in the OpenAPI document's
 * `webhooks` and in the events table of docs/api.md (both generated from the declarations). The
 * compiler asks for one sentence per emitted name and refuses one for a reserved name.
 */
export const EVENT_OCCASIONS = {
  'deposit.initiated': 'A deposit was submitted to its rail (status PENDING).',
  'deposit.completed': 'A deposit settled and credited its wallet (ACH: into `pendingBalance` until it clears).',
  'deposit.failed': 'A deposit was rejected by its rail or failed to settle.',
  'deposit.cancelled': 'A pending deposit was cancelled (`POST /v1/transfers/{id}/cancel`).',
  'withdrawal.initiated': 'A withdrawal was submitted to its rail; amount and fee are held.',
  'withdrawal.completed': 'A withdrawal settled; its hold was captured.',
  'withdrawal.failed': 'A withdrawal was rejected by its rail or failed to settle; amount and fee are back.',
  'withdrawal.cancelled': 'A pending withdrawal was cancelled; amount and fee are back.',
  'wallet.funds_pending': 'A completed ACH deposit started clearing: its net amount is in `pendingBalance`.',
  'wallet.funds_available': 'The clearing of an ACH deposit ended: its amount moved to `balance`.',
  'card.created': 'A card was issued.',
  'card.updated': 'A card\'s limits changed, or it was frozen or unfrozen.',
  'card.cancelled': 'A card was cancelled (`DELETE /v1/cards/{id}`, or a single-use card after its capture).',
  'card.authorization.approved': 'The card network\'s authorization request was approved: the amount is held.',
  'card.authorization.declined': 'The card network\'s authorization request was declined (why is in `reason`).',
  'card.authorization.captured': 'An approved authorization was captured (paid); any rest of the hold was released.',
  'card.authorization.reversed': 'An approved authorization was reversed or expired: its hold was released.',
  'card.refund.created': 'A merchant refunded part or all of a captured authorization into the card\'s wallet.',
  'approval.requested': 'A payment above a policy\'s approval threshold was queued for approval (`202 APPROVAL_REQUIRED`).',
  'approval.approved': 'A queued payment was approved (it then posts, or fails with `payment.failed`).',
  'approval.rejected': 'A queued payment was rejected; it will not post.',
  'approval.expired': 'A queued payment was not decided in time; it will not post (`failureCode: APPROVAL_EXPIRED`).',
  'payment.posted': 'A payment posted: the amount moved from the paying wallet to the payee.',
  'payment.failed': 'A queued payment was approved but could not post (e.g. insufficient funds by then).',
  'payment.reversed': 'A posted payment was reversed (`POST /v1/payments/{id}/reverse`); `data` is the reversal, the mirror payment (`reversalOf` names the original).',
  'agent.created': 'An agent (a wallet with its own key) was created.',
  'agent.paused': 'An agent was paused: its wallet is FROZEN.',
  'agent.resumed': 'A paused agent was resumed: its wallet is ACTIVE again.',
  'agent.deleted': 'An agent was deleted: its key revoked, its balance swept back, its wallet closed.',
  'wallet.created': 'A wallet was created (`POST /v1/wallets`).',
  'wallet.funded': 'Test money was added to a sandbox wallet (`POST /v1/wallets/{id}/fund`).',
  'organization.created': 'An organization was created.',
  'webhook.test': 'Sent on request (`POST /v1/webhooks/{id}/test`) to that one webhook only; never in the events API.',
} as const satisfies Record<EmittedEventName, string>;
