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
