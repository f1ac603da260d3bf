import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/domain/clock.js';
import { unconfiguredProcessor } from '../../shared/domain/payment-methods/unconfigured-processor.js';
import { paymentProcessors } from '../../shared/runtime/processor.js';
import { refusalOf } from '../fakes/service-world.js';

describe('payment processors by environment', () => {
  const processors = paymentProcessors({ clock: fixedClock(new Date('2026-11-27T10:00:00.000Z')) });
  const card = { type: 'card' as const, number: '4242424242424242', expMonth: 12, expYear: 2031, cvc: '123' };

  it('answers the sandbox adapter in SANDBOX (the same one every call)', async () => {
    expect(processors('SANDBOX')).toBe(processors('SANDBOX'));
    expect((await processors('SANDBOX').tokenize(card)).last4).toBe('4242');
  });

  it('refuses every call in PRODUCTION until a processor is configured (409 INVALID_STATE, processor not_configured)', async () => {
    const live = processors('PRODUCTION');
    expect(live).toBe(unconfiguredProcessor);
    const refused = { code: 'INVALID_STATE', details: { processor: 'not_configured' } };
    expect(await refusalOf(live.tokenize(card))).toMatchObject(refused);
    expect(
      await refusalOf(
        live.charge({ processorToken: 'sbxpm_card_ok_1', amount: new Big('1.00'), currency: 'USD', reference: 'r' }),
      ),
    ).toMatchObject(refused);
    expect(await refusalOf(live.settle('ch_1'))).toMatchObject(refused);
    expect(
      await refusalOf(live.refund({ processorChargeId: 'ch_1', amount: new Big('1.00'), reference: 'r' })),
    ).toMatchObject(refused);
  });
});
