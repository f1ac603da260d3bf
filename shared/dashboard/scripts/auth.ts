/**
 * The auth pages' enhancements, part of the dashboard's one ES module (shared/dashboard/assets.ts).
 * Enhancement only: every form works without it. Each part looks for its own data- attributes and
 * does nothing on pages without them.
 */
export const AUTH_SCRIPT = ``;
