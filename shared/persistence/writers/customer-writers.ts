import { emailKey } from '../../domain/customers/customer-rules.js';
import type { CustomerChange } from '../../domain/customers/ports.js';
import { ApiError } from '../../domain/errors.js';
import {
  customerCodec,
  customerEmailCodec,
  customerKeys,
  paymentMethodCodec,
  paymentMethodSessionCodec,
} from '../entities/customer.js';
import { CONFLICT_RETRY_AFTER_S } from '../transact.js';
import { put, setFields, update, type ChangeWriters } from '../write-builders.js';

const customerGone = () => new ApiError('CUSTOMER_NOT_FOUND');
/** A failed version condition: the customer changed meanwhile (read again), or is gone. */
const concurrentOrGone = (old: unknown) =>
  old
    ? new ApiError('CONCURRENT_UPDATE', 'The customer changed meanwhile; retry.', {
        retryAfter: CONFLICT_RETRY_AFTER_S,
      })
    : customerGone();

export const customerWriters: ChangeWriters<CustomerChange> = {
  /** The customer and its email's uniqueness item: the email held (any case) fails the whole transaction. */
  putCustomer: (tableName, change) => [
    put(tableName, customerCodec.toItem(change.customer)),
    put(
      tableName,
      customerEmailCodec.toItem(change.customer, emailKey(change.customer.email)),
      () =>
        new ApiError('CUSTOMER_EMAIL_TAKEN', 'Another customer of this organization already has this email address.', {
          field: 'email',
        }),
    ),
  ],

  updateCustomer: (tableName, change) => {
    const { phone, companyName, metadata, name } = change.fields;
    const { sets, names, values } = setFields(
      {
        name,
        phone: phone ?? undefined,
        companyName: companyName ?? undefined,
        metadata: metadata ?? undefined,
        updatedAt: change.updatedAt,
        version: change.version + 1,
      },
      'f_',
    );
    const removed = (['phone', 'companyName', 'metadata'] as const).filter((field) => change.fields[field] === null);
    const remove = removed.length ? ` REMOVE ${removed.join(', ')}` : '';
    return [
      update(
        tableName,
        customerKeys.primary(change.customerId),
        `SET ${sets.join(', ')}${remove}`,
        'version = :read',
        { ...values, ':read': change.version },
        names,
        concurrentOrGone,
      ),
    ];
  },

  putPaymentMethodSession: (tableName, change) => [put(tableName, paymentMethodSessionCodec.toItem(change.session))],

  setCustomerPaymentMethods: (tableName, change) => [
    update(
      tableName,
      customerKeys.primary(change.customerId),
      'SET version = :next, paymentMethodCount = :count, defaultPaymentMethodId = :default, updatedAt = :at',
      'version = :read',
      {
        ':read': change.version,
        ':next': change.version + 1,
        ':count': change.paymentMethodCount,
        ':default': change.defaultPaymentMethodId,
        ':at': change.updatedAt,
      },
      undefined,
      concurrentOrGone,
    ),
  ],

  putPaymentMethod: (tableName, change) => [put(tableName, paymentMethodCodec.toItem(change.paymentMethod))],

  removePaymentMethod: (tableName, change) => [
    update(
      tableName,
      customerKeys.paymentMethod(change.paymentMethodId),
      'SET removedAt = :at REMOVE numberSealed, processorToken, GSI1PK, GSI1SK',
      'attribute_exists(PK) AND attribute_not_exists(removedAt)',
      { ':at': change.removedAt },
      undefined,
      () => new ApiError('PAYMENT_METHOD_NOT_FOUND'),
    ),
  ],

  completePaymentMethodSession: (tableName, change) => [
    update(
      tableName,
      customerKeys.session(change.tokenHash),
      'SET #status = :completed, completedAt = :at, paymentMethodId = :pm',
      '#status = :open AND expiresAt > :at',
      { ':completed': 'COMPLETED', ':open': 'OPEN', ':at': change.completedAt, ':pm': change.paymentMethodId },
      { '#status': 'status' },
      (old) =>
        new ApiError('INVALID_STATE', 'This link was used or has expired; ask for a new one.', {
          status: old?.status === 'COMPLETED' ? 'COMPLETED' : 'EXPIRED',
        }),
    ),
  ],
};
