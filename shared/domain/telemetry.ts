/**
 * What the domain reports about its work beside its answers: the failures it logs and the outcomes
 * the service's metrics count (payments, webhook attempts, card decisions). A port: the observability
 * layer implements it over the logger and the metrics (shared/observability/domain-telemetry.ts)
 * and installs it when the runtime's core is made (shared/runtime/core.ts), so every function
 * reports through it. Before that (a unit test of the domain alone) failures go to the console and
 * outcomes are dropped.
 */
export interface DomainLog {
  error(message: string, ...details: unknown[]): void;
  warn(message: string, error?: unknown, attributes?: Record<string, unknown>): void;
  info(message: string, attributes?: Record<string, unknown>): void;
}

export type PaymentOutcome = { kind: 'posted' } | { kind: 'queued' } | { kind: 'refused'; code: string };
export type WebhookAttemptOutcome = 'delivered' | 'failed' | 'dead_lettered';
export type CardDecision = 'approved' | 'declined';

export interface Telemetry {
  log: DomainLog;
  /** A payment request's outcome (a replay is none). */
  payment(outcome: PaymentOutcome): void;
  /** One webhook delivery attempt and how long it took. */
  webhookAttempt(outcome: WebhookAttemptOutcome, durationMs: number): void;
  /** A card authorization decided, and the time from its request to the decision. */
  cardDecision(decision: CardDecision, latencyMs: number): void;
}

const consoleTelemetry: Telemetry = {
  log: {
    error: (message, ...details) => console.error(message, ...details),
    warn: (message, error, attributes) => console.warn(message, error ?? '', attributes ?? ''),
    info: () => undefined,
  },
  payment: () => undefined,
  webhookAttempt: () => undefined,
  cardDecision: () => undefined,
};

let current: Telemetry = consoleTelemetry;

/** Installed by the runtime (shared/runtime/core.ts); the latest installed wins. */
export function installTelemetry(telemetry: Telemetry): void {
  current = telemetry;
}

/** The telemetry the domain reports to (read at each call: installed after a module captured it, it still applies). */
export const telemetry = (): Telemetry => current;

/** The installed log, read at each call (a default for services' injected `log`). */
export const domainLog: DomainLog = {
  error: (message, ...details) => current.log.error(message, ...details),
  warn: (message, error, attributes) => current.log.warn(message, error, attributes),
  info: (message, attributes) => current.log.info(message, attributes),
};
