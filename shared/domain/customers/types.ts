import type { PaymentMethodType } from '../payment-methods/processor.js';
import type { Environment } from '../tenancy.js';

/** Free-form key-value data a client attaches (bounded by the operation's schema). */
export type Metadata = Record<string, string>;

export interface Customer {
  id: string;
  organizationId: string;
  environment: Environment;
  /** The wallet whose agent key created the customer (its agent keys see it), or null: the organization's. */
  walletId: string | null;
  /** As given (trimmed); compared and looked up lower-cased (`emailKey`). */
  email: string;
  name: string;
  phone?: string;
  companyName?: string;
  metadata?: Metadata;
  defaultPaymentMethodId: string | null;
  /** Live payment methods (at most MAX_PAYMENT_METHODS). */
  paymentMethodCount: number;
  /** Counts writes of the customer (PATCH, payment-method changes): each commits over the version it read. */
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface PaymentMethod {
  id: string;
  organizationId: string;
  environment: Environment;
  customerId: string;
  /** The customer's wallet (events concern it), null for an organization's customer. */
  walletId: string | null;
  type: PaymentMethodType;
  brand: string;
  last4: string;
  expMonth?: number;
  expYear?: number;
  /** Bank accounts: the ABA routing number (not secret), the holder and the account type. */
  routingNumber?: string;
  accountHolderName?: string;
  accountType?: 'checking' | 'savings';
  /** The full card or account number, sealed under the context `paymentMethodNumberContext(id)`. */
  numberSealed: string;
  /** The processor's handle for charging it (never shown). */
  processorToken: string;
  createdAt: string;
}

export const paymentMethodNumberContext = (paymentMethodId: string) => `payment-method:${paymentMethodId}:number`;

export type SessionKind = 'setup' | 'update';
export type SessionStatus = 'OPEN' | 'COMPLETED' | 'EXPIRED';

/** A setup or update link: stored under the SHA-256 of its token, never the token. */
export interface PaymentMethodSession {
  tokenHash: string;
  kind: SessionKind;
  organizationId: string;
  environment: Environment;
  customerId: string;
  /** OPEN until used; EXPIRED is never stored (read from `expiresAt`). */
  status: 'OPEN' | 'COMPLETED';
  createdAt: string;
  expiresAt: string;
  completedAt: string | null;
  paymentMethodId: string | null;
}
