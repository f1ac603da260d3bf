/** Styles of the settings pages (appended to the dashboard's one stylesheet: shared/dashboard/assets.ts). */
export const SETTINGS_STYLES = ``;
