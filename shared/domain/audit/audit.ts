import type { IdGenerator } from '../ids.js';
import type { AuditChange } from './ports.js';
import type { Actor, Environment } from '../tenancy.js';
import type { EmittedEventName, EventData } from '../event-names.js';
import type { AuditAction } from './actions.js';

export interface AuditInput {
  organizationId: string;
  environment: Environment;
  actor: Actor;
  action: AuditAction;
  resource: string;
  resourceId: string;
  metadata?: Record<string, unknown>;
  walletId?: string;
  createdAt: string;
}

/** The audit entry of an action, as a change written in the action's own transaction. */
export function auditChange(input: AuditInput, ids: IdGenerator): AuditChange {
  return {
    type: 'audit',
    entry: {
      id: ids('auditLog'),
      organizationId: input.organizationId,
      environment: input.environment,
      actorType: input.actor.actorType,
      actorId: input.actor.actorId,
      action: input.action,
      resource: input.resource,
      resourceId: input.resourceId,
      metadata: input.metadata ?? {},
      ipAddress: input.actor.ipAddress,
      createdAt: input.createdAt,
      ...(input.walletId ? { walletId: input.walletId } : {}),
    },
  };
}

export interface EventInput<N extends EmittedEventName> {
  organizationId: string;
  environment: Environment;
  type: N;
  /** The public payload of the event (shared/domain/event-names.ts). */
  data: EventData<N>;
  createdAt: string;
}

/** The outbox event of an action, written in the action's own transaction. */
export function eventChange<N extends EmittedEventName>(input: EventInput<N>, ids: IdGenerator): AuditChange {
  return {
    type: 'event',
    event: {
      id: ids('event'),
      type: input.type,
      organizationId: input.organizationId,
      environment: input.environment,
      createdAt: input.createdAt,
      data: input.data as Record<string, unknown>,
    },
  };
}
