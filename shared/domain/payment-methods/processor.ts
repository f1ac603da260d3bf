import type Big from 'big.js';
import type { Environment } from '../tenancy.js';

/**
 * The payment processor port (issue 21): what Allowance asks of whoever holds customers' cards and
 * bank accounts and moves money out of them. The sandbox adapter (`sandbox-processor.ts`) decides
 * outcomes from the sandbox numbers (decisions.md section 6); a real processor's adapter (Stripe,
 * Adyen, ...) implements the same four calls with its own tokens, and Allowance then never sees a
 * full number (its hosted fields post to the processor). docs/architecture.md, "Payment processor".
 */

/** What a customer types on the hosted setup or checkout page (or a test helper sends). Never stored in clear, never logged. */
export type PaymentMethodInput =
  | { type: 'card'; number: string; expMonth: number; expYear: number; cvc?: string }
  | {
      type: 'us_bank_account';
      routingNumber: string;
      accountNumber: string;
      accountHolderName: string;
      accountType: 'checking' | 'savings';
    };

export type PaymentMethodType = PaymentMethodInput['type'];

/** A method vaulted by the processor: all Allowance keeps besides the sealed number. */
export interface TokenizedMethod {
  type: PaymentMethodType;
  /** The processor's handle for charging the method (opaque to Allowance). */
  processorToken: string;
  /** `visa`, `mastercard`, `amex`, `discover`, `unknown` for cards; the bank's label for bank accounts. */
  brand: string;
  last4: string;
  expMonth?: number;
  expYear?: number;
}

/** Why a processor refused a charge (shown to the customer in plain words by the hosted pages). */
export type DeclineCode =
  | 'card_declined'
  | 'insufficient_funds'
  | 'expired_card'
  | 'bank_debit_failed'
  /** Ours, not the processor's: the method to charge was deleted (a recurring run or a retry). */
  | 'payment_method_missing';

export type ChargeResult =
  /** Card: the money is captured now. */
  | { outcome: 'succeeded'; processorChargeId: string }
  /** Bank debit: accepted, settles (or fails) when the ACH rail settles (`settle`). */
  | { outcome: 'pending'; processorChargeId: string }
  | { outcome: 'declined'; declineCode: DeclineCode };

export interface ChargeRequest {
  processorToken: string;
  amount: Big;
  currency: 'USD';
  /** Our idempotency reference at the processor: the same reference never charges twice. */
  reference: string;
}

export interface PaymentProcessor {
  /** Validates (Luhn, expiry; ABA routing checksum) and vaults a method; a bad number is a VALIDATION_ERROR naming the field. */
  tokenize(input: PaymentMethodInput): Promise<TokenizedMethod>;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** The end of a pending bank debit (called when the ACH rail's settlement time has come). */
  settle(processorChargeId: string): Promise<'succeeded' | 'failed'>;
  /**
   * Returns money of a succeeded charge to the customer's method, or gives back a pending bank
   * debit (cancelled if not settled yet, returned once it settles): a debit whose recording lost.
   */
  refund(request: { processorChargeId: string; amount: Big; reference: string }): Promise<void>;
}

/**
 * The processor of each environment: the sandbox adapter in SANDBOX; in PRODUCTION a real one's
 * adapter, or, until one is configured, `unconfiguredProcessor` (every call refused).
 */
export type PaymentProcessors = (environment: Environment) => PaymentProcessor;
