import { ApiError } from '../errors.js';
import type { Sealer } from '../sealing.js';
import { expiryOf, randomCvc, sandboxCardNumber, type RandomDigit } from './card-numbers.js';
import type { CardIssuer } from './ports.js';

/** What each sealed value of a card is bound to: a number sealed for one card opens only as that card's number. */
export const cardSealingContexts = {
  number: (cardId: string) => `${cardId}#number`,
  cvc: (cardId: string) => `${cardId}#cvc`,
};

/**
 * The sandbox issuer (decisions.md section 5): Luhn-valid Visa numbers with BIN 400000 and a CVC,
 * drawn from the CSPRNG, sealed at once (KMS envelopes in AWS, the local key locally); only the
 * last 4 digits are kept in clear.
 */
export function sandboxIssuer(sealer: Sealer, digit: RandomDigit): CardIssuer {
  return {
    async issue(card) {
      const number = sandboxCardNumber(digit);
      const cvc = randomCvc(digit);
      const [numberSealed, cvcSealed] = await Promise.all([
        sealer.seal(number, cardSealingContexts.number(card.id)),
        sealer.seal(cvc, cardSealingContexts.cvc(card.id)),
      ]);
      return {
        brand: 'visa',
        last4: number.slice(-4),
        ...expiryOf(card.issuedAt),
        secrets: { numberSealed, cvcSealed },
      };
    },
    async details(card) {
      if (!card.secrets) throw new Error(`card ${card.id} has no sealed details`);
      const [number, cvc] = await Promise.all([
        sealer.open(card.secrets.numberSealed, cardSealingContexts.number(card.id)),
        sealer.open(card.secrets.cvcSealed, cardSealingContexts.cvc(card.id)),
      ]);
      return { number, cvc, expMonth: card.expMonth, expYear: card.expYear };
    },
  };
}

/**
 * The production issuer until an issuing processor is configured: no live card can be made (a
 * client error naming the cause, not a card that could never be paid with).
 */
export const unconfiguredIssuer: CardIssuer = {
  async issue() {
    throw new ApiError(
      'INVALID_STATE',
      'Live cards need an issuing processor, which is not configured for this deployment.',
      { issuer: 'not_configured' },
    );
  },
  async details() {
    throw new ApiError(
      'INVALID_STATE',
      'Live cards need an issuing processor, which is not configured for this deployment.',
      { issuer: 'not_configured' },
    );
  },
};
