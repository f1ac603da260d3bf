import Big from 'big.js';
import { AUTHORIZATION_STATES, CARD_STATES } from '../../domain/cards/card-states.js';
import type { CardChange } from '../../domain/cards/ports.js';
import { ApiError } from '../../domain/errors.js';
import { formatAmount } from '../../domain/money.js';
import { fromStatesOf, targetOf } from '../../domain/state-table.js';
import { readBig, readInt, toNumberAttribute } from '../client.js';
import { cardAuthorizationCodec, cardAuthorizationKeys } from '../entities/card-authorization.js';
import { cardCodec, cardKeys, cardSpendAttribute } from '../entities/card.js';
import { cardholderCodec } from '../entities/cardholder.js';
import type { Item } from '../item.js';
import type { TransactWrite } from '../transact.js';
import { inStates, put, setFields, update, transitionUpdate, type ChangeWriters } from '../write-builders.js';

/** A concurrent change of the card's status or limits: the decision is made again (a retry). */
const concurrentCardChange = () =>
  new ApiError('CONCURRENT_UPDATE', 'The card changed meanwhile; retry.', { retryAfter: 1 });

/**
 * The card area's writes. The card item is changed under the version read (status and limits
 * changes bump it), so an authorization decided on limits that changed meanwhile is decided again;
 * an authorization's spend is counted on the card item only while the card is ACTIVE and every
 * limited interval stays within its limit: concurrent authorizations can not overspend a limit.
 */
export const cardWriters: ChangeWriters<CardChange> = {
  putCardholder: (tableName, change) => [put(tableName, cardholderCodec.toItem(change.cardholder))],
  putCard: (tableName, change) => [put(tableName, cardCodec.toItem(change.card))],
  updateCard: (tableName, change) => {
    const { sets, names, values } = setFields(change.set, 'f_');
    const from = change.trigger ? inStates('#status', fromStatesOf(CARD_STATES, change.trigger), ':from') : undefined;
    const expression = [...sets, ...(change.trigger ? ['#status = :to'] : [])];
    return [
      update(
        tableName,
        cardKeys.primary(change.cardId),
        `SET ${expression.join(', ')} ADD version :one`,
        `attribute_exists(PK) AND version = :version${from ? ` AND ${from.condition}` : ''}`,
        {
          ...values,
          ...(from?.values ?? {}),
          ...(change.trigger ? { ':to': targetOf(CARD_STATES, change.trigger) } : {}),
          ':one': 1,
          ':version': change.expectedVersion,
        },
        { ...names, ...(change.trigger ? { '#status': 'status' } : {}) },
        (old) => {
          if (!old) return new ApiError('CARD_NOT_FOUND');
          if (from && !(fromStatesOf(CARD_STATES, change.trigger!) as readonly string[]).includes(String(old.status)))
            return new ApiError('INVALID_STATE', `The card is ${String(old.status)}.`, { status: old.status });
          return concurrentCardChange();
        },
      ),
    ];
  },
  countCardSpend: (tableName, change) => [countCardSpend(tableName, change.spend, change.usedBy)],
  settleCard: (tableName, change) => {
    const adds: string[] = [];
    const sets: string[] = [];
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    change.release?.keys.forEach((key, index) => {
      names[`#r${index}`] = cardSpendAttribute(key.interval, key.key);
      adds.push(`#r${index} :released`);
    });
    if (change.release) values[':released'] = toNumberAttribute(new Big(change.release.amount).times(-1));
    if (change.closeAt) {
      sets.push('#status = :cancelled', 'cancelledAt = if_not_exists(cancelledAt, :at)', 'updatedAt = :at');
      adds.push('version :one');
      Object.assign(names, { '#status': 'status' });
      Object.assign(values, { ':cancelled': targetOf(CARD_STATES, 'cancel'), ':at': change.closeAt, ':one': 1 });
    }
    const conditions = ['attribute_exists(PK)'];
    if (change.free) {
      // Only the authorization that marked the single-use card frees it.
      conditions.push('usedBy = :usedBy');
      values[':usedBy'] = change.free;
    }
    const expression = [
      ...(sets.length > 0 ? [`SET ${sets.join(', ')}`] : []),
      ...(adds.length > 0 ? [`ADD ${adds.join(', ')}`] : []),
      ...(change.free ? ['REMOVE usedBy'] : []),
    ].join(' ');
    return [
      update(
        tableName,
        cardKeys.primary(change.cardId),
        expression,
        conditions.join(' AND '),
        values,
        Object.keys(names).length > 0 ? names : undefined,
        (old) =>
          old
            ? new ApiError('INVALID_STATE', 'The card is not held by this authorization.')
            : new ApiError('CARD_NOT_FOUND'),
      ),
    ];
  },
  putAuthorization: (tableName, change) => [put(tableName, cardAuthorizationCodec.toItem(change.authorization))],
  deferAuthorizationExpiry: (tableName, change) => [
    update(
      tableName,
      cardAuthorizationKeys.primary(change.authorizationId),
      'SET GSI4SK = :sort',
      'attribute_exists(GSI4PK) AND #status = :approved',
      {
        ':sort': cardAuthorizationKeys.openSort(change.retryAt, change.authorizationId).GSI4SK,
        ':approved': 'APPROVED',
      },
      { '#status': 'status' },
      () => new ApiError('INVALID_STATE', 'The authorization was settled meanwhile.'),
    ),
  ],
  transitionAuthorization: (tableName, change) => [
    // Captured or reversed: nothing left to expire, off the expiry index (GSI4) in the same write.
    transitionUpdate(
      tableName,
      cardAuthorizationKeys.primary(change.authorizationId),
      AUTHORIZATION_STATES[change.trigger],
      {
        set: change.set,
        remove: ['GSI4PK', 'GSI4SK'],
        condition: 'attribute_exists(PK)',
        onConditionFailed: (old) =>
          old
            ? new ApiError('INVALID_STATE', `The authorization is ${String(old.status)}.`, { status: old.status })
            : new ApiError('AUTHORIZATION_NOT_FOUND'),
      },
    ),
  ],
  refundAuthorization: (tableName, change) => {
    const amount = new Big(change.amount);
    const most = new Big(change.capturedAmount).minus(amount);
    return [
      update(
        tableName,
        cardAuthorizationKeys.primary(change.authorizationId),
        'ADD refundedAmount :amount',
        'attribute_exists(PK) AND #status = :captured AND refundedAmount <= :most',
        { ':amount': toNumberAttribute(amount), ':captured': 'CAPTURED', ':most': toNumberAttribute(most) },
        { '#status': 'status' },
        (old) => {
          if (!old) return new ApiError('AUTHORIZATION_NOT_FOUND');
          if (old.status !== 'CAPTURED')
            return new ApiError('INVALID_STATE', `The authorization is ${String(old.status)}.`, { status: old.status });
          const left = new Big(change.capturedAmount).minus(readBig(old.refundedAmount));
          return new ApiError('INVALID_AMOUNT', `amount: at most ${formatAmount(left)} is left to refund`, {
            field: 'amount',
            max: formatAmount(left),
          });
        },
      ),
    ];
  },
};

/** The card's spend: every interval counted, each limited one only while it stays within its limit; stale intervals dropped. */
function countCardSpend(
  tableName: string,
  spend: Extract<CardChange, { type: 'countCardSpend' }>['spend'],
  usedBy: string | undefined,
): TransactWrite {
  const adds: string[] = [];
  const conditions = ['attribute_exists(PK)', '#status = :active', 'version = :version'];
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = {
    ':active': 'ACTIVE',
    ':version': spend.version,
    ':spent': toNumberAttribute(spend.amount),
  };
  if (usedBy !== undefined) {
    // A single-use card admits one live authorization: the first approval to commit marks it.
    conditions.push('attribute_not_exists(usedBy)');
    values[':usedBy'] = usedBy;
  }
  spend.intervals.forEach((interval, index) => {
    const name = `#s${index}`;
    names[name] = cardSpendAttribute(interval.interval, interval.key);
    adds.push(`${name} :spent`);
    if (interval.limit) {
      conditions.push(`((attribute_not_exists(${name}) AND :spent <= :l${index}) OR ${name} <= :c${index})`);
      values[`:l${index}`] = toNumberAttribute(interval.limit);
      values[`:c${index}`] = toNumberAttribute(interval.limit.minus(spend.amount));
    }
  });
  const removes = spend.stale.map((key, index) => {
    names[`#x${index}`] = cardSpendAttribute(key.interval, key.key);
    return `#x${index}`;
  });
  const expression = `${usedBy !== undefined ? 'SET usedBy = :usedBy ' : ''}ADD ${adds.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`;
  return update(tableName, cardKeys.primary(spend.cardId), expression, conditions.join(' AND '), values, names, (old) =>
    cardDecline(old, spend.version, usedBy !== undefined),
  );
}

/** Why the card refused the spend at commit: a decline reason the engine records (or a concurrent change it decides again). */
function cardDecline(old: Item | undefined, version: number, singleUse: boolean): ApiError {
  if (!old || old.status === 'CANCELLED')
    return new ApiError('INVALID_STATE', 'The card is cancelled.', { declineReason: 'card_cancelled' });
  if (old.status !== 'ACTIVE')
    return new ApiError('INVALID_STATE', 'The card is inactive.', { declineReason: 'card_inactive' });
  if (singleUse && old.usedBy !== undefined)
    return new ApiError('INVALID_STATE', 'The single-use card has a live authorization.', {
      declineReason: 'card_used',
    });
  if (readInt(old.version) !== version) return concurrentCardChange();
  return new ApiError('POLICY_DENIED', 'A spending limit of the card would be exceeded.', {
    declineReason: 'spending_limit_exceeded',
  });
}
