/** The dashboard's one stylesheet, inlined under the page's nonce: plain, readable, usable at 375px. */
export const DASHBOARD_CSS = `
*{box-sizing:border-box}
html,body{margin:0}
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","DejaVu Sans",sans-serif;color:#1c2433;background:#f2f4f8;-webkit-text-size-adjust:100%}
a{color:#1a46b8}
.skip{position:absolute;left:-9999px;top:0;background:#fff;padding:8px 12px;z-index:2}
.skip:focus{left:8px;top:8px}
header.top{background:#fff;border-bottom:1px solid #dfe4ec}
.bar{max-width:1100px;margin:0 auto;padding:10px 16px;display:flex;flex-wrap:wrap;align-items:center;gap:8px 16px}
.brand{font-weight:700;font-size:18px;margin-right:auto}
.who{color:#4a5568;font-size:14px;overflow-wrap:anywhere}
.langs{display:flex;gap:8px;font-size:14px}
.langs a[aria-current]{font-weight:700;color:#1c2433;text-decoration:none}
nav.main{max-width:1100px;margin:0 auto;padding:0 16px 8px}
nav.main ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:4px 6px}
nav.main a,nav.main .soon{display:inline-block;padding:6px 10px;border-radius:8px;font-size:15px}
nav.main a{text-decoration:none}
nav.main a[aria-current]{background:#e6edfc;color:#12337f;font-weight:600}
nav.main .soon{color:#4a5568}
nav.main .soon small{font-size:11px;text-transform:uppercase;letter-spacing:.04em;margin-left:4px;border:1px solid #b9c2d0;border-radius:999px;padding:0 6px}
main{max-width:1100px;margin:0 auto;padding:24px 16px 48px}
main:focus{outline:none}
.narrow{max-width:440px;margin:0 auto}
.card{background:#fff;border:1px solid #dfe4ec;border-radius:14px;padding:22px;margin-bottom:18px}
h1{font-size:24px;line-height:1.3;margin:0 0 12px}
h2{font-size:18px;margin:0 0 10px}
p{margin:0 0 10px}
.muted{color:#4a5568}
label{display:block;font-weight:600;font-size:15px;margin:14px 0 4px}
input[type=text],input[type=email],input[type=password]{display:block;width:100%;padding:11px 12px;border:1px solid #8792a2;border-radius:10px;font:inherit;background:#fff;color:inherit}
input:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid #5b84e8;outline-offset:2px}
input[aria-invalid=true]{border-color:#b42318}
.hint{font-size:14px;color:#4a5568;margin:4px 0 0}
.field-error{font-size:14px;color:#a21c12;margin:4px 0 0;font-weight:600}
button{display:inline-block;background:#1a46b8;color:#fff;border:0;border-radius:10px;padding:11px 18px;font:inherit;font-weight:600;cursor:pointer;margin-top:18px}
button:hover{background:#143a9a}
button.link{background:none;color:#1a46b8;padding:4px 6px;margin:0;font-weight:500;text-decoration:underline}
form.inline{display:inline}
.links{margin-top:16px;font-size:15px;display:flex;flex-direction:column;gap:6px}
.notice{background:#e8f4ec;border:1px solid #9fd0ae;color:#14532d;border-radius:10px;padding:10px 14px;margin-bottom:16px}
.alert{background:#fdeeee;border:1px solid #f0b4b4;color:#7f1d1d;border-radius:10px;padding:10px 14px;margin-bottom:16px}
.key{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace;background:#f6f8fb;border:1px solid #cdd5e1;border-radius:8px;padding:10px;overflow-wrap:anywhere;font-size:15px}
pre{background:#14213d;color:#f1f5ff;border-radius:10px;padding:14px;overflow-x:auto;font-size:13px;line-height:1.5;margin:0}
ul.checklist{list-style:none;margin:0;padding:0}
ul.checklist li{display:flex;align-items:center;gap:10px;padding:9px 0;border-top:1px solid #edf0f5}
ul.checklist li:first-child{border-top:0}
.tick{flex:none;width:24px;height:24px;border-radius:50%;border:2px solid #8792a2;display:inline-flex;align-items:center;justify-content:center;font-size:14px;font-weight:700}
li.done .tick{background:#17803d;border-color:#17803d;color:#fff}
.state{margin-left:auto;font-size:13px;color:#4a5568}
.grid{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:18px;align-items:start}
@media (max-width:760px){.grid{grid-template-columns:minmax(0,1fr)}.card{padding:16px}h1{font-size:21px}}
.business input[type=tel]{display:block;width:100%;padding:11px 12px;border:1px solid #8792a2;border-radius:10px;font:inherit;background:#fff;color:inherit}
.business input[type=file]{display:block;width:100%;padding:10px;border:1px dashed #8792a2;border-radius:10px;font:inherit;background:#f6f8fb}
.business h3{font-size:16px;margin:16px 0 8px}
.business-badge{display:inline-block;font-size:14px;padding:2px 10px;border-radius:999px;background:#eef1f6;color:#1c2433;vertical-align:middle}
.business-pending .business-badge{background:#fff4d6;color:#6b4500}
.business-verified .business-badge{background:#e8f4ec;color:#14532d}
.business-rejected .business-badge{background:#fdeeee;color:#7f1d1d}
.business-reason{overflow-wrap:anywhere}
dl.business-details{display:grid;grid-template-columns:minmax(0,max-content) minmax(0,1fr);gap:6px 16px;margin:0}
dl.business-details dt{font-weight:600;color:#4a5568}
dl.business-details dd{margin:0;overflow-wrap:anywhere}
.business .table-wrap{overflow-x:auto}
table.business-docs{border-collapse:collapse;width:100%;font-size:15px}
table.business-docs th,table.business-docs td{text-align:left;padding:8px 10px;border-top:1px solid #edf0f5}
table.business-docs th{font-size:13px;color:#4a5568;border-top:0}
td.business-file{overflow-wrap:anywhere;min-width:10em}
table.business-docs td+td{white-space:nowrap}
@media (max-width:760px){dl.business-details{grid-template-columns:minmax(0,1fr)}dl.business-details dd{margin-bottom:6px}}
`;
