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
.team-list{list-style:none;margin:0 0 10px;padding:0}
.team-list li{padding:12px 0;border-top:1px solid #edf0f5}
.team-list li:first-child{border-top:0}
.team-email{font-weight:600;overflow-wrap:anywhere}
.team-meta{font-size:14px;color:#4a5568;margin-top:2px}
.team-actions{display:flex;flex-wrap:wrap;gap:8px;margin-top:8px;align-items:center}
.team-actions form{display:flex;gap:6px;align-items:center;flex-wrap:wrap}
.team-actions button,.audit-pager a{margin-top:0;padding:7px 12px;font-size:14px}
.team-actions select{font:inherit;font-size:14px;padding:6px 8px;border:1px solid #8792a2;border-radius:8px;background:#fff;color:inherit}
button.team-secondary{background:#fff;color:#1a46b8;border:1px solid #1a46b8}
button.team-secondary:hover{background:#e6edfc}
button.team-danger{background:#fff;color:#a21c12;border:1px solid #a21c12}
button.team-danger:hover{background:#fdeeee}
fieldset.team-roles{border:0;margin:14px 0 0;padding:0}
fieldset.team-roles legend{font-weight:600;font-size:15px;padding:0;margin-bottom:4px}
.team-radio{display:grid;grid-template-columns:auto 1fr;column-gap:8px;align-items:center;margin:6px 0}
.team-radio label{margin:0;font-weight:600}
.team-radio .hint{grid-column:2;margin:0}
#f-username[readonly]{background:#f6f8fb;color:#4a5568}
.audit-wrap{overflow-x:auto}
table.audit-table{border-collapse:collapse;width:100%;font-size:14px}
.audit-table th,.audit-table td{text-align:left;vertical-align:top;padding:8px 10px;border-top:1px solid #edf0f5}
.audit-table th{font-weight:600;color:#4a5568;border-top:0}
.audit-table td{overflow-wrap:anywhere}
.audit-table time{display:block}
.audit-table .iso{display:block;font-size:12px;color:#4a5568;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.audit-pager{display:flex;gap:12px;margin-top:14px;flex-wrap:wrap}
@media (max-width:640px){.audit-table thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}.audit-table,.audit-table tbody,.audit-table tr,.audit-table td{display:block;width:100%}.audit-table tr{border-top:1px solid #dfe4ec;padding:8px 0}.audit-table td{border:0;padding:3px 0;display:grid;grid-template-columns:7.5em minmax(0,1fr);gap:8px}.audit-table td::before{content:attr(data-label);font-weight:600;color:#4a5568}}
`;
