/** The dashboard's frame over the hosted pages' stylesheet: a wider main, the navigation, the user bar. */
export const BASE_STYLES = `
main{max-width:72rem}
footer{max-width:72rem}
.nav{background:#fff;border-bottom:1px solid #d0d4da;padding:0 1rem}
.nav ul{display:flex;flex-wrap:wrap;gap:0.25rem 1rem;list-style:none;margin:0 auto;padding:0.5rem 0;max-width:72rem}
.nav a{display:inline-block;padding:0.25rem 0;color:#1a1a1a}
.nav a[aria-current="page"]{font-weight:700;text-decoration-thickness:3px}
.who{display:flex;flex-wrap:wrap;gap:0.5rem;align-items:center}
.who form{display:inline}
.who button{padding:0.25rem 0.75rem}
.table-wrap{overflow-x:auto;position:relative}
h1,h2,h3{overflow-wrap:anywhere}
[hidden]{display:none}
.qr{display:block;width:180px;height:180px;image-rendering:pixelated}
.codes{display:grid;grid-template-columns:repeat(auto-fill,minmax(10rem,1fr));gap:0.25rem 1rem;padding-left:1.25rem}
details{margin:0.75rem 0}
summary{cursor:pointer;font-weight:600}
dl.facts{grid-template-columns:fit-content(45%) minmax(0,1fr)}
`;
