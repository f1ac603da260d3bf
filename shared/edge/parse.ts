import type * as z from 'zod/mini';
import { ApiError } from '../domain/errors.js';
import { safeParse } from '../domain/validation.js';

/**
 * Parses a request's input (an HTTP body or query, an MCP tool's arguments) with its operation's
 * schema; the first issue becomes the VALIDATION_ERROR, every issue is in `details.issues`.
 */
export function parseWith<T>(schema: z.ZodMiniType<T>, value: unknown, prefix: string): T {
  const result = safeParse(schema, value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => {
    const keysOf = (issue as { keys?: string[] }).keys;
    // A refused key of a record (metadata) names the record, never the key (it may hold anything), with the key's reason.
    const badKey = issue.code === 'invalid_key';
    const path = [
      ...(badKey ? issue.path.slice(0, -1) : issue.path).map(String),
      ...(issue.code === 'unrecognized_keys' && keysOf?.[0] ? [keysOf[0]] : []),
    ];
    const field = [prefix, ...path].filter(Boolean).join('.') || 'body';
    const message =
      issue.code === 'unrecognized_keys'
        ? 'is not a recognized field'
        : badKey
          ? (issue.issues[0]?.message ?? issue.message)
          : issue.message;
    return { field, message };
  });
  const first = issues[0] ?? { field: 'body', message: 'is invalid' };
  throw new ApiError('VALIDATION_ERROR', `${first.field}: ${first.message}`, { field: first.field, issues });
}
