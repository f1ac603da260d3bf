import * as z from 'zod/mini';
import type { EventDeclarations, EventWallets } from '../events/event-declaration.js';
import { balance, enumOf, id, lazy, text, view } from '../views.js';

/** The agents' events (docs/architecture.md "Events"): payload and when each is committed. */
export const AGENT_EVENTS = {
  'agent.created': {
    payload: /* @__PURE__ */ lazy(() => view(
      {
        id: id('wallet', 'The agent\'s wallet.'),
        name: text('The agent\'s name.'),
        apiKeyId: id('apiKey', 'The agent\'s key (never the raw value).'),
        permissions: z.array(z.string()).check(z.describe('Permissions of the agent\'s key.')),
        templateId: z.optional(text('The template it was created from, if any.')),
      },
      'An agent was created.',
      { id: 'wal_3kTnYpLqW8rXbZ2m', name: 'Research bot', apiKeyId: 'key_Tq8Lm2Zp4Rw9Xb1K', permissions: ['wallets:read', 'payments:write'] },
    )),
    occasion: 'An agent (a wallet with its own key) was created.',
  },
  'agent.paused': {
    payload: /* @__PURE__ */ lazy(() => view({ id: id('wallet', 'The agent\'s wallet.'), status: enumOf(['FROZEN'], 'Now FROZEN.') }, 'An agent was paused.', { id: 'wal_3kTnYpLqW8rXbZ2m', status: 'FROZEN' })),
    occasion: 'An agent was paused: its wallet is FROZEN.',
  },
  'agent.resumed': {
    payload: /* @__PURE__ */ lazy(() => view({ id: id('wallet', 'The agent\'s wallet.'), status: enumOf(['ACTIVE'], 'Now ACTIVE.') }, 'An agent was resumed.', { id: 'wal_3kTnYpLqW8rXbZ2m', status: 'ACTIVE' })),
    occasion: 'A paused agent was resumed: its wallet is ACTIVE again.',
  },
  'agent.deleted': {
    payload: /* @__PURE__ */ lazy(() => view(
      { id: id('wallet', 'The agent\'s wallet, now closed.'), sweptAmount: balance('Balance moved back to the main wallet.') },
      'An agent was deleted.',
      { id: 'wal_3kTnYpLqW8rXbZ2m', sweptAmount: '12.50000000' },
    )),
    occasion: 'An agent was deleted: its key revoked, its balance swept back, its wallet closed.',
  },
} as const satisfies EventDeclarations;

/** The agent's own wallet (an agent is a wallet with its own key). */
const agentWallet = (data: { id: string }) => [data.id];

/** The wallets each agent event concerns. */
export const AGENT_EVENT_WALLETS = {
  'agent.created': agentWallet,
  'agent.paused': agentWallet,
  'agent.resumed': agentWallet,
  'agent.deleted': agentWallet,
} as const satisfies EventWallets<typeof AGENT_EVENTS>;
