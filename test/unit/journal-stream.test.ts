import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { projectsOnChange } from '../../shared/domain/ledger/journal-projection.js';
import type { JournalRecord } from '../../shared/domain/ledger/journal.js';
import { journalCodec } from '../../shared/persistence/entities/transaction.js';
import { journalChangeOf } from '../../shared/persistence/journal-stream.js';

const queued: JournalRecord = {
  id: 'txn_1',
  type: 'PAYMENT',
  organizationId: 'org_1',
  environment: 'SANDBOX',
  from: 'wal_1',
  to: 'wal_2',
  amount: '10.00',
  fee: '0.00',
  currency: 'USD',
  status: 'QUEUED',
  approvalId: 'apr_1',
  createdAt: '2026-11-27T10:00:00.000Z',
};
const posted: JournalRecord = { ...queued, status: 'POSTED', postedAt: '2026-11-27T10:05:00.000Z' };

const image = (record: JournalRecord) => marshall(journalCodec.toItem(record), { removeUndefinedValues: true });
const modified = (before: JournalRecord, after: JournalRecord) =>
  journalChangeOf({ eventName: 'MODIFY', dynamodb: { OldImage: image(before), NewImage: image(after) } })!;

describe('journal stream: what a change of a journal record did, from its old image', () => {
  it('a queued payment approved is POSTED and projects (its audit entry and payment.posted)', () => {
    expect(modified(queued, posted).change).toBe('POSTED');
    expect(projectsOnChange(modified(queued, posted).change)).toBe(true);
  });

  it('a later change of a posted payment (a dispute marking it, a reversal) is MODIFY and projects nothing again', () => {
    const disputed = { ...posted, disputeId: 'dsp_1' } as JournalRecord;
    expect(modified(posted, disputed).change).toBe('MODIFY');
    expect(projectsOnChange(modified(posted, disputed).change)).toBe(false);
    expect(projectsOnChange(modified(posted, { ...posted, status: 'REVERSED' }).change)).toBe(false);
    expect(projectsOnChange(modified(queued, { ...queued, status: 'REJECTED' }).change)).toBe(false);
  });

  it('a first write is INSERT', () => {
    expect(journalChangeOf({ eventName: 'INSERT', dynamodb: { NewImage: image(posted) } })!.change).toBe('INSERT');
  });
});
