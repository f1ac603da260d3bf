import * as z from 'zod/mini';
import { en } from 'zod/locales';

let englishMessages = false;

/**
 * `schema.safeParse(value)`, with zod's English messages in place first: zod/mini ships none, and a
 * VALIDATION_ERROR must name the problem. Every parse of outside input goes through here (the HTTP
 * and MCP edges, the card network's requests, the workflow's step inputs), so the messages are set
 * in the functions that validate and nowhere else (a worker that parses nothing bundles no zod).
 */
export function safeParse<T>(schema: z.ZodMiniType<T>, value: unknown): z.core.util.SafeParseResult<T> {
  if (!englishMessages) {
    z.config(en());
    englishMessages = true;
  }
  return schema.safeParse(value);
}

/**
 * A schema built on first use. Module-level schemas are declared `/* @__PURE__ *\/ lazy(() => ...)`
 * (every view, see views.ts): a Lambda that never parses or describes them does not build them at
 * cold start, and esbuild drops the declaration (and zod, if nothing else needs it) from a bundle
 * that never names it.
 */
export const lazy = <T extends z.ZodMiniType>(build: () => T): z.ZodMiniLazy<T> => z.lazy(build);

/** The schema a lazy one stands for (itself for any other). */
export const built = (schema: z.ZodMiniType): z.ZodMiniType =>
  schema instanceof z.ZodMiniLazy ? built(schema._zod.innerType as z.ZodMiniType) : schema;
