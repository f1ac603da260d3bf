import { AUDIT } from '../domain/audit/actions.js';

/**
 * The card network function as plain data, read by CDK (lib/stacks/card-network-stack.ts), the
 * local server and the function's own edge alike (no import here but the audit action table, a
 * leaf, so CDK loads nothing else). docs/api.md "Cards: the card network endpoint".
 */
export const CARD_NETWORK_FUNCTION = {
  /** The folder under functions/ (functions/card-network/handler.ts). */
  name: 'card-network',
  /**
   * The endpoint's path, locally (next to the API) and behind the function URL. Outside /v1: it
   * is no catalog operation (no API key, no OpenAPI entry), only the processor calls it.
   */
  path: '/card-network/authorizations',
  /**
   * A card network gives the issuer about 2 s in all (processor included); past that it stands in
   * or declines, so a slower answer is worth nothing. A little more than 2 s, so a slow call ends
   * in our code's answer rather than the processor's own timeout guess.
   */
  timeoutS: 3,
  memoryMb: 512,
  /**
   * Concurrency reserved in production stages (a floor against the rest of the account, and a
   * ceiling: a flood of forged requests can not spill into the account's pool). About 20 x (1 s /
   * ~50 ms per decision) = 400 authorizations per second; raise it with the traffic. Not reserved
   * in other stages: a new account's concurrency quota (10) can not reserve any.
   */
  productionReservedConcurrency: 20,
  /** Bodies are one small JSON object; anything larger is refused before the signature is checked. */
  maxBodyBytes: 16_384,
  /** The audit action of each decision it writes (approved or declined), as an operation's `audit`. */
  audit: AUDIT.card.authorize,
} as const;

/**
 * Every failure of a request (the engine failed: declined `processing_error`; or a 500 before the
 * decision) is logged with this marker first; the stack's log metric filter counts them and alarms.
 */
export const CARD_NETWORK_FAILURE_MARKER = 'CARD_NETWORK_FAILURE';

/** The signature header the processor sends: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export const CARD_NETWORK_SIGNATURE_HEADER = 'x-allowance-signature';

/** How far a signature's timestamp may be from our clock, either way (seconds). */
export const CARD_NETWORK_SIGNATURE_TOLERANCE_S = 300;

/**
 * Where the signing secret comes from: in AWS the ARN of a Secrets Manager secret (read once per
 * cold start), locally (and in tests) the secret itself; the ARN wins when both are set.
 */
export const CARD_NETWORK_ENV = {
  secretArn: 'CARD_NETWORK_SECRET_ARN',
  secret: 'CARD_NETWORK_SECRET',
  /**
   * The environment whose cards the endpoint authorizes: `PRODUCTION` (the live network; CDK sets
   * it) or `SANDBOX`. Unset: `SANDBOX` in the local run (LOCAL_RUN=1: no live network there),
   * `PRODUCTION` anywhere else. A card of the other environment is declined `environment_mismatch`.
   */
  environment: 'CARD_NETWORK_ENVIRONMENT',
} as const;
/** The generated secret in AWS: letters and digits only (no quoting in the processor's configuration). */
export const CARD_NETWORK_SECRET_LENGTH = 64;
