import Big from 'big.js';
import type { Child } from 'hono/jsx';
import { ApiError } from '../../../domain/errors.js';
import { dateTime } from '../../../hosted/format.js';
import type { CallInput, DashboardRequest } from '../../context.js';

/** The pieces every work page shares: money and dates as people read them, notices, alerts, refusals. */

/** The API's exact decimal string with its currency: trailing zeros past the cents dropped (`125.50000000` -> `125.50 USD`). */
export function money(amount: string, currency = 'USD'): string {
  const match = /^(-?\d+\.\d\d)(\d*)$/.exec(amount);
  const shown = match && /^0*$/.test(match[2] ?? '') ? match[1] : amount;
  return `${shown} ${currency}`;
}

/** The exact sum of decimal strings, with 2 decimals. */
export const sumOf = (amounts: readonly string[]): string =>
  amounts.reduce((total, amount) => total.plus(amount), new Big(0)).toFixed(2);

/** An ISO timestamp as `2026-11-27 15:04 UTC`; `—` for none. */
export const when = (iso: string | null | undefined): string => (iso ? dateTime(iso) : '—');

/** A refusal an operation answered (its ApiError), or the error thrown again when it is not one. */
export function refusalOf(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  throw error;
}

/** Runs an operation, answering its refusal instead of throwing it. */
export async function attempt<T>(
  request: DashboardRequest,
  operation: string,
  input?: CallInput,
): Promise<{ ok: true; value: T } | { ok: false; error: ApiError }> {
  try {
    return { ok: true, value: await request.call<T>(operation, input) };
  } catch (error) {
    return { ok: false, error: refusalOf(error) };
  }
}

/** What a refusal tells a person: the field named for VALIDATION_ERROR, the code always. */
export function refusalText(error: ApiError): string {
  const field = error.details?.field;
  const named = typeof field === 'string' && field !== '' ? ` (field: ${field})` : '';
  return `${error.message}${named} [${error.code}]`;
}

/** An error for the page: `role="alert"`, read out at once. */
export function Alert(props: { error?: ApiError | string | undefined }) {
  if (props.error === undefined) return null;
  const text = typeof props.error === 'string' ? props.error : refusalText(props.error);
  return (
    <p class="alert" role="alert" data-error-code={typeof props.error === 'string' ? undefined : props.error.code}>
      {text}
    </p>
  );
}

/** A notice after a redirect (`?done=`): polite, not an error. */
export function Notice(props: { text?: string | undefined; kind?: string }) {
  if (!props.text) return null;
  return (
    <p class="notice" role="status" data-notice={props.kind}>
      {props.text}
    </p>
  );
}

/** A table in its scroll wrapper, with its caption (tables never widen the page at 390 px). */
export function Table(props: { caption: string; id?: string; children?: Child; attrs?: Record<string, string> }) {
  return (
    <div class="table-wrap">
      <table id={props.id} {...(props.attrs ?? {})}>
        <caption>{props.caption}</caption>
        {props.children}
      </table>
    </div>
  );
}

/** `key: value` facts of one object. */
export function Facts(props: { facts: readonly (readonly [string, Child])[] }) {
  return (
    <dl class="facts">
      {props.facts.map(([term, value]) => (
        <>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </>
      ))}
    </dl>
  );
}

/** Statuses as words (with the code kept for scripts and tests). */
export function Status(props: { status: string }) {
  return (
    <span class={`status status-${props.status.toLowerCase()}`} data-status={props.status}>
      {props.status}
    </span>
  );
}

/** The query's single-line text, bounded (pages echo only what they recognise). */
export const queryText = (request: DashboardRequest, name: string, max = 200): string | undefined => {
  const value = request.query[name];
  return value !== undefined && value.length > 0 && value.length <= max ? value : undefined;
};

/** Today's UTC date, `YYYY-MM-DD`. */
export const todayUtc = (now = new Date()): string => now.toISOString().slice(0, 10);
