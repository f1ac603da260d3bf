import type { CardService } from '../domain/cards/card-service.js';
import { operation } from './define.js';
import { listOperation } from './list.js';

/**
 * What the card operations need, and the operation builders typed by it, shared by the modules of
 * the card group (`cards.ts` joins them): `cardholder-operations.ts`, the card operations in
 * `cards.ts`, `card-authorization-operations.ts`.
 */
export interface CardsServices {
  cards: CardService;
}

export const cardOperation = operation<CardsServices>();
export const cardListOperation = listOperation<CardsServices>();
