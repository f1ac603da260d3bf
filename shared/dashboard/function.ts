/**
 * The dashboard's function as plain data, read by CDK (lib/stacks/api-stack.ts: the route
 * `ANY /dashboard/{proxy+}` and `ANY /dashboard` of the HTTP API), the local server and the
 * dashboard's own edge alike (no import here, so CDK and the local server load nothing else).
 * docs/api.md "Dashboard".
 */
export const DASHBOARD_FUNCTION = {
  /** The folder under functions/ (functions/dashboard/handler.ts). */
  name: 'dashboard',
  /** Every page and asset lives under this path, on the API's own origin. */
  pathPrefix: '/dashboard',
  /** The HTTP API routes (the greedy one holds the rest of the path in `proxy`). */
  routePaths: ['/dashboard', '/dashboard/{proxy+}'],
  /** scrypt at N=2^17 takes ~0.3 s of a 1,769 MB core; a page makes a few catalog calls. */
  timeoutS: 15,
  memoryMb: 1769,
} as const;
