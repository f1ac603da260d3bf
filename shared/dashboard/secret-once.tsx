import type { Child } from 'hono/jsx';

/**
 * A secret shown once, in the answer of the POST that made it (an API key, a webhook's signing
 * secret, an invitation link): a read-only field `#created-secret` (the browser tests read it), a
 * copy button the script reveals (hidden without JavaScript), and the way back.
 */
export function SecretOnce(props: {
  label: Child;
  value: string;
  copyLabel: string;
  back: { href: string; label: string };
  children?: Child;
}) {
  return (
    <div class="card">
      <label for="created-secret">{props.label}</label>
      <input id="created-secret" class="mono secret" readonly value={props.value} />
      <div class="actions">
        <button type="button" class="secondary" data-copy="created-secret" hidden>
          {props.copyLabel}
        </button>
        <a class="button" href={props.back.href}>
          {props.back.label}
        </a>
      </div>
      {props.children}
    </div>
  );
}
