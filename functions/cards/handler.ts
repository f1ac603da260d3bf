import { createHttpHandler } from '../../shared/http/middleware.js';
import { CARDS } from '../../shared/operations/cards.js';
import { core } from '../../shared/runtime/core.js';
import { cardService } from '../../shared/runtime/services/cards.js';

export const handler = createHttpHandler(CARDS, core, () => ({ cards: cardService(core()) }));
