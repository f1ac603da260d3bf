import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { fixedClock } from '../../shared/domain/clock.js';
import {
  defaultAfterRemoval,
  MAX_PAYMENT_METHODS,
  SESSION_TTL_MS,
} from '../../shared/domain/customers/customer-rules.js';
import { createCustomerService } from '../../shared/domain/customers/customer-service.js';
import type { PaymentMethod } from '../../shared/domain/customers/types.js';
import { newId } from '../../shared/domain/ids.js';
import { createSandboxProcessor } from '../../shared/domain/payment-methods/sandbox-processor.js';
import { unconfiguredProcessor } from '../../shared/domain/payment-methods/unconfigured-processor.js';
import type { Environment } from '../../shared/domain/tenancy.js';
import { localSealer } from '../../shared/sealing/local-sealer.js';
import { memoryCustomerStore } from '../fakes/memory-customer-store.js';
import { refusalOf, serviceWorld } from '../fakes/service-world.js';

const CARD = '4242424242424242';
const card = (number = CARD) => ({ type: 'card' as const, number, expMonth: 12, expYear: 2030, cvc: '123' });

function world() {
  const clock = fixedClock(new Date('2026-11-27T10:00:00.000Z'));
  const { deps, ctx, agentCtx, scope } = serviceWorld(clock, { addWallet: () => undefined });
  const fake = memoryCustomerStore({ [scope.organizationId]: 'Acme Inc' });
  const sandbox = createSandboxProcessor({ clock, randomHex: () => randomBytes(8).toString('hex') });
  const service = createCustomerService({
    store: fake.store,
    clock,
    ids: deps.ids,
    sealer: localSealer(randomBytes(32).toString('hex')),
    processors: (environment: Environment) => (environment === 'SANDBOX' ? sandbox : unconfiguredProcessor),
    hostedUrl: (path) => `https://pay.example.com${path}`,
  });
  const customer = (email = `c-${newId('customer').slice(-6)}@example.com`, at = ctx) =>
    service.create(at, AUDIT.customer.create, { email, name: 'Ada' });
  const tokenOf = (url: string) => url.split('/').pop()!;
  return { clock, ctx, agentCtx, scope, fake, service, customer, tokenOf };
}

describe('customer service', () => {
  it('refuses a second customer with the same email in another case, and scopes agent keys to their wallet', async () => {
    const { ctx, agentCtx, service, customer } = world();
    const ada = await customer('Ada@Example.com');
    expect(await refusalOf(customer('ada@example.COM'))).toMatchObject({ code: 'CUSTOMER_EMAIL_TAKEN' });
    const walletId = newId('wallet');
    const agents = await customer('agent@example.com', agentCtx(walletId));
    expect(agents.walletId).toBe(walletId);
    expect((await service.list(agentCtx(walletId), {}, { limit: 10 })).items.map((c) => c.id)).toEqual([agents.id]);
    expect(await refusalOf(service.get(agentCtx(walletId), ada.id))).toMatchObject({ code: 'CUSTOMER_NOT_FOUND' });
    expect(await refusalOf(service.get(agentCtx(newId('wallet')), agents.id))).toMatchObject({
      code: 'CUSTOMER_NOT_FOUND',
    });
    expect((await service.list(ctx, { email: 'ADA@example.com' }, { limit: 10 })).items.map((c) => c.id)).toEqual([
      ada.id,
    ]);
    expect((await service.list(agentCtx(walletId), { email: 'ada@example.com' }, { limit: 10 })).items).toEqual([]);
  });

  it('patches fields, null removing optional ones, and emits customer.updated', async () => {
    const { ctx, service, fake } = world();
    const made = await service.create(ctx, AUDIT.customer.create, {
      email: 'p@example.com',
      name: 'P',
      phone: '1',
      companyName: 'Co',
    });
    const patched = await service.update(ctx, AUDIT.customer.update, made.id, { phone: null, name: 'Q' });
    expect(patched).toMatchObject({ name: 'Q', companyName: 'Co' });
    expect(patched.phone).toBeUndefined();
    expect(await service.get(ctx, made.id)).toEqual(patched);
    expect(fake.events.map((event) => event.type)).toEqual(['customer.created', 'customer.updated']);
  });

  it('hands out single-use 24-hour links stored only as a hash; completes once; expires', async () => {
    const { clock, ctx, service, fake, customer, tokenOf } = world();
    const ada = await customer();
    const link = await service.createSetupLink(ctx, AUDIT.customer.createSetupUrl, ada.id);
    const token = tokenOf(link.url);
    expect(link.url).toBe(`https://pay.example.com/hosted/payment-methods/${token}`);
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(Date.parse(link.expiresAt) - clock.now().getTime()).toBe(SESSION_TTL_MS);
    expect(fake.dump()).not.toContain(token);
    expect(await service.getSession(token)).toMatchObject({ kind: 'setup', status: 'OPEN', merchantName: 'Acme Inc' });

    const saved = await service.completeSession(ctx, AUDIT.customer.savePaymentMethod, token, card());
    expect(saved).toMatchObject({ brand: 'visa', last4: '4242', isDefault: true });
    expect(fake.audit.at(-1)).toMatchObject({ actorType: 'USER', actorId: ada.id });
    expect(
      await refusalOf(service.completeSession(ctx, AUDIT.customer.savePaymentMethod, token, card())),
    ).toMatchObject({
      code: 'INVALID_STATE',
      details: { status: 'COMPLETED' },
    });

    const late = tokenOf((await service.createSetupLink(ctx, AUDIT.customer.createSetupUrl, ada.id)).url);
    clock.advance(SESSION_TTL_MS);
    expect((await service.getSession(late)).status).toBe('EXPIRED');
    expect(await refusalOf(service.completeSession(ctx, AUDIT.customer.savePaymentMethod, late, card()))).toMatchObject(
      {
        code: 'INVALID_STATE',
        details: { status: 'EXPIRED' },
      },
    );
    expect(await refusalOf(service.getSession('x'.repeat(32)))).toMatchObject({
      code: 'PAYMENT_METHOD_SESSION_NOT_FOUND',
    });
    expect(await refusalOf(service.getSession('../etc'))).toMatchObject({ code: 'PAYMENT_METHOD_SESSION_NOT_FOUND' });
  });

  it('validates before it saves anything, and keeps the number sealed out of items, events and audit', async () => {
    const { ctx, service, fake, customer } = world();
    const ada = await customer();
    expect(
      await refusalOf(
        service.attachTestMethod(ctx, AUDIT.customer.savePaymentMethod, ada.id, { number: '4242424242424241' }),
      ),
    ).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'number' } });
    await service.attachTestMethod(ctx, AUDIT.customer.savePaymentMethod, ada.id, {});
    await service.attachTestMethod(ctx, AUDIT.customer.savePaymentMethod, ada.id, {
      type: 'us_bank_account',
      accountNumber: '000111222333',
    });
    const everything = JSON.stringify([fake.dump(), fake.audit, fake.events]);
    expect(everything).toContain('4242');
    expect(everything).not.toContain(CARD);
    expect(everything).not.toContain('000111222333');
  });

  it('makes the first method the default, replaces it through an update link, and picks the newest remaining after removal', async () => {
    const { clock, ctx, service, customer, tokenOf } = world();
    const ada = await customer();
    expect(await refusalOf(service.createUpdateLink(ctx, AUDIT.customer.createUpdateUrl, ada.id))).toMatchObject({
      code: 'INVALID_STATE',
    });
    const first = await service.attachTestMethod(ctx, AUDIT.customer.savePaymentMethod, ada.id, {});
    clock.advance(1000);
    const second = await service.attachTestMethod(ctx, AUDIT.customer.savePaymentMethod, ada.id, {
      number: '5555555555554444',
    });
    expect([first.isDefault, second.isDefault]).toEqual([true, false]);
    clock.advance(1000);
    const token = tokenOf((await service.createUpdateLink(ctx, AUDIT.customer.createUpdateUrl, ada.id)).url);
    expect((await service.getSession(token)).currentMethod).toEqual({ type: 'card', brand: 'visa', last4: '4242' });
    const third = await service.completeSession(ctx, AUDIT.customer.savePaymentMethod, token, {
      ...card('378282246310005'),
      cvc: '1234',
    });
    expect(third).toMatchObject({ brand: 'amex', isDefault: true });
    const listed = (await service.listMethods(ctx, ada.id, { limit: 20 })).items.map((m) => m.id);
    expect(listed).toEqual([third.id, second.id]);

    await service.removeMethod(ctx, AUDIT.customer.removePaymentMethod, ada.id, third.id);
    expect((await service.get(ctx, ada.id)).defaultPaymentMethodId).toBe(second.id);
    expect(
      await refusalOf(service.removeMethod(ctx, AUDIT.customer.removePaymentMethod, ada.id, third.id)),
    ).toMatchObject({ code: 'PAYMENT_METHOD_NOT_FOUND' });
    await service.removeMethod(ctx, AUDIT.customer.removePaymentMethod, ada.id, second.id);
    expect((await service.get(ctx, ada.id)).defaultPaymentMethodId).toBeNull();
  });

  it('refuses links and saving methods in PRODUCTION until a processor is configured (409 INVALID_STATE)', async () => {
    const { ctx, service, fake } = world();
    const live = { ...ctx, principal: { ...ctx.principal, environment: 'PRODUCTION' as const } };
    const made = await service.create(live, AUDIT.customer.create, { email: 'live@example.com', name: 'Live' });
    const notConfigured = { code: 'INVALID_STATE', details: { processor: 'not_configured' } };
    expect(await refusalOf(service.createSetupLink(live, AUDIT.customer.createSetupUrl, made.id))).toMatchObject(
      notConfigured,
    );
    expect(await refusalOf(service.createUpdateLink(live, AUDIT.customer.createUpdateUrl, made.id))).toMatchObject(
      notConfigured,
    );
    expect(
      await refusalOf(service.attachTestMethod(live, AUDIT.customer.savePaymentMethod, made.id, { number: CARD })),
    ).toMatchObject(notConfigured);
    expect((await service.listMethods(live, made.id, { limit: 10 })).items).toEqual([]);
    expect(fake.audit.filter((entry) => entry.resourceId === made.id)).toHaveLength(1);
  });

  it(`keeps at most ${MAX_PAYMENT_METHODS} methods per customer`, async () => {
    const { ctx, service, customer } = world();
    const ada = await customer();
    for (let i = 0; i < MAX_PAYMENT_METHODS; i += 1)
      await service.attachTestMethod(ctx, AUDIT.customer.savePaymentMethod, ada.id, {});
    expect(await refusalOf(service.attachTestMethod(ctx, AUDIT.customer.savePaymentMethod, ada.id, {}))).toMatchObject({
      code: 'INVALID_STATE',
    });
  });

  it('answers the invoices area the method to charge: the given one, else the default, else PAYMENT_METHOD_NOT_FOUND', async () => {
    const { ctx, scope, service, customer } = world();
    const ada = await customer();
    expect(await refusalOf(service.paymentMethodForCharge(scope, ada.id))).toMatchObject({
      code: 'PAYMENT_METHOD_NOT_FOUND',
    });
    const first = await service.attachTestMethod(ctx, AUDIT.customer.savePaymentMethod, ada.id, {});
    const second = await service.attachTestMethod(ctx, AUDIT.customer.savePaymentMethod, ada.id, {
      number: '4000000000000002',
    });
    const chosen = await service.paymentMethodForCharge(scope, ada.id);
    expect(chosen).toMatchObject({ id: first.id, type: 'card', brand: 'visa', last4: '4242' });
    expect(chosen.processorToken).toMatch(/^sbxpm_card_ok_/);
    expect((await service.paymentMethodForCharge(scope, ada.id, second.id)).processorToken).toMatch(
      /^sbxpm_card_card-declined_/,
    );
    expect(await refusalOf(service.paymentMethodForCharge(scope, ada.id, newId('paymentMethod')))).toMatchObject({
      code: 'PAYMENT_METHOD_NOT_FOUND',
    });
    expect(
      await refusalOf(service.paymentMethodForCharge({ ...scope, organizationId: newId('organization') }, ada.id)),
    ).toMatchObject({ code: 'CUSTOMER_NOT_FOUND' });
  });
});

describe('defaultAfterRemoval', () => {
  const method = (id: string, minute: number) =>
    ({ id, createdAt: `2026-11-27T10:0${minute}:00.000Z` }) as PaymentMethod;
  const methods = [method('pm_a', 1), method('pm_b', 3), method('pm_c', 2)];
  it('keeps another default, else takes the newest remaining, else none', () => {
    expect(defaultAfterRemoval('pm_a', methods, 'pm_b')).toBe('pm_a');
    expect(defaultAfterRemoval('pm_b', methods, 'pm_b')).toBe('pm_c');
    expect(defaultAfterRemoval('pm_a', [methods[0]!], 'pm_a')).toBeNull();
  });
});
