/** A form field holding JSON (a passkey's answer, put there by the script), or undefined. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
