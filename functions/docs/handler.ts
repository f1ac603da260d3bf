import { answerUnknownRoute } from '../../shared/http/routes.js';
import { createHttpHandler } from '../../shared/http/middleware.js';
import { DOCS } from '../../shared/operations/docs.js';
import { openApiDocument } from '../../shared/operations/openapi.js';
import { core } from '../../shared/runtime/core.js';

/** The OpenAPI document, and the catch-all route: unknown paths answer 404 or 405 with our envelope. */
export const handler = createHttpHandler(DOCS, core, () => ({ openApiDocument }), { fallback: answerUnknownRoute });
