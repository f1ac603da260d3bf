/**
 * The hosted-pages function as plain data, read by CDK (lib/stacks/api-stack.ts: the route
 * `ANY /hosted/{proxy+}` of the HTTP API), the local server and the pages' own edge alike (no
 * import here, so CDK and the local server load nothing else). docs/api.md "Hosted pages".
 */
export const HOSTED_FUNCTION = {
  /** The folder under functions/ (functions/hosted/handler.ts). */
  name: 'hosted',
  /** Every page and asset lives under this path, on the API's own origin. */
  pathPrefix: '/hosted',
  /** The HTTP API route (API Gateway's greedy path variable: `proxy` holds the rest of the path). */
  routePath: '/hosted/{proxy+}',
  /** A page makes one or two catalog calls; a payment at most one processor charge, a claim one transaction (and a workflow start). */
  timeoutS: 10,
  /**
   * The function groups whose public operations the pages call: the hosted function gets their
   * grants (the table, the data key that seals card and account numbers, ...), nothing more.
   */
  groups: ['customers', 'invoices', 'payment-links'],
} as const;
