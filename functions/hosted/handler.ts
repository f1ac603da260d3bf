import { createHostedHandler } from '../../shared/hosted/edge.js';
import { core } from '../../shared/runtime/core.js';

/**
 * The hosted pages (`ANY /hosted/{proxy+}`): HTML for people, over the public operations of the
 * customers and invoices groups (none yet on this branch: every link answers as unknown).
 */
export const handler = createHostedHandler(core, () => ({
  operations: [],
  services: () => ({}),
  cursors: () => core().cursors(),
}));
