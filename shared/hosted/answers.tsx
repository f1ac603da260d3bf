import { renderDocument } from './layout.js';
import { RefusalPage, refusalStatus, type RefusalKind } from './pages/refusal.js';
import type { EnvironmentName } from './views.js';

/** A page's answer before the edge adds its headers: a document, or a redirect after a POST (303). */
export type PageAnswer = { status: number; html: string } | { status: 303; location: string };

export interface PageRequest {
  method: string;
  /** The path below /hosted (e.g. `/invoices/abc/checkout`). */
  path: string;
  query: Record<string, string | undefined>;
  /** The form's fields (POST only; the edge parsed and bounded them). */
  form(): Map<string, string>;
}

export const page = (status: number, node: unknown): PageAnswer => ({ status, html: renderDocument(node) });
export const redirect = (location: string): PageAnswer => ({ status: 303, location });

/** An answer that refuses, with the merchant and environment when the resource is known. */
export function refusal(
  kind: RefusalKind,
  about?: { merchantName?: string; environment?: EnvironmentName | undefined },
): PageAnswer {
  return page(
    refusalStatus(kind),
    <RefusalPage kind={kind} merchantName={about?.merchantName} environment={about?.environment} />,
  );
}

export const onlyGetOrPost = (request: PageRequest) => request.method !== 'GET' && request.method !== 'POST';
