/** Styles of the work pages (appended to the dashboard's one stylesheet: shared/dashboard/assets.ts). */
export const WORK_STYLES = ``;
