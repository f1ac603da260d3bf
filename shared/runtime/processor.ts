import { randomBytes } from 'node:crypto';
import type { Clock } from '../domain/clock.js';
import type { PaymentProcessors } from '../domain/payment-methods/processor.js';
import { createSandboxProcessor } from '../domain/payment-methods/sandbox-processor.js';
import { unconfiguredProcessor } from '../domain/payment-methods/unconfigured-processor.js';

/** Random bits naming a sandbox-vaulted method (not a secret: the sealed number stays ours). */
const TOKEN_RANDOM_BYTES = 12;

/**
 * The payment processor of each environment, which every area charges through (customers'
 * payment methods, invoices): the sandbox adapter in SANDBOX; in PRODUCTION the unconfigured
 * processor (every call refused, 409 INVALID_STATE `{processor: 'not_configured'}`) until a real
 * processor is contracted. Its adapter (docs/architecture.md, "Payment processor") goes here, with
 * its credentials bound like any other secret; nothing else changes.
 */
export function paymentProcessors(core: { clock: Clock }): PaymentProcessors {
  const sandbox = createSandboxProcessor({
    clock: core.clock,
    randomHex: () => randomBytes(TOKEN_RANDOM_BYTES).toString('hex'),
  });
  return (environment) => (environment === 'SANDBOX' ? sandbox : unconfiguredProcessor);
}
