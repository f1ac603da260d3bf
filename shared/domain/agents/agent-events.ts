import { eventsOf } from '../events/event-declaration.js';
import type * as views from './agent-event-views.js';

/** The agent's own wallet (an agent is a wallet with its own key). */
const agentWallet = (data: { id: string }) => [data.id];

/** The agents' events (docs/architecture.md "Events"): payload view, when each is committed, the wallets it concerns. */
export const AGENT_EVENTS = eventsOf<typeof views>()({
  'agent.created': {
    payload: 'agentCreatedEventView',
    occasion: 'An agent (a wallet with its own key) was created.',
    wallets: agentWallet,
  },
  'agent.paused': {
    payload: 'agentPausedEventView',
    occasion: 'An agent was paused: its wallet is FROZEN.',
    wallets: agentWallet,
  },
  'agent.resumed': {
    payload: 'agentResumedEventView',
    occasion: 'A paused agent was resumed: its wallet is ACTIVE again.',
    wallets: agentWallet,
  },
  'agent.deleted': {
    payload: 'agentDeletedEventView',
    occasion: 'An agent was deleted: its key revoked, its balance swept back, its wallet closed.',
    wallets: agentWallet,
  },
});
