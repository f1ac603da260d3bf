import { ApiError } from '../domain/errors.js';
import { HOSTED_PATHS } from '../domain/hosted-urls.js';
import { onlyGetOrPost, page, redirect, refusal, type PageAnswer, type PageRequest } from './answers.js';
import { claimChoiceOf, claimInput, claimKept, claimKeyOf, newClaimKey, type ClaimChoice } from './link-claim-form.js';
import { claimRefusal } from './messages.js';
import { PaymentLinkClaimPage, PaymentLinkStatePage, type LinkStateKind } from './pages/payment-link.js';
import type { HostedOperations } from './port.js';
import type { PaymentLinkClaimView } from './views.js';

/**
 * The claim page of a payment link: /hosted/payment-links/{slug} (the link's `url`).
 *
 * GET: an ACTIVE link shows the claim form (`?method=wallet|bank|usdc`, wallet by default), with a
 * hidden idempotency key drawn for this rendering; any other state shows its page. POST claims,
 * then redirects (303) to `?claimed=<method>`, where the page says where the money went. The same
 * form sent twice carries the same key: the operation answers the second send with the first
 * answer, so it claims once. A refusal shows the form again with the reason in an alert (and a
 * new key: the corrected form is another claim).
 */
export async function paymentLinkRoute(ops: HostedOperations, slug: string, request: PageRequest): Promise<PageAnswer> {
  if (onlyGetOrPost(request)) return refusal('method-not-allowed');
  const path = HOSTED_PATHS.paymentLink(slug);
  const choice = claimChoiceOf(request.query.method) ?? 'wallet';
  if (request.method === 'GET') {
    const link = await ops.paymentLinkClaim(slug);
    return unclaimable(link, path, claimChoiceOf(request.query.claimed)) ?? claimForm(link, path, choice);
  }

  const fields = request.form();
  try {
    await ops.claimPaymentLink(slug, claimInput(choice, fields), claimKeyOf(fields));
    return redirect(`${path}?claimed=${choice}`);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.code === 'IDEMPOTENCY_KEY_IN_USE') {
      const link = await ops.paymentLinkClaim(slug);
      return page(409, <PaymentLinkStatePage link={link} kind="processing" path={path} />);
    }
    const refused = claimRefusal(error);
    if (!refused) throw error;
    const link = await ops.paymentLinkClaim(slug);
    // Claimed, cancelled or expired meanwhile (another tab, the sender, the clock): the page says which.
    if (unclaimable(link, path, undefined)) return redirect(path);
    return claimForm(link, path, choice, {
      status: error.status,
      error: refused.message,
      invalidField: refused.field,
      kept: claimKept(fields, refused.clears),
    });
  }
}

function claimForm(
  link: PaymentLinkClaimView,
  path: string,
  choice: ClaimChoice,
  refused?: { status: number; error: string; invalidField: string | undefined; kept: ReturnType<typeof claimKept> },
): PageAnswer {
  const form = { path, choice, idempotencyKey: newClaimKey(), ...refused };
  return page(refused?.status ?? 200, <PaymentLinkClaimPage link={link} form={form} />);
}

/** The page of a link that takes no claim (undefined for an ACTIVE one); `claimed` is the method this visitor just used. */
function unclaimable(
  link: PaymentLinkClaimView,
  path: string,
  claimed: ClaimChoice | undefined,
): PageAnswer | undefined {
  const state = (kind: LinkStateKind) =>
    page(200, <PaymentLinkStatePage link={link} kind={kind} choice={claimed} path={path} />);
  switch (link.status) {
    case 'ACTIVE':
      return undefined;
    case 'SETTLED':
      return state(claimed ? 'sent' : 'claimed');
    case 'CLAIMED':
      return state(claimed ? 'on-its-way' : 'claimed');
    case 'PENDING_APPROVAL':
      return state('pending-approval');
    case 'EXPIRED':
      return refusal('expired-payment-link', { environment: link.environment });
    case 'CANCELLED':
      return refusal('cancelled-payment-link', { environment: link.environment });
  }
}
