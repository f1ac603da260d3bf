import type { ApiError } from '../domain/errors.js';

/** Field names of the forms as the labels people see (a VALIDATION_ERROR names the field). */
const FIELD_LABEL: Readonly<Record<string, string>> = {
  number: 'Card number',
  expMonth: 'Expiry month',
  expYear: 'Expiry year',
  cvc: 'Security code',
  routingNumber: 'Routing number',
  accountNumber: 'Account number',
  accountHolderName: 'Account holder name',
  accountType: 'Account type',
  walletId: 'Wallet ID',
  accountName: 'Account holder name',
  address: 'USDC address',
  chain: 'Network',
  recipientEmail: 'Email address',
};

/** The field a VALIDATION_ERROR names, as the form's input name. */
export function invalidFieldOf(error: ApiError): string | undefined {
  const field = error.details?.field;
  return typeof field === 'string' ? field.split('.').pop() : undefined;
}

/** A refusal of the input in words for the person at the form: the field's label and what is wrong with it. */
export function validationMessage(error: ApiError): string {
  const field = invalidFieldOf(error);
  const label = field ? FIELD_LABEL[field] : undefined;
  if (!label || !field) return 'Please check the details you entered and try again.';
  const prefix = `${String(error.details?.field)}: `;
  const reason = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : 'is not valid';
  return `${label}: ${reason}. Please check it and try again.`;
}

const DECLINES: Readonly<Record<string, string>> = {
  card_declined: 'Your card was declined.',
  insufficient_funds: 'Your card was declined: insufficient funds.',
  expired_card: 'Your card has expired.',
  bank_debit_failed: 'Your bank refused the debit.',
};

/** A PAYMENT_DECLINED in words: the invoice stays open and nothing was taken. */
export function declineMessage(error: ApiError): string {
  const code = error.details?.declineCode;
  const reason = (typeof code === 'string' ? DECLINES[code] : undefined) ?? 'Your payment was declined.';
  return `${reason} Nothing was charged and the invoice is still open: try another card or pay by bank account.`;
}

/** A refused claim of a payment link, for the alert of the claim page: the words and the field they are about. */
export interface ClaimRefusal {
  message: string;
  field: string | undefined;
  /** A value not to write back into the form (the link's own wallet, typed by mistake or on purpose). */
  clears?: 'walletId';
}

const CLAIM_REFUSALS: Readonly<Record<string, ClaimRefusal>> = {
  RECIPIENT_NOT_ALLOWED: {
    field: 'recipientEmail',
    message:
      'Email address: this link is only for the recipients the sender named, and the email address or wallet you entered is not one of them. Use the email address the link was sent to.',
  },
  WALLET_NOT_FOUND: {
    field: 'walletId',
    message: 'Wallet ID: no wallet has this ID. Please check it and try again.',
  },
  WALLET_FROZEN: {
    field: 'walletId',
    message: 'Wallet ID: this wallet can not receive money now (it is frozen or closed). Choose another destination.',
  },
  SELF_PAYMENT: {
    field: 'walletId',
    message: 'Wallet ID: this is the wallet the link pays from. Enter the ID of your own wallet.',
    clears: 'walletId',
  },
  // The link is ACTIVE yet this claim can not be made now (a state answer about the claim itself).
  INVALID_STATE: {
    field: undefined,
    message:
      'This payment can not be claimed this way right now. Please try again later or choose another destination.',
  },
  IDEMPOTENCY_KEY_REUSE: {
    field: undefined,
    message: 'This form was already sent with other details. Please check the details and send it again.',
  },
};

/** The claim page's alert for a refusal the claimant can act on; undefined for anything else (thrown on). */
export function claimRefusal(error: ApiError): ClaimRefusal | undefined {
  if (error.code === 'VALIDATION_ERROR') return { message: validationMessage(error), field: invalidFieldOf(error) };
  return CLAIM_REFUSALS[error.code];
}
