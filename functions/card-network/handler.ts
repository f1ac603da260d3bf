import { answerNetworkRequest } from '../../shared/domain/cards/network-request.js';
import { core } from '../../shared/runtime/core.js';
import { cardService } from '../../shared/runtime/services.js';

/** The issuing processor's real-time authorization request (event shape: shared/domain/cards/network-request.ts). */
export const handler = (event: unknown) => answerNetworkRequest(cardService(core()), event, console);
