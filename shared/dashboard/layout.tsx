import type { Child } from 'hono/jsx';
import type { Permission } from '../domain/tenancy.js';
import { DASHBOARD_ASSETS } from './assets.js';
import type { DashboardAnswer, DashboardSession } from './context.js';
import { DASHBOARD_PATHS } from './paths.js';

/** The hidden field every form of a signed-in page carries (the edge refuses a POST without it). */
export const CSRF_FIELD = '_csrf';

export function CsrfField(props: { session: DashboardSession }) {
  return <input type="hidden" name={CSRF_FIELD} value={props.session.csrfToken} />;
}

/** A navigation entry, shown to those whose role holds `permission` (every role when absent). */
interface NavItem {
  href: string;
  label: string;
  permission?: Permission;
}

const ORGANIZATION_NAV: readonly NavItem[] = [
  { href: DASHBOARD_PATHS.overview, label: 'Overview' },
  { href: DASHBOARD_PATHS.approvals, label: 'Approvals', permission: 'payments:read' },
  { href: DASHBOARD_PATHS.agents, label: 'Agents', permission: 'wallets:read' },
  { href: DASHBOARD_PATHS.wallets, label: 'Wallets', permission: 'wallets:read' },
  { href: DASHBOARD_PATHS.activation, label: 'Activation', permission: 'admin' },
  { href: DASHBOARD_PATHS.apiKeys, label: 'API keys', permission: 'admin' },
  { href: DASHBOARD_PATHS.webhooks, label: 'Webhooks', permission: 'admin' },
  { href: DASHBOARD_PATHS.team, label: 'Team' },
  { href: DASHBOARD_PATHS.audit, label: 'Audit log', permission: 'payments:read' },
  { href: DASHBOARD_PATHS.security, label: 'Security' },
];

const OPERATOR_NAV: readonly NavItem[] = [
  { href: DASHBOARD_PATHS.operatorCompliance, label: 'Compliance' },
  { href: DASHBOARD_PATHS.operatorKyb, label: 'KYB decisions' },
  { href: DASHBOARD_PATHS.operatorDisputes, label: 'Disputes' },
  { href: DASHBOARD_PATHS.security, label: 'Security' },
];

export interface DashboardFrame {
  session: DashboardSession;
  /** The page's one h1, also the document title. */
  title: string;
  /** The path of the navigation entry to mark as current. */
  current?: string;
}

/**
 * Every signed-in page: one stylesheet, one script module, a skip link, the environment always
 * visible (Sandbox or Live), the user with a sign-out form, the navigation the role may use, one h1
 * in a main.
 */
export function DashboardLayout(props: DashboardFrame & { children?: Child }) {
  const { session } = props;
  const operator = session.organizationId === null;
  const nav = (operator ? OPERATOR_NAV : ORGANIZATION_NAV).filter(
    (item) => item.permission === undefined || session.permissions.includes(item.permission),
  );
  const live = session.environment === 'PRODUCTION';
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>{`${props.title} · Allowance`}</title>
        <link rel="stylesheet" href={DASHBOARD_ASSETS.stylesheet.path} />
        <script type="module" src={DASHBOARD_ASSETS.script.path}></script>
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="top">
          <span class="brand">Allowance</span>
          {operator ? (
            <span class="env env-live">Operator</span>
          ) : (
            <span class={`env env-${live ? 'live' : 'sandbox'}`}>{live ? 'Live' : 'Sandbox: test data'}</span>
          )}
          <span class="who">
            <span>
              {session.email} ({session.role})
            </span>
            <form method="post" action={DASHBOARD_PATHS.signOut}>
              <CsrfField session={session} />
              <button type="submit" class="secondary">
                Sign out
              </button>
            </form>
          </span>
        </header>
        <nav class="nav" aria-label="Dashboard">
          <ul>
            {nav.map((item) => (
              <li>
                <a href={item.href} aria-current={item.href === props.current ? 'page' : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabindex={-1}>
          <h1>{props.title}</h1>
          {props.children}
        </main>
      </body>
    </html>
  );
}

export const dashboardPage = (status: number, node: unknown): DashboardAnswer => ({
  status,
  html: `<!doctype html>${String(node)}`,
});
export const seeOther = (location: string): DashboardAnswer => ({ status: 303, location });

/** Whether the session's role holds a permission (what a page shows; `invoke` enforces it anyway). */
export const may = (session: DashboardSession, permission: Permission) => session.permissions.includes(permission);
