import { ApiError } from '../errors.js';
import type { PaymentProcessor } from './processor.js';

/** The refusal of every live payment-method call until a processor is configured (a client error naming the cause). */
export const processorNotConfigured = () =>
  new ApiError(
    'INVALID_STATE',
    'Live payment methods need a payment processor, which is not configured for this deployment.',
    { processor: 'not_configured' },
  );

/**
 * The production processor until a real one's adapter is configured (docs/architecture.md,
 * "Payment processor"): no live method is saved and no live invoice is charged, so the sandbox's
 * public test numbers never pass for live money (as cards' `unconfiguredIssuer` and transfers'
 * `unconfiguredRail`).
 */
export const unconfiguredProcessor: PaymentProcessor = {
  async tokenize() {
    throw processorNotConfigured();
  },
  async charge() {
    throw processorNotConfigured();
  },
  async settle() {
    throw processorNotConfigured();
  },
  async refund() {
    throw processorNotConfigured();
  },
};

/** Refuses (before anything is written) what needs a processor when the environment has none configured. */
export function requireConfigured(processor: PaymentProcessor): PaymentProcessor {
  if (processor === unconfiguredProcessor) throw processorNotConfigured();
  return processor;
}
