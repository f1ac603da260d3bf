/** Styles of the team pages (appended to the dashboard's one stylesheet: shared/dashboard/assets.ts). */
export const TEAM_STYLES = `
.member-actions{display:flex;flex-wrap:wrap;gap:0.5rem;align-items:center}
form.inline{display:flex;flex-wrap:wrap;gap:0.5rem;align-items:center;margin:0}
form.inline select{width:auto;max-width:14rem}
.status-invited{background:#fff4d6;color:#6b4a00}
.status-removed{background:#fdeaea;color:#8a1414}
td .hint{display:block}
dl.report{display:grid;grid-template-columns:max-content 1fr;gap:0.25rem 1rem}
.check-pass{color:#0f5b2a}
.check-fail{color:#8a1414;font-weight:600}
`;
