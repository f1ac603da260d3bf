import * as z from 'zod/mini';
import { balance, enumOf, id, lazy, text, view } from '../views.js';

/**
 * The payloads of the agents' own events, by name in `agent-events.ts`. Their own module: the
 * events file reads their types, and the area's view module (which re-exports them, so the view
 * registry names them) depends on the area's service, which depends on the event payload types.
 */

/** The payload of `agent.created` (`agent-events.ts`). */
export const agentCreatedEventView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: id('wallet', "The agent's wallet."),
      name: text("The agent's name."),
      apiKeyId: id('apiKey', "The agent's key (never the raw value)."),
      permissions: z.array(z.string()).check(z.describe("Permissions of the agent's key.")),
      templateId: z.optional(text('The template it was created from, if any.')),
    },
    'An agent was created.',
    {
      id: 'wal_3kTnYpLqW8rXbZ2m',
      name: 'Research bot',
      apiKeyId: 'key_Tq8Lm2Zp4Rw9Xb1K',
      permissions: ['wallets:read', 'payments:write'],
    },
  ),
);

/** The payload of `agent.paused` (`agent-events.ts`). */
export const agentPausedEventView = /* @__PURE__ */ lazy(() =>
  view({ id: id('wallet', "The agent's wallet."), status: enumOf(['FROZEN'], 'Now FROZEN.') }, 'An agent was paused.', {
    id: 'wal_3kTnYpLqW8rXbZ2m',
    status: 'FROZEN',
  }),
);

/** The payload of `agent.resumed` (`agent-events.ts`). */
export const agentResumedEventView = /* @__PURE__ */ lazy(() =>
  view(
    { id: id('wallet', "The agent's wallet."), status: enumOf(['ACTIVE'], 'Now ACTIVE.') },
    'An agent was resumed.',
    { id: 'wal_3kTnYpLqW8rXbZ2m', status: 'ACTIVE' },
  ),
);

/** The payload of `agent.deleted` (`agent-events.ts`). */
export const agentDeletedEventView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: id('wallet', "The agent's wallet, now closed."),
      sweptAmount: balance('Balance moved back to the main wallet.'),
    },
    'An agent was deleted.',
    { id: 'wal_3kTnYpLqW8rXbZ2m', sweptAmount: '12.50000000' },
  ),
);
