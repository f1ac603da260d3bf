import type { Child } from 'hono/jsx';
import { DASHBOARD_ASSETS } from '../assets.js';
import type { DashboardAnswer } from '../context.js';

/**
 * The signed-out pages (sign-in, invitation, the refusals): the dashboard's stylesheet and script,
 * a skip link, one h1 in a main; no navigation (nobody is signed in yet).
 */
export function SignedOutLayout(props: { title: string; children?: Child }) {
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
        </header>
        <main id="main" tabindex={-1}>
          <h1>{props.title}</h1>
          {props.children}
        </main>
      </body>
    </html>
  );
}

/** An error the person can act on, read out at once (role="alert"). */
export function Alert(props: { children?: Child }) {
  return (
    <div class="alert" role="alert">
      {props.children}
    </div>
  );
}

export function Notice(props: { children?: Child }) {
  return (
    <div class="notice" role="status">
      {props.children}
    </div>
  );
}

export const signedOutPage = (status: number, title: string, body: Child): DashboardAnswer => ({
  status,
  html: `<!doctype html>${String(<SignedOutLayout title={title}>{body}</SignedOutLayout>)}`,
});

const REFUSALS = {
  'cross-site': {
    status: 403,
    title: 'Request refused',
    text: 'This form was sent from another site. Go back to the dashboard and try again.',
  },
  csrf: {
    status: 403,
    title: 'Request refused',
    text: 'This form has expired. Go back, reload the page and try again.',
  },
  'rate-limited': {
    status: 429,
    title: 'Too many requests',
    text: 'Too many requests from your network. Wait a minute and try again.',
  },
  'bad-request': {
    status: 400,
    title: 'Request refused',
    text: 'The request could not be read. Go back and try again.',
  },
  'not-found': { status: 404, title: 'Page not found', text: 'There is no such page in the dashboard.' },
  failure: {
    status: 500,
    title: 'Something went wrong',
    text: 'Something went wrong on our side. Try again in a moment.',
  },
} as const;

export type DashboardRefusal = keyof typeof REFUSALS;

/** A refusal before any page is served (no session needed to read it). */
export function refusalPage(kind: DashboardRefusal, status?: number): DashboardAnswer {
  const refusal = REFUSALS[kind];
  return signedOutPage(
    status ?? refusal.status,
    refusal.title,
    <>
      <Alert>{refusal.text}</Alert>
      <p>
        <a href="/dashboard">Back to the dashboard</a>
      </p>
    </>,
  );
}
