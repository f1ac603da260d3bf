/** Styles of the work pages (appended to the dashboard's one stylesheet: shared/dashboard/assets.ts). */
export const WORK_STYLES = `
.muted{color:#4a4f57}
tr.new-row{background:#fff7d6}
tr.gone{color:#4a4f57;text-decoration:line-through}
tr.gone a{text-decoration:none}
dialog{max-width:min(32rem,calc(100vw - 2rem));border:1px solid #6b717a;border-radius:0.5rem;padding:1rem 1.25rem}
dialog::backdrop{background:rgba(0,0,0,0.4)}
.status-approved,.status-active,.status-posted{color:#0a3d1c}
.status-failed,.status-rejected,.status-frozen{color:#8a1414}
.secret{display:block;padding:0.75rem;border:2px dashed #1a1a1a;border-radius:0.375rem;overflow-wrap:anywhere}
.danger{border-color:#8a1414}
.stats{display:grid;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr));gap:1rem;margin:0 0 1rem}
.stats .card{margin:0}
.stat{font-size:1.5rem;font-weight:700;margin:0.25rem 0}
`;
