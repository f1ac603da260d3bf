/**
 * The one stylesheet of the hosted pages, served as /hosted/assets/<hash>.css (assets.ts). System
 * fonts only; one column that fits 390 px without sideways scrolling; a visible focus ring on
 * everything that takes focus; colours with at least 4.5:1 contrast (the browser tests run axe).
 */
export const STYLESHEET = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Liberation Sans",Arial,sans-serif;font-size:1rem;line-height:1.5;color:#1a1a1a;background:#f4f5f7}
a{color:#0b4fb3}
a:hover{text-decoration-thickness:2px}
:focus-visible{outline:3px solid #0b4fb3;outline-offset:2px}
.skip{position:absolute;left:0.5rem;top:-4rem;background:#fff;padding:0.5rem 1rem;z-index:10}
.skip:focus{top:0.5rem}
.top{display:flex;flex-wrap:wrap;gap:0.5rem;align-items:center;justify-content:space-between;padding:0.75rem 1rem;background:#fff;border-bottom:1px solid #d0d4da}
.brand{font-weight:600;overflow-wrap:anywhere}
.env{font-size:0.875rem;font-weight:600;padding:0.125rem 0.5rem;border-radius:999px;border:1px solid currentColor}
.env-sandbox{color:#7a4100;background:#fff4e0}
.env-live{color:#0f5b2a;background:#e6f6ec}
main{max-width:40rem;margin:0 auto;padding:1rem}
.card{background:#fff;border:1px solid #d0d4da;border-radius:0.5rem;padding:1rem 1.25rem;margin:0 0 1rem}
h1{font-size:1.5rem;line-height:1.25;margin:0.5rem 0 1rem}
h2{font-size:1.125rem;margin:0 0 0.75rem}
p{margin:0 0 0.75rem}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:0.25rem 1rem;margin:0}
dl.facts dt{color:#4a4f57}
dl.facts dd{margin:0;overflow-wrap:anywhere}
table{width:100%;border-collapse:collapse}
th,td{text-align:left;padding:0.5rem 0.25rem;border-bottom:1px solid #e1e4e8;vertical-align:top}
th.num,td.num{text-align:right;white-space:nowrap}
tfoot th,tfoot td{font-weight:700;border-bottom:0}
.status{display:inline-block;font-weight:600;padding:0 0.5rem;border-radius:0.25rem;background:#e8eaee;color:#1a1a1a}
.status-paid{background:#e6f6ec;color:#0f5b2a}
.status-voided,.status-uncollectible{background:#fdeaea;color:#8a1414}
form{margin:0}
fieldset{border:0;padding:0;margin:0 0 1rem}
legend{font-weight:600;margin-bottom:0.5rem;padding:0}
label{display:block;font-weight:600;margin:0 0 0.25rem}
.field{margin:0 0 1rem}
.row{display:flex;flex-wrap:wrap;gap:1rem}
.row .field{flex:1 1 8rem}
input,select{display:block;width:100%;font:inherit;padding:0.5rem 0.625rem;border:1px solid #6b717a;border-radius:0.375rem;background:#fff;color:#1a1a1a}
.hint{display:block;font-weight:400;color:#4a4f57;font-size:0.875rem}
button,.button{display:inline-block;font:inherit;font-weight:600;padding:0.625rem 1.25rem;border-radius:0.375rem;border:1px solid #0b4fb3;background:#0b4fb3;color:#fff;cursor:pointer;text-decoration:none}
button.secondary,.button.secondary{background:#fff;color:#0b4fb3}
button[disabled]{opacity:0.7;cursor:progress}
.actions{display:flex;flex-wrap:wrap;gap:0.75rem;margin-top:0.5rem}
.tabs{display:flex;gap:0.5rem;margin:0 0 1rem;padding:0;list-style:none}
.tabs a{display:inline-block;padding:0.375rem 0.75rem;border:1px solid #6b717a;border-radius:0.375rem;text-decoration:none;color:#1a1a1a}
.tabs a[aria-current="page"]{background:#1a1a1a;color:#fff;border-color:#1a1a1a}
.alert{border:2px solid #8a1414;background:#fdeaea;color:#5c0b0b;border-radius:0.375rem;padding:0.75rem 1rem;margin:0 0 1rem}
.notice{border:1px solid #0f5b2a;background:#e6f6ec;color:#0a3d1c;border-radius:0.375rem;padding:0.75rem 1rem;margin:0 0 1rem}
.mono{font-family:ui-monospace,"Liberation Mono",Menlo,monospace;overflow-wrap:anywhere}
caption{text-align:left}
.visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
dl.facts+p{margin-top:0.75rem}
@media (max-width:30rem){.card{padding:0.875rem 0.75rem}th,td{padding:0.5rem 0.125rem;font-size:0.9375rem}th.num,td.num{white-space:normal}}
footer{max-width:40rem;margin:0 auto;padding:0 1rem 2rem;color:#4a4f57;font-size:0.875rem}
`;
