/** A JSON object (not null, not an array): what request bodies and tool arguments must be. */
export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
