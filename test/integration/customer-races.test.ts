import { randomBytes } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { fixedClock } from '../../shared/domain/clock.js';
import { createCustomerService, type CustomerService } from '../../shared/domain/customers/customer-service.js';
import type { CustomerStore } from '../../shared/domain/customers/ports.js';
import { ApiError } from '../../shared/domain/errors.js';
import { newId } from '../../shared/domain/ids.js';
import { createSandboxProcessor } from '../../shared/domain/payment-methods/sandbox-processor.js';
import { ORGANIZATION_PERMISSIONS, type RequestContext } from '../../shared/domain/tenancy.js';
import { createCustomerStore } from '../../shared/persistence/customer-store.js';
import type { TableContext } from '../../shared/persistence/table-context.js';
import { localSealer } from '../../shared/sealing/local-sealer.js';
import { createTestTable } from '../fixtures/table.js';

/**
 * The customers area under interleaved requests (issue 21), over DynamoDB Local, with the service
 * built directly so that two requests can be interleaved deterministically (a gate holds one
 * request's commit until the other has committed).
 */

const ORG = 'org_review';
const ctx: RequestContext = {
  principal: {
    kind: 'ORGANIZATION',
    keyId: 'key_review',
    organizationId: ORG,
    environment: 'SANDBOX',
    permissions: [...ORGANIZATION_PERMISSIONS],
    walletId: null,
  },
  actor: { actorType: 'API_KEY', actorId: 'key_review', ipAddress: '198.51.100.7' },
  requestId: 'req_review',
};
const scope = { organizationId: ORG, environment: 'SANDBOX' as const };

async function scanAll(table: TableContext) {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.client.send(
      new ScanCommand({ TableName: table.tableName, ...(startKey ? { ExclusiveStartKey: startKey } : {}) }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

describe('customers under interleaved requests', () => {
  let table: TableContext;
  let store: CustomerStore;
  const clock = fixedClock(new Date('2026-11-27T10:00:00.000Z'));
  /** Holds the next commit that `matches` until `release` is called; `reached` resolves when it waits. */
  let gate:
    | { matches: (changes: readonly { type: string }[]) => boolean; reached: () => void; held: Promise<void> }
    | undefined;
  let service: CustomerService;

  const holdNextCommit = (matches: (changes: readonly { type: string }[]) => boolean) => {
    let reached!: () => void;
    let release!: () => void;
    const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    gate = { matches, reached, held };
    return { reached: reachedPromise, release };
  };

  beforeAll(async () => {
    table = await createTestTable();
    const real = createCustomerStore(table);
    store = {
      ...real,
      async commit(changes) {
        const current = gate;
        if (current && current.matches(changes)) {
          gate = undefined;
          current.reached();
          await current.held;
        }
        return real.commit(changes);
      },
    };
    const sandbox = createSandboxProcessor({ clock, randomHex: () => randomBytes(8).toString('hex') });
    service = createCustomerService({
      store,
      clock,
      ids: newId,
      sealer: localSealer(randomBytes(32).toString('hex')),
      processors: () => sandbox,
      hostedUrl: (path) => `https://pay.example.test${path}`,
    });
  });

  let n = 0;
  const newCustomer = () =>
    service.create(ctx, AUDIT.customer.create, { email: `race${++n}@example.com`, name: `Race ${n}` });
  const attach = async (customerId: string, number = '4242424242424242') => {
    clock.advance(1000);
    return service.attachTestMethod(ctx, AUDIT.customer.savePaymentMethod, customerId, { number });
  };
  const removes = (id: string) => (changes: readonly { type: string }[]) =>
    changes.some((c) => c.type === 'removePaymentMethod' && (c as { paymentMethodId?: string }).paymentMethodId === id);

  it('removing the default while another method is removed never leaves a removed method as the default', async () => {
    const customer = await newCustomer();
    const a = await attach(customer.id); // default (oldest)
    const c = await attach(customer.id, '5555555555554444');
    const b = await attach(customer.id, '378282246310005'); // newest
    expect(a.isDefault).toBe(true);

    // Request 1 removes the default A; it read the method list [B, C, A] and would promote B.
    const { reached, release } = holdNextCommit(removes(a.id));
    clock.advance(1000);
    const first = service.removeMethod(ctx, AUDIT.customer.removePaymentMethod, customer.id, a.id);
    await reached;
    // Request 2 removes B meanwhile (A still the default, so the default is unchanged) and commits first.
    await service.removeMethod(ctx, AUDIT.customer.removePaymentMethod, customer.id, b.id);
    release();
    await first;

    // Only C is left: it must be the default, and chargeable as the default.
    const after = await service.get(ctx, customer.id);
    const methods = await service.listMethods(ctx, customer.id, { limit: 10 });
    expect(methods.items.map((m) => m.id)).toEqual([c.id]);
    expect(after.defaultPaymentMethodId).toBe(c.id);
    expect(methods.items[0]?.isDefault).toBe(true);
    await expect(service.paymentMethodForCharge(scope, customer.id)).resolves.toMatchObject({ id: c.id });
  });

  it('removing the default while a method is saved promotes the newest remaining method', async () => {
    const customer = await newCustomer();
    const a = await attach(customer.id); // default
    await attach(customer.id, '5555555555554444');
    const { reached, release } = holdNextCommit(removes(a.id));
    clock.advance(1000);
    const first = service.removeMethod(ctx, AUDIT.customer.removePaymentMethod, customer.id, a.id);
    await reached;
    const d = await attach(customer.id, '6011111111111117'); // newest, saved meanwhile
    release();
    await first;
    const after = await service.get(ctx, customer.id);
    // docs/api.md / contract: removing the default makes the NEWEST remaining method the default.
    expect(after.defaultPaymentMethodId).toBe(d.id);
  });

  it('a PATCH answers (and emits) the customer as written, not a copy read before a concurrent change', async () => {
    const customer = await newCustomer();
    const { reached, release } = holdNextCommit((changes) => changes.some((c) => c.type === 'updateCustomer'));
    const patch = service.update(ctx, AUDIT.customer.update, customer.id, { phone: '+1 555 0100' });
    await reached;
    // Meanwhile the customer saves its first method (it becomes the default) and another PATCH sets the company.
    const method = await attach(customer.id);
    await service.update(ctx, AUDIT.customer.update, customer.id, { companyName: 'Concurrent Co' });
    release();
    const answered = await patch;
    const stored = await service.get(ctx, customer.id);
    expect(stored).toMatchObject({ defaultPaymentMethodId: method.id, companyName: 'Concurrent Co' });
    // The PATCH's answer (and its customer.updated event, built from the same object) must match what is stored.
    expect(answered.defaultPaymentMethodId).toBe(stored.defaultPaymentMethodId);
    expect(answered.companyName).toBe(stored.companyName);
  });

  it('completes a link once under a concurrent second completion (the loser: INVALID_STATE, nothing saved)', async () => {
    const customer = await newCustomer();
    const link = await service.createSetupLink(ctx, AUDIT.customer.createSetupUrl, customer.id);
    const token = new URL(link.url).pathname.split('/').pop()!;
    const card = { type: 'card' as const, number: '4242424242424242', expMonth: 12, expYear: 2031, cvc: '123' };
    const { reached, release } = holdNextCommit((changes) =>
      changes.some((change) => change.type === 'completePaymentMethodSession'),
    );
    const first = service.completeSession(ctx, AUDIT.customer.savePaymentMethod, token, card);
    await reached;
    const second = await service.completeSession(ctx, AUDIT.customer.savePaymentMethod, token, card);
    release();
    const loser = await first.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(second.isDefault).toBe(true);
    expect(loser).toBeInstanceOf(ApiError);
    expect((loser as ApiError).code).toBe('INVALID_STATE');
    const methods = await service.listMethods(ctx, customer.id, { limit: 10 });
    expect(methods.items.map((m) => m.id)).toEqual([second.id]);
    const stored = await service.get(ctx, customer.id);
    expect(stored.defaultPaymentMethodId).toBe(second.id);
  });

  it('expires a link after exactly 24 hours, stores only the hash of its token, never the number', async () => {
    const customer = await newCustomer();
    const link = await service.createSetupLink(ctx, AUDIT.customer.createSetupUrl, customer.id);
    const token = new URL(link.url).pathname.split('/').pop()!;
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
    clock.advance(24 * 3600_000 - 1);
    expect((await service.getSession(token)).status).toBe('OPEN');
    clock.advance(1);
    expect((await service.getSession(token)).status).toBe('EXPIRED');
    const card = { type: 'card' as const, number: '4000000000009995', expMonth: 12, expYear: 2031, cvc: '123' };
    await expect(service.completeSession(ctx, AUDIT.customer.savePaymentMethod, token, card)).rejects.toMatchObject({
      code: 'INVALID_STATE',
    });
    const saved = await service.attachTestMethod(ctx, AUDIT.customer.savePaymentMethod, customer.id, {
      number: '4000000000009995',
    });
    expect(saved.last4).toBe('9995');
    const stored = JSON.stringify(await scanAll(table));
    expect(stored).not.toContain(token);
    expect(stored).not.toContain('4000000000009995');
    expect(stored).not.toContain('4242424242424242');
  });
});
