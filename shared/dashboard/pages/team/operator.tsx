import { ApiError } from '../../../domain/errors.js';
import type { ComplianceReportView } from '../../../domain/compliance/compliance-view.js';
import type { DisputeView } from '../../../domain/disputes/dispute-view.js';
import type { KybReviewView } from '../../../domain/reviews/review-view.js';
import type { DashboardRequest, DashboardRoute } from '../../context.js';
import { CsrfField, DashboardLayout, dashboardPage, seeOther } from '../../layout.js';
import { DASHBOARD_PATHS } from '../../paths.js';
import { Alert, Notice, filled, segment, settingsRoute, utc, validationText } from '../settings/common.js';

const COMPLIANCE = { title: 'Compliance report', current: DASHBOARD_PATHS.operatorCompliance };
const KYB = { title: 'KYB decisions', current: DASHBOARD_PATHS.operatorKyb };
const DISPUTES = { title: 'Disputes to resolve', current: DASHBOARD_PATHS.operatorDisputes };
const KYB_NOTICES = {
  verified: 'The organization is verified: it can go live once its other requirements are met.',
  rejected: 'The business details are rejected: the organization may submit them again.',
};
const DISPUTE_NOTICES = { resolved: 'The dispute is resolved and the held money has moved.' };
const OUTCOMES = [
  ['RESOLVED_AGENT', 'For the payer: the held amount goes back to the paying wallet'],
  ['RESOLVED_MERCHANT', 'For the receiver: the held amount goes back to the receiving wallet'],
  ['CLOSED', 'Close: the held amount goes back to the receiving wallet'],
] as const;

function CompliancePage(props: { request: DashboardRequest; report: ComplianceReportView }) {
  const { report } = props;
  return (
    <DashboardLayout session={props.request.session} title={COMPLIANCE.title} current={COMPLIANCE.current}>
      <p data-compliance-status={report.status}>
        Overall: <strong>{report.status.replace('_', ' ')}</strong>. {report.summary.passed} of {report.summary.total}{' '}
        controls pass, {report.summary.failed} fail, {report.summary.warnings} warn. Checked {utc(report.checkedAt)}.
      </p>
      <div class="table-wrap">
        <table>
          <caption>Controls</caption>
          <thead>
            <tr>
              <th scope="col">Control</th>
              <th scope="col">Outcome</th>
              <th scope="col">Finding</th>
            </tr>
          </thead>
          <tbody>
            {report.controls.map((control) => (
              <tr data-control={control.control} data-outcome={control.status}>
                <td class="mono">{control.control}</td>
                <td class={`check-${control.status === 'fail' ? 'fail' : 'pass'}`}>{control.status}</td>
                <td>{control.detail}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </DashboardLayout>
  );
}

function KybPage(props: { request: DashboardRequest; waiting: KybReviewView[]; error?: ApiError }) {
  const { request, waiting } = props;
  const { session } = request;
  return (
    <DashboardLayout session={session} title={KYB.title} current={KYB.current}>
      <Notice request={request} notices={KYB_NOTICES} />
      {props.error ? <Alert code={props.error.code}>{props.error.message}</Alert> : null}
      {waiting.length === 0 ? (
        <p data-empty>No organization is waiting for a decision.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption>Organizations waiting for a KYB decision, oldest first</caption>
            <thead>
              <tr>
                <th scope="col">Organization</th>
                <th scope="col">Legal name</th>
                <th scope="col">Tax id</th>
                <th scope="col">Address</th>
                <th scope="col">Submitted</th>
                <th scope="col">Decision</th>
              </tr>
            </thead>
            <tbody>
              {waiting.map((org) => (
                <tr data-organization-id={org.id}>
                  <td>
                    {org.name}
                    <span class="hint mono">{org.id}</span>
                  </td>
                  <td>{org.legalName}</td>
                  <td class="mono">{org.taxId}</td>
                  <td>
                    {[
                      org.address.line1,
                      org.address.line2,
                      org.address.city,
                      org.address.state,
                      org.address.postalCode,
                      org.address.country,
                    ]
                      .filter(Boolean)
                      .join(', ')}
                  </td>
                  <td>{utc(org.submittedAt)}</td>
                  <td>
                    <form method="post" action={DASHBOARD_PATHS.operatorKybDecision(org.id)} class="inline">
                      <CsrfField session={session} />
                      <button type="submit" name="status" value="VERIFIED">
                        Verify<span class="visually-hidden">{` ${org.name}`}</span>
                      </button>
                      <button type="submit" name="status" value="REJECTED" class="secondary">
                        Reject<span class="visually-hidden">{` ${org.name}`}</span>
                      </button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </DashboardLayout>
  );
}

function DisputesPage(props: { request: DashboardRequest; open: DisputeView[]; error?: ApiError }) {
  const { request, open } = props;
  const { session } = request;
  return (
    <DashboardLayout session={session} title={DISPUTES.title} current={DISPUTES.current}>
      <Notice request={request} notices={DISPUTE_NOTICES} />
      {props.error ? (
        <Alert code={props.error.code}>
          {props.error.code === 'VALIDATION_ERROR'
            ? validationText(props.error, { outcome: 'Outcome', note: 'Note' })
            : props.error.message}
        </Alert>
      ) : null}
      {open.length === 0 ? (
        <p data-empty>No dispute is waiting for a resolution.</p>
      ) : (
        open.map((dispute) => (
          <section class="card" data-dispute-id={dispute.id} aria-labelledby={`dispute-${dispute.id}`}>
            <h2 id={`dispute-${dispute.id}`}>
              {`${dispute.amount} ${dispute.currency}, ${dispute.type.toLowerCase().replace('_', ' ')} (${dispute.status})`}
            </h2>
            <dl class="report">
              <dt>Dispute</dt>
              <dd class="mono">{dispute.id}</dd>
              <dt>Payment</dt>
              <dd class="mono">{dispute.transactionId}</dd>
              <dt>Opened by (payer)</dt>
              <dd class="mono">{dispute.initiatorOrgId}</dd>
              <dt>Respondent (receiver)</dt>
              <dd class="mono">{dispute.respondentOrgId}</dd>
              <dt>Reason</dt>
              <dd>{dispute.reason}</dd>
              <dt>Response</dt>
              <dd>{dispute.response ?? 'none yet'}</dd>
              {dispute.evidenceUrl ? (
                <>
                  <dt>Evidence</dt>
                  <dd>
                    <a href={dispute.evidenceUrl} rel="noopener noreferrer">
                      {dispute.evidenceUrl}
                    </a>
                  </dd>
                </>
              ) : null}
              <dt>Respond by</dt>
              <dd>{utc(dispute.respondBy)}</dd>
            </dl>
            <form method="post" action={DASHBOARD_PATHS.operatorDisputeResolve(dispute.id)}>
              <CsrfField session={session} />
              <fieldset>
                <legend>Outcome</legend>
                {OUTCOMES.map(([value, label]) => (
                  <div class="check">
                    <input type="radio" id={`outcome-${dispute.id}-${value}`} name="outcome" value={value} required />
                    <label for={`outcome-${dispute.id}-${value}`}>{label}</label>
                  </div>
                ))}
              </fieldset>
              <div class="field">
                <label for={`note-${dispute.id}`}>Note (optional)</label>
                <textarea id={`note-${dispute.id}`} name="note" maxlength={1000} rows={2}></textarea>
              </div>
              <button type="submit">
                Resolve<span class="visually-hidden">{` dispute ${dispute.id}`}</span>
              </button>
            </form>
          </section>
        ))
      )}
    </DashboardLayout>
  );
}

const pendingKyb = async (request: DashboardRequest) =>
  (await request.call<{ data: KybReviewView[] }>('listPendingKyb')).data;
const openDisputes = async (request: DashboardRequest) =>
  (await request.call<{ data: DisputeView[] }>('listOpenDisputes')).data;

/** A refusal the page answers itself (a decided dispute, a bad field), over the queue again. */
const OWN_REFUSALS = new Set(['VALIDATION_ERROR', 'INVALID_STATE', 'DISPUTE_NOT_FOUND', 'ORGANIZATION_NOT_FOUND']);

export const OPERATOR_ROUTES: readonly DashboardRoute[] = [
  settingsRoute(/^\/dashboard\/operator\/compliance$/, COMPLIANCE, {
    async get(request) {
      const report = await request.call<ComplianceReportView>('getCompliance');
      return dashboardPage(200, <CompliancePage request={request} report={report} />);
    },
  }),
  settingsRoute(/^\/dashboard\/operator\/kyb$/, KYB, {
    async get(request) {
      return dashboardPage(200, <KybPage request={request} waiting={await pendingKyb(request)} />);
    },
  }),
  settingsRoute(/^\/dashboard\/operator\/kyb\/([^/]+)$/, KYB, {
    async post(request, params) {
      const status = filled(request.form(), 'status') ?? '';
      try {
        await request.call('decideKyb', { params: { id: segment(params[0]) }, body: { status } });
      } catch (error) {
        if (!(error instanceof ApiError) || !OWN_REFUSALS.has(error.code)) throw error;
        return dashboardPage(
          error.status,
          <KybPage request={request} waiting={await pendingKyb(request)} error={error} />,
        );
      }
      return seeOther(`${DASHBOARD_PATHS.operatorKyb}?done=${status === 'VERIFIED' ? 'verified' : 'rejected'}`);
    },
  }),
  settingsRoute(/^\/dashboard\/operator\/disputes$/, DISPUTES, {
    async get(request) {
      return dashboardPage(200, <DisputesPage request={request} open={await openDisputes(request)} />);
    },
  }),
  settingsRoute(/^\/dashboard\/operator\/disputes\/([^/]+)\/resolve$/, DISPUTES, {
    async post(request, params) {
      const form = request.form();
      const note = filled(form, 'note');
      const body = { outcome: filled(form, 'outcome') ?? '', ...(note ? { note } : {}) };
      try {
        await request.call('resolveDispute', { params: { id: segment(params[0]) }, body });
      } catch (error) {
        if (!(error instanceof ApiError) || !OWN_REFUSALS.has(error.code)) throw error;
        return dashboardPage(
          error.status,
          <DisputesPage request={request} open={await openDisputes(request)} error={error} />,
        );
      }
      return seeOther(`${DASHBOARD_PATHS.operatorDisputes}?done=resolved`);
    },
  }),
];
