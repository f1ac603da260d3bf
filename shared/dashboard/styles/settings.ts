/** Styles of the settings pages (appended to the dashboard's one stylesheet: shared/dashboard/assets.ts). */
export const SETTINGS_STYLES = `
.checklist{list-style:none;margin:0;padding:0}
.checklist li{padding:0.25rem 0}
.checklist li.met{color:#0f5b2a}
.missing{margin:0 0 0.75rem}
.check{display:flex;gap:0.5rem;align-items:flex-start;margin:0 0 0.5rem}
.check input{width:auto;margin:0.3rem 0 0}
.check label{font-weight:400;margin:0}
.choices{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:0 1rem}
.choices legend{grid-column:1/-1}
textarea{display:block;width:100%;font:inherit;padding:0.5rem 0.625rem;border:1px solid #6b717a;border-radius:0.375rem}
input.secret{font-size:0.9375rem}
.filters .row .field{flex:1 1 11rem}
td.details{font-size:0.875rem;max-width:24rem}
.status-revoked,.status-failed,.status-dead_lettered{background:#fdeaea;color:#8a1414}
.status-active,.status-succeeded{background:#e6f6ec;color:#0f5b2a}
td .hint{display:block}
`;
