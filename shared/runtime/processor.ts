import { randomBytes } from 'node:crypto';
import type { Clock } from '../domain/clock.js';
import type { PaymentProcessor } from '../domain/payment-methods/processor.js';
import { createSandboxProcessor } from '../domain/payment-methods/sandbox-processor.js';

/** Random bits naming a sandbox-vaulted method (not a secret: the sealed number stays ours). */
const TOKEN_RANDOM_BYTES = 12;

/**
 * The payment processor every area charges through (customers' payment methods, invoices). Today
 * the sandbox adapter for both environments: no real processor is contracted yet. A real one's
 * adapter (docs/architecture.md, "Payment processor") is chosen here, by environment, with its
 * credentials bound like any other secret; nothing else changes.
 */
export function paymentProcessor(core: { clock: Clock }): PaymentProcessor {
  return createSandboxProcessor({
    clock: core.clock,
    randomHex: () => randomBytes(TOKEN_RANDOM_BYTES).toString('hex'),
  });
}
