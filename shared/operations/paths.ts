import { ApiError } from '../domain/errors.js';

/**
 * The path templates of the catalog (`/v1/wallets/{id}`): API Gateway's `{name}` syntax, the one
 * pattern of a path parameter, and the one route-key format (`"METHOD /path"`). CDK's routes, the
 * local server, the HTTP middleware's routing and the tests all read them from here.
 */

/** `{name}` in a path template: the one pattern of a path parameter. */
const PATH_PARAMETER = /\{(\w+)\}/g;

/** The names of a path template's parameters, in order (`/v1/webhooks/{id}/deliveries/{deliveryId}` -> id, deliveryId). */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(PATH_PARAMETER)].map((match) => match[1]!);
}

/** The path template with each `{name}` replaced by `value(name)` (as given: encode it if it needs to be). */
export function fillPath(path: string, value: (name: string) => string): string {
  return path.replace(PATH_PARAMETER, (_match, name: string) => value(name));
}

/** The route key of an operation or route: `"METHOD /path"`, as API Gateway's HTTP API names routes. */
export function routeKeyOf(route: { readonly method: string; readonly path: string }): string {
  return `${route.method} ${route.path}`;
}

/** The 404 of a request no route matches (the local server, API Gateway's `$default` route). */
export function noRoute(method: string, path: string): ApiError {
  return new ApiError('NOT_FOUND', `No route ${method} ${path}.`);
}
