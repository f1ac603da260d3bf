/**
 * The local run's log output (npm start): the functions write the same JSON lines as in Lambda
 * (Powertools' Logger and the metrics' EMF lines, shared/observability); in a terminal they are
 * shown pretty, one short line each, and piped anywhere else (a file, `| jq`, a test) they stay the
 * JSON lines CloudWatch would get. Lines that are not JSON (the banner) pass as they are.
 */
import { METRICS_NAMESPACE, METRICS_SERVICE } from '../../shared/observability/metric-names.js';
import { ENV } from '../../shared/config/env-names.js';

/** The Powertools environment of the local run: as CDK sets it per function (lib/constructs/service-function.ts), tracing off. */
export function setLocalObservabilityEnv(env: NodeJS.ProcessEnv = process.env): void {
  env[ENV.powertoolsServiceName] ??= `${METRICS_SERVICE}-local`;
  env[ENV.powertoolsLogLevel] ??= 'INFO';
  env[ENV.powertoolsMetricsNamespace] ??= METRICS_NAMESPACE;
  env[ENV.powertoolsTraceEnabled] = 'false';
  env[ENV.powertoolsTracerCaptureResponse] = 'false';
}

const COLORS: Record<string, string> = { DEBUG: '\x1b[2m', INFO: '\x1b[36m', WARN: '\x1b[33m', ERROR: '\x1b[31m' };
const RESET = '\x1b[0m';
/** Fields every line has, or that the short form already shows. */
const HIDDEN = new Set([
  'level',
  'message',
  'timestamp',
  'service',
  'sampling_rate',
  'xray_trace_id',
  'function_arn',
  'function_memory_size',
  'function_name',
  'function_request_id',
  'cold_start',
]);

/** One JSON line as a short human line (undefined: not ours, print it as it is). */
export function prettyLine(line: string): string | undefined {
  if (!line.startsWith('{')) return undefined;
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const time =
    typeof parsed.timestamp === 'string' ? parsed.timestamp.slice(11, 23) : new Date().toISOString().slice(11, 23);
  const aws = parsed._aws as
    { CloudWatchMetrics?: { Metrics?: { Name: string }[]; Dimensions?: string[][] }[] } | undefined;
  if (aws) {
    const directive = aws.CloudWatchMetrics?.[0];
    const metrics = (directive?.Metrics ?? []).map((metric) => `${metric.Name}=${JSON.stringify(parsed[metric.Name])}`);
    const dimensions = (directive?.Dimensions?.[0] ?? []).map((name) => `${name}=${String(parsed[name])}`);
    return `${time} \x1b[35mMETRIC${RESET} ${metrics.join(' ')} \x1b[2m${dimensions.join(' ')}${RESET}`;
  }
  const level = typeof parsed.level === 'string' ? parsed.level : 'INFO';
  const head = `${time} ${COLORS[level] ?? ''}${level.padEnd(5)}${RESET}`;
  if (parsed.message === 'request') {
    const { route, status, durationMs, principalKind, organizationId, requestId } = parsed;
    return `${head} ${String(route)} ${String(status)} ${String(durationMs)}ms \x1b[2m${String(principalKind)} ${String(organizationId ?? '-')} ${String(requestId)}${RESET}`;
  }
  const rest = Object.entries(parsed)
    .filter(([key]) => !HIDDEN.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return `${head} ${String(parsed.message)} \x1b[2m${rest.join(' ')}${RESET}`;
}

/** In a terminal, the JSON lines written to stdout are shown pretty; elsewhere nothing changes. */
export function prettyLogsInTerminal(stream: NodeJS.WriteStream = process.stdout): void {
  if (!stream.isTTY) return;
  const write = stream.write.bind(stream) as (chunk: string | Uint8Array, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    if (typeof chunk !== 'string') return write(chunk, ...rest);
    const lines = chunk.split('\n');
    const shown = lines.map((line) => prettyLine(line) ?? line).join('\n');
    return write(shown, ...rest);
  }) as typeof stream.write;
}
