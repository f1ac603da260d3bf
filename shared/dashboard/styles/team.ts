/** Styles of the team pages (appended to the dashboard's one stylesheet: shared/dashboard/assets.ts). */
export const TEAM_STYLES = ``;
