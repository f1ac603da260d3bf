import { defineGroup, operation } from './define.js';

export interface DocsServices {
  /** The OpenAPI document of the whole catalog (built once per process). */
  openApiDocument(): unknown;
}

const op = operation<DocsServices>();

/** Public documentation of the API itself; the same function also answers unknown routes. */
export const DOCS = defineGroup<DocsServices>()('docs', {}, [
  op({
    name: 'getOpenApiDocument',
    summary: 'Get the OpenAPI document',
    description:
      'The OpenAPI 3.1 description of every operation of this API, generated from the operation catalog. Public: no key needed.',
    access: 'public',
    http: { method: 'GET', path: '/v1/openapi.json', status: 200 },
    output: 'openApiDocumentView',
    errors: [],
    run: async ({ services }) => services.openApiDocument(),
  }),
]);
