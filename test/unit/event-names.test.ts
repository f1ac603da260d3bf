import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  EMITTED_EVENT_NAMES,
  EVENT_DECLARATIONS,
  EVENT_NAMES,
  RESERVED_EVENT_NAMES,
} from '../../shared/domain/event-names.js';
import { viewOf } from '../../shared/domain/view-registry.js';

/**
 * The event names the spec and the decisions give, copied here on purpose (a second writing of the
 * list): interface-spec section 6, decisions.md section 8 ("beyond the spec", `webhook.test`) and the
 * names docs/api.md decided (wallet lifecycle and funding, organization creation, a cancelled transfer).
 */
const SPEC_EVENT_NAMES = [
  // interface-spec section 6
  'deposit.initiated',
  'deposit.completed',
  'deposit.failed',
  'withdrawal.initiated',
  'withdrawal.completed',
  'withdrawal.failed',
  'wallet.funds_pending',
  'wallet.funds_available',
  'card.created',
  'card.updated',
  'card.cancelled',
  'card.authorization.approved',
  'card.authorization.declined',
  'card.authorization.captured',
  'card.authorization.reversed',
  'card.refund.created',
  'customer.created',
  'customer.updated',
  'customer.payment_method.saved',
  'customer.payment_method.updated',
  'customer.payment_method.removed',
  'payment_link.created',
  'payment_link.claimed',
  'payment_link.settled',
  'payment_link.expired',
  'payment_link.cancelled',
  'invoice.created',
  'invoice.finalized',
  'invoice.paid',
  'invoice.payment_failed',
  'invoice.voided',
  'invoice.refunded',
  'invoice.uncollectible',
  'invoice.usdc_unmatched',
  'approval.approved',
  'approval.rejected',
  // decisions.md section 8
  'payment.posted',
  'payment.failed',
  'payment.reversed',
  'approval.requested',
  'approval.expired',
  'dispute.created',
  'dispute.responded',
  'dispute.resolved',
  'agent.created',
  'agent.paused',
  'agent.resumed',
  'agent.deleted',
  'webhook.test',
  // docs/api.md decisions
  'wallet.created',
  'wallet.funded',
  'organization.created',
  'deposit.cancelled',
  'withdrawal.cancelled',
];

const ROOT = path.resolve(import.meta.dirname, '../..');
/**
 * Files that name events without emitting them: the declarations (the central lists and each
 * area's `<area>-events.ts`), the views' examples, the audit actions (some share an event's name).
 * Events are committed by domain services (eventChange, the journal projection, the test event),
 * so an emission site is a domain file other than these.
 */
const NOT_EMITTING = /^shared\/domain\/event-names\.ts$|-view\.ts$|-events\.ts$|^shared\/domain\/audit\/actions\.ts$/;

function sources(dir: string): { file: string; text: string }[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .map((file) => ({ file, text: readFileSync(path.join(ROOT, file), 'utf8') }));
}

const DOMAIN = sources('shared/domain').filter(({ file }) => !NOT_EMITTING.test(file));
/** Every other file of the service: a reserved name appears in none of them. */
const ELSEWHERE = [...sources('shared'), ...sources('functions'), ...sources('lib')].filter(
  ({ file }) => file !== 'shared/domain/event-names.ts',
);
const named = (files: { file: string; text: string }[], name: string) =>
  files.filter(({ text }) => text.includes(`'${name}'`)).map(({ file }) => file);

describe('event names: emitted or reserved', () => {
  it("the emitted and the reserved names are disjoint and together are the spec's full list", () => {
    expect(EMITTED_EVENT_NAMES.filter((name) => (RESERVED_EVENT_NAMES as readonly string[]).includes(name))).toEqual(
      [],
    );
    expect([...EMITTED_EVENT_NAMES, ...RESERVED_EVENT_NAMES].sort()).toEqual([...SPEC_EVENT_NAMES].sort());
    expect([...EVENT_NAMES].sort()).toEqual([...SPEC_EVENT_NAMES].sort());
    expect(new Set(EVENT_NAMES).size).toBe(EVENT_NAMES.length);
  });

  it('every emitted name has a payload view, and no reserved name has one', () => {
    expect(Object.keys(EVENT_DECLARATIONS).sort()).toEqual([...EMITTED_EVENT_NAMES].sort());
    for (const name of EMITTED_EVENT_NAMES) expect(() => viewOf(EVENT_DECLARATIONS[name].payload), name).not.toThrow();
    expect(RESERVED_EVENT_NAMES.filter((name) => Object.hasOwn(EVENT_DECLARATIONS, name))).toEqual([]);
  });

  it.each(EMITTED_EVENT_NAMES.map((name) => [name] as const))(
    "%s is emitted somewhere in the service's code",
    (name) => {
      expect(named(DOMAIN, name).length).toBeGreaterThan(0);
    },
  );

  it.each(RESERVED_EVENT_NAMES.map((name) => [name] as const))('%s (reserved) is emitted nowhere', (name) => {
    expect(named(ELSEWHERE, name)).toEqual([]);
  });
});
