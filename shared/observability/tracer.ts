import { createRequire } from 'node:module';
import { ENV } from '../config/env-names.js';
import { log } from './log.js';

/**
 * AWS SDK clients traced with Powertools' Tracer (X-Ray subsegments per call) when
 * POWERTOOLS_TRACE_ENABLED is `true` (CDK sets it from the stage's `tracing`; the local run never
 * does). The tracer is not bundled: it pulls aws-xray-sdk-core (about 120 KB minified, past most
 * functions' bundle targets, bench/bundles.ts), so it is loaded at run time from the Powertools
 * Lambda layer (Lambda puts the layer's node_modules on NODE_PATH, which a CommonJS require reads)
 * of the functions that trace. Without the layer the client is used untraced and that is logged
 * once: the function's own segment (Lambda's active tracing) still shows it.
 * docs/decisions-observability.md.
 */
const TRACER_MODULE = '@aws-lambda-powertools/tracer';

interface TracerLike {
  captureAWSv3Client<T>(client: T): T;
}

let tracer: TracerLike | null | undefined;

function loadTracer(): TracerLike | null {
  if (tracer !== undefined) return tracer;
  try {
    // A require by a name the bundler does not follow (createRequire, not `require`): not in the bundle.
    const load = createRequire(import.meta.url);
    const { Tracer } = load(TRACER_MODULE) as { Tracer: new () => TracerLike };
    tracer = new Tracer();
  } catch (error) {
    log.warn('tracing is on but the Powertools tracer could not be loaded (is the Powertools layer attached?)', error);
    tracer = null;
  }
  return tracer;
}

/** Whether this process traces (POWERTOOLS_TRACE_ENABLED=true). */
export const tracingEnabled = (): boolean => process.env[ENV.powertoolsTraceEnabled] === 'true';

/** `client` with its calls traced when tracing is on; `client` itself otherwise (the local run, tests). */
export function traced<T extends object>(client: T): T {
  if (!tracingEnabled()) return client;
  return loadTracer()?.captureAWSv3Client(client) ?? client;
}
