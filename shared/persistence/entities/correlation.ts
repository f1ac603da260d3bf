import { currentCorrelationId } from '../../observability/scope.js';
import type { Item } from '../item.js';

/**
 * The correlation id on the items whose stream records become events (journal records, outbox
 * items): the request id of the request that wrote them (shared/observability/scope.ts), read back
 * by the journal's stream consumer and carried on the events it publishes. A short attribute name:
 * it rides on every journal record (a few bytes of the item, no index).
 */
export const CORRELATION_ATTRIBUTE = 'cid';

/** The attribute to write: `correlationId` when given, else the current invocation's; none outside one. */
export function correlationAttribute(correlationId: string | undefined = currentCorrelationId()): Item {
  return correlationId ? { [CORRELATION_ATTRIBUTE]: correlationId } : {};
}

/** `{correlationId}` of an item (a stream record's new image), if it has one. */
export function correlationOfItem(item: Item | undefined): { correlationId?: string } {
  const value = item?.[CORRELATION_ATTRIBUTE];
  return typeof value === 'string' && value.length > 0 ? { correlationId: value } : {};
}
