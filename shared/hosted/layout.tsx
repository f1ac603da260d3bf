import type { Child } from 'hono/jsx';
import { ASSETS } from './assets.js';
import { ENVIRONMENT_LABEL } from './format.js';
import type { EnvironmentName } from './views.js';

export interface PageFrame {
  /** The page's one h1, also the document title. */
  title: string;
  /** The merchant's display name (never an id). */
  merchantName?: string | null | undefined;
  /** Sandbox or Live, shown in the header of every page about a session or an invoice. */
  environment?: EnvironmentName | undefined;
}

/** Every page: one stylesheet, one script module, a skip link, a header with the environment, one h1 in a main. */
export function Layout(props: PageFrame & { children?: Child }) {
  const site = props.merchantName ? `${props.title} · ${props.merchantName}` : props.title;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>{site}</title>
        <link rel="stylesheet" href={ASSETS.stylesheet.path} />
        <script type="module" src={ASSETS.script.path}></script>
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="top">
          <span class="brand">{props.merchantName ?? 'Allowance'}</span>
          {props.environment ? (
            <span class={`env env-${props.environment === 'PRODUCTION' ? 'live' : 'sandbox'}`}>
              {ENVIRONMENT_LABEL[props.environment]}
              {props.environment === 'SANDBOX' ? ': test data, no real money' : ''}
            </span>
          ) : null}
        </header>
        <main id="main" tabindex={-1}>
          <h1>{props.title}</h1>
          {props.children}
        </main>
        <footer>
          <p>Payments page of Allowance. This page never shows your full card or account number.</p>
        </footer>
      </body>
    </html>
  );
}

/** An error the person can act on, announced by screen readers. */
export function Alert(props: { children?: Child }) {
  return (
    <div class="alert" role="alert">
      {props.children}
    </div>
  );
}

/** A plain confirmation (not an alert). */
export function Notice(props: { children?: Child }) {
  return (
    <div class="notice" role="status">
      {props.children}
    </div>
  );
}

/** A rendered page as the document the browser gets. */
export function renderDocument(node: unknown): string {
  const text = String(node);
  return `<!doctype html>${text}`;
}
