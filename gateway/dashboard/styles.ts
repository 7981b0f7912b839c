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
nav.main summary{display:inline-flex;align-items:center;gap:10px;min-height:44px;padding:8px 14px;border:1px solid #8792a2;border-radius:10px;font-weight:600;cursor:pointer;list-style:none}
nav.main summary::-webkit-details-marker{display:none}
nav.main summary::before{content:"";width:18px;height:14px;border-top:2px solid;border-bottom:2px solid;background:linear-gradient(currentColor,currentColor) center/100% 2px no-repeat}
nav.main details[open] summary::before{height:2px;border-bottom:0;background:none}
nav.main summary:focus-visible{outline:3px solid #5b84e8;outline-offset:2px}
nav.main ul{list-style:none;margin:8px 0 0;padding:0;display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:2px 8px}
nav.main a,nav.main .soon{display:block;padding:10px;border-radius:8px;font-size:15px}
@media (min-width:761px){nav.main ul{display:flex;flex-wrap:wrap;gap:4px 6px;margin:0}nav.main a,nav.main .soon{display:inline-block;padding:6px 10px}}
@supports selector(::details-content){@media (min-width:761px){nav.main summary{display:none}nav.main details::details-content{content-visibility:visible;display:contents}}}
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
.table-wrap{overflow-x:auto}
table.domains-table{width:100%;border-collapse:collapse;font-size:15px}
.domains-table th,.domains-table td{text-align:left;padding:9px 8px;border-top:1px solid #edf0f5;overflow-wrap:anywhere}
.domains-table thead th{border-top:0;font-size:13px;color:#4a5568}
.badge{display:inline-block;white-space:nowrap;border-radius:999px;padding:1px 10px;font-size:13px;font-weight:600;border:1px solid}
.badge.ok{background:#e8f4ec;border-color:#9fd0ae;color:#14532d}
.badge.todo{background:#fff7e6;border-color:#e5c07b;color:#6b4500}
.wrap{overflow-wrap:anywhere}
.crumbs{font-size:15px;margin-bottom:6px}
.value-label{font-weight:600;font-size:14px;margin:12px 0 4px}
.copy-row{display:flex;align-items:center;gap:10px}
.copy-row button{margin-top:6px}
button.secondary{background:#fff;color:#1a46b8;border:1px solid #1a46b8}
button.secondary:hover{background:#eef3fd}
.verify-ways{display:grid;grid-template-columns:repeat(auto-fit,minmax(260px,1fr));gap:18px;margin-top:8px}
.verify-way{border-top:1px solid #edf0f5;padding-top:10px}
h3{font-size:16px;margin:16px 0 6px}
.check-failure p{margin:0 0 6px}
.check-failure .detail{font-size:14px;overflow-wrap:anywhere}
.countdown{font-weight:600;color:#6b4500}
dl.facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:4px 12px;margin:0 0 10px}
dl.facts dt{font-weight:600}
dl.facts dd{margin:0}
@media (max-width:600px){.domains-table thead{position:absolute;left:-9999px}.domains-table tr{display:block;border-top:1px solid #edf0f5;padding:8px 0}.domains-table tr:first-child{border-top:0}.domains-table th,.domains-table td{display:block;border:0;padding:2px 0}.domains-table td::before{content:attr(data-label) ": ";color:#4a5568;font-size:13px}}
input[type=url]{display:block;width:100%;padding:11px 12px;border:1px solid #8792a2;border-radius:10px;font:inherit;background:#fff;color:inherit}
div.table-wrap{overflow-x:auto;position:relative}
.proc-sr{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.proc-table{width:100%;border-collapse:collapse;font-size:15px}
.proc-table th,.proc-table td{text-align:left;vertical-align:top;padding:10px 8px;border-top:1px solid #edf0f5}
.proc-table thead th{border-top:0;font-size:13px;color:#4a5568;text-transform:uppercase;letter-spacing:.03em}
.proc-host{font-weight:600;overflow-wrap:anywhere}
.proc-tag{display:inline-block;font-size:12px;font-weight:500;color:#34405a;border:1px solid #b9c2d0;border-radius:999px;padding:0 8px;margin:2px 2px 0 0}
.proc-inline{margin:0;padding-left:20px}
.proc-warn{color:#8a3b00;font-size:14px;font-weight:600;margin:4px 0 0}
.proc-why{background:#fff7e8;border:1px solid #e9c27a;border-radius:12px;padding:14px 16px;margin-bottom:18px}
.proc-why h2{font-size:17px}
.proc-back{font-size:15px;margin-bottom:8px}
.proc-order{margin:0;padding-left:24px}
.proc-order li{padding:6px 0;border-top:1px solid #edf0f5}
.proc-order li:first-child{border-top:0}
.proc-name{display:inline-block;min-width:12em;margin-right:8px}
.proc-moves{display:inline-flex;gap:6px}
.proc-table button,.proc-order button{margin:0;padding:6px 12px;font-size:14px}
.proc-table button.secondary,.proc-order button.secondary{background:#fff;color:#1a46b8;border:1px solid #1a46b8}
.proc-table button.secondary:hover,.proc-order button.secondary:hover{background:#eef2fc}
.proc-move{min-width:44px;min-height:36px}
.proc-actions{display:flex;flex-wrap:wrap;align-items:center;gap:8px}
.proc-form input[type=url],.proc-form input[type=number],.proc-form input[type=text],.proc-form textarea,.proc-form select{display:block;width:100%;padding:11px 12px;border:1px solid #8792a2;border-radius:10px;font:inherit;background:#fff;color:inherit}
.proc-form textarea{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px}
.proc-check{display:flex;gap:8px;align-items:center;margin-top:14px}
.proc-check label{margin:0}
@media (max-width:600px){.proc-table thead{display:none}.proc-table,.proc-table tbody,.proc-table tr,.proc-table th,.proc-table td{display:block;width:100%}.proc-table tr{border-top:1px solid #dfe4ec;padding:8px 0}.proc-table tr:first-child{border-top:0}.proc-table th,.proc-table td{border:0;padding:3px 0}.proc-name{min-width:0}}
.keys-wrap{overflow-x:auto;margin:0 -4px}
.keys-wrap:focus-visible{outline:3px solid #5b84e8;outline-offset:2px}
table.keys-table{border-collapse:collapse;width:100%;font-size:15px}
.keys-table th,.keys-table td{text-align:left;padding:9px 8px;border-top:1px solid #edf0f5;vertical-align:top}
.keys-table thead th{border-top:0;font-size:13px;color:#4a5568;font-weight:600;white-space:nowrap}
.keys-table td code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace;font-size:14px;white-space:nowrap}
.keys-table tr.revoked td{color:#4a5568}
.keys-table time{white-space:nowrap}
.keys-badge{display:inline-block;font-size:13px;border-radius:999px;padding:1px 9px;border:1px solid #9fd0ae;background:#e8f4ec;color:#14532d}
.keys-badge.off{border-color:#cdd5e1;background:#f3f5f8;color:#4a5568}
form.keys-row-action{margin:6px 0 0}
button.keys-danger{background:#b42318}
button.keys-danger:hover{background:#912018}
button.keys-danger.small{margin:0;padding:6px 10px;font-size:14px;font-weight:600}
fieldset.keys-choices{border:0;margin:14px 0 0;padding:0;min-width:0}
.keys-choices legend{font-weight:600;font-size:15px;padding:0;margin-bottom:4px}
.keys-choice{display:grid;grid-template-columns:auto 1fr;column-gap:8px;align-items:start;padding:6px 0}
.keys-choice input{margin:4px 0 0;width:18px;height:18px}
.keys-choice label{margin:0;font-weight:500}
.keys-choice .hint{grid-column:2;margin:0}
.keys-choice input:disabled+label{color:#4a5568}
.keys-why{background:#fff8e6;border:1px solid #e8c66a;color:#5c4300;border-radius:10px;padding:10px 14px;margin:6px 0}
select.keys-select{display:block;width:100%;padding:10px 12px;border:1px solid #8792a2;border-radius:10px;font:inherit;background:#fff;color:inherit}
ol.keys-steps{margin:0;padding-left:22px}
ol.keys-steps li{margin:6px 0}
.tf-state{font-weight:700}
.tf-on{color:#17803d}
.tf-off{color:#4a5568}
.tf-qr img{display:block;background:#fff;border:1px solid #dfe4ec;border-radius:8px}
.tf-grid h3{font-size:16px;margin:14px 0 6px}
ul.tf-codes{list-style:none;margin:0 0 10px;display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:6px 18px;font-size:17px;letter-spacing:.04em}
button.tf-danger{background:#b42318}
button.tf-danger:hover{background:#912018}
button.tf-secondary{background:#fff;color:#1a46b8;border:1px solid #1a46b8}
button.tf-secondary:hover{background:#e6edfc}
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
.bill-balances{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,300px),1fr));gap:0 18px}
.bill-balance h3{margin:0 0 8px;font-size:18px}
dl.bill-facts{margin:0 0 8px}
dl.bill-facts div{display:flex;flex-wrap:wrap;gap:4px 12px;padding:5px 0;border-top:1px solid #edf0f5}
dl.bill-facts dt{font-weight:600;color:#4a5568;min-width:9em}
dl.bill-facts dd{margin:0;overflow-wrap:anywhere}
dd.bill-available{font-size:22px;font-weight:700}
.bill-state.bill-yes{color:#912018;font-weight:600}
.bill-state.bill-grace{color:#5c4300;font-weight:600}
a.bill-button{display:inline-block;background:#1a46b8;color:#fff;border-radius:10px;padding:10px 16px;font-weight:600;text-decoration:none}
a.bill-button:hover{background:#143a9a}
ul.bill-filter{list-style:none;display:flex;flex-wrap:wrap;gap:6px 16px;padding:0;margin:0 0 12px}
ul.bill-filter a[aria-current]{font-weight:700;text-decoration:none}
.bill-num{text-align:right;white-space:nowrap}
.bill-paging{display:flex;gap:16px;flex-wrap:wrap}
code.bill-reference{font-size:20px;font-weight:700;letter-spacing:.04em}
p.bill-bank{background:#f3f5f8;border-radius:10px;padding:10px 14px;overflow-wrap:anywhere}
.bill-check{display:flex;gap:8px;align-items:center;margin-top:8px}
.bill-check input{width:18px;height:18px;margin:0}
.bill-check label{margin:0}
.plinks-range{display:grid;grid-template-columns:repeat(auto-fit,minmax(12em,1fr));column-gap:14px}
dl.plinks-facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:6px 16px;margin:14px 0 0}
dl.plinks-facts dt{font-weight:600;color:#4a5568}
dl.plinks-facts dd{margin:0;overflow-wrap:anywhere}
img.plinks-qr{display:block;width:200px;height:200px;max-width:100%;border:1px solid #dde3ec;border-radius:8px;background:#fff}
.plinks-pager{display:flex;flex-wrap:wrap;gap:14px;align-items:center;margin-top:12px}
@media (max-width:760px){dl.plinks-facts{grid-template-columns:minmax(0,1fr)}dl.plinks-facts dd{margin-bottom:6px}}
.env-switch{display:inline-flex;gap:0;margin:0 0 12px;border:1px solid #b9c2d0;border-radius:8px;overflow:hidden}
.env-switch a{padding:6px 14px;text-decoration:none;font-size:15px}
.env-switch a[aria-current]{background:#12337f;color:#fff;font-weight:600}
.env-switch a[aria-current]::before{content:"✓ "}
.dash-wrap{overflow-x:auto}
table.dash-table{border-collapse:collapse;width:100%;font-size:14px}
.dash-table th,.dash-table td{text-align:left;vertical-align:top;padding:8px 10px;border-top:1px solid #edf0f5}
.dash-table thead th{font-weight:600;color:#4a5568;border-top:0}
.dash-table td{overflow-wrap:anywhere}
.dash-table .num{text-align:right;white-space:nowrap}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.95em}
h1.mono-title{overflow-wrap:anywhere}
.dash-pager{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center;margin-top:12px;font-size:15px}
.dash-search-row{display:flex;gap:8px;flex-wrap:wrap}
.dash-search-row input{flex:1 1 14em;min-width:0}
.dash-search-row input,.dash-search-row button{margin:0}
dl.dash-facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:6px 16px;margin:0}
dl.dash-facts dt{font-weight:600;color:#4a5568}
dl.dash-facts dd{margin:0;overflow-wrap:anywhere}
.figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(200px,1fr));gap:12px;margin-bottom:16px}
.figure{background:#fff;border:1px solid #dfe4ec;border-radius:10px;padding:12px 16px}
.figure p{margin:0}
.figure-label{font-size:14px;color:#4a5568}
.figure-value{font-size:26px;font-weight:700}
.figure-note{font-size:13px;color:#4a5568}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(280px,1fr));gap:16px}
figure.chart{margin:0}
figure.chart figcaption{font-weight:600;margin-bottom:4px}
figure.chart svg{width:100%;height:auto;display:block;background:#fff}
figure.chart .bar{fill:#1a46b8;stroke:#0c2a70;stroke-width:1}
figure.chart .axis{stroke:#1c2433;stroke-width:1}
figure.chart .grid{stroke:#b9c2d0;stroke-dasharray:4 4}
figure.chart .tick{font-size:17px;fill:#1c2433}
.chart-desc{font-size:13px}
details.numbers{margin-top:12px}
.health-ok{color:#1d5f2e;font-weight:600}
.health-bad{color:#9b1c1c;font-weight:600}
.blocked-yes{color:#9b1c1c;font-weight:700}
.blocked-grace{color:#8a4b00;font-weight:600}
@media (max-width:640px){.dash-table:not(.days-table) thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}.dash-table:not(.days-table),.dash-table:not(.days-table) tbody,.dash-table:not(.days-table) tr,.dash-table:not(.days-table) td{display:block;width:100%}.dash-table:not(.days-table) tr{border-top:1px solid #dfe4ec;padding:8px 0}.dash-table:not(.days-table) td{border:0;padding:3px 0;display:grid;grid-template-columns:8.5em minmax(0,1fr);gap:8px;text-align:left}.dash-table:not(.days-table) td::before{content:attr(data-label);font-weight:600;color:#4a5568}dl.dash-facts{grid-template-columns:minmax(0,1fr)}dl.dash-facts dd{margin-bottom:6px}}
.pay-env ul{display:flex;gap:8px;list-style:none;padding:0;margin:0 0 16px}
.pay-env a{display:inline-block;padding:6px 14px;border:1px solid #8792a2;border-radius:999px;color:inherit;text-decoration:none}
.pay-env a[aria-current=page]{background:#1c2433;color:#fff;border-color:#1c2433;font-weight:600}
.pay-filters h2,.pay-list h2,.pay-export h2{font-size:18px;margin:0 0 8px}
.pay-grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(180px,1fr));gap:0 16px}
.pay-filters input[type=search],.pay-filters input[type=date],.pay-filters select{display:block;width:100%;padding:10px 12px;border:1px solid #8792a2;border-radius:10px;font:inherit;background:#fff;color:inherit}
.pay-actions{margin-top:16px;display:flex;gap:16px;align-items:center;flex-wrap:wrap}
.pay-wrap{overflow-x:auto}
table.pay-table{border-collapse:collapse;width:100%;font-size:15px}
table.pay-table th,table.pay-table td{text-align:left;padding:8px 10px;border-top:1px solid #edf0f5;vertical-align:top}
table.pay-table th{font-size:13px;color:#4a5568;border-top:0;white-space:nowrap}
td.pay-amount{white-space:nowrap;text-align:right}
td.pay-order,td.pay-email{overflow-wrap:anywhere;min-width:8em}
.pay-badge{display:inline-block;font-size:14px;padding:2px 10px;border-radius:999px;background:#eef1f6;color:#1c2433;white-space:nowrap}
.pay-completed{background:#e8f4ec;color:#14532d}
.pay-failed{background:#fdeeee;color:#7f1d1d}
.pay-pending,.pay-processing{background:#fff4d6;color:#6b4500}
.pay-refunded{background:#e8eefc;color:#1e3a8a}
.pay-pager{display:flex;gap:16px;flex-wrap:wrap;margin-top:12px}
.pay-progress{font-weight:600;min-height:1.4em}
@media (max-width:760px){table.pay-table thead{position:absolute;left:-9999px}table.pay-table tr{display:block;border-top:1px solid #edf0f5;padding:8px 0}table.pay-table td{display:grid;grid-template-columns:7.5em minmax(0,1fr);gap:8px;border:0;padding:3px 0;text-align:left}table.pay-table td::before{content:attr(data-label);font-weight:600;color:#4a5568}td.pay-amount{text-align:left}.pay-badge{justify-self:start}}
.pd-back{margin:0 0 6px}
dl.pd-fields{display:grid;grid-template-columns:minmax(0,max-content) minmax(0,1fr);gap:6px 16px;margin:0}
dl.pd-fields dt{font-weight:600;color:#4a5568}
dl.pd-fields dd{margin:0;overflow-wrap:anywhere}
.pd-wrap{overflow-wrap:anywhere;white-space:normal!important}
ol.pd-timeline{margin:0;padding-left:1.3em}
ol.pd-timeline li{margin:4px 0}
.pd-event{border-top:1px solid #edf0f5;padding:10px 0}
.pd-event h3{font-size:16px;margin:4px 0 8px;overflow-wrap:anywhere}
button.secondary.small{margin:0;padding:6px 10px;font-size:14px;font-weight:600}
@media (max-width:760px){dl.pd-fields{grid-template-columns:minmax(0,2fr) minmax(0,3fr);gap:6px 12px;font-size:15px}}
.pd-table-wrap{overflow-x:auto;margin:0 -4px}
.pd-table-wrap:focus-visible{outline:3px solid #5b84e8;outline-offset:2px}
table.pd-table{border-collapse:collapse;width:100%;font-size:15px}
.pd-table th,.pd-table td{text-align:left;padding:9px 8px;border-top:1px solid #edf0f5;vertical-align:top}
.pd-table thead th{border-top:0;font-size:13px;color:#4a5568;font-weight:600;white-space:nowrap}
.pd-table time{white-space:nowrap}
@media (max-width:640px){.pd-table-wrap{margin:0;overflow:visible}.pd-table thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}.pd-table,.pd-table tbody,.pd-table tr,.pd-table td{display:block;width:100%}.pd-table tr{border-top:1px solid #dfe4ec;padding:6px 0}.pd-table tr:first-child{border-top:0}.pd-table td{border:0;padding:2px 0;display:grid;grid-template-columns:minmax(0,2fr) minmax(0,3fr);gap:12px;font-size:14px}.pd-table td::before{content:attr(data-label);font-weight:600;color:#4a5568}.pd-table time{white-space:normal}.pd-table td.pd-repeated{display:none}}
.pd-problems h2{font-size:17px;margin:0 0 6px}
.pd-problems ul{margin:0;padding-left:20px}
.pd-problems a{color:#7f1d1d;font-weight:600}
.pd-attempts{margin:6px 0 4px}
h4.pd-attempts-title{font-size:14px;margin:10px 0 2px;color:#4a5568}
.pd-attempt td{font-size:14px}
.pd-hold-state{margin:12px 0 0}
.pd-hold-in_flight{background:#eef3fb;border:1px solid #b9cbe8;color:#1e3a8a;border-radius:10px;padding:10px 14px}
.pd-hold-actions{display:grid;grid-template-columns:repeat(auto-fit,minmax(260px,1fr));gap:4px 32px;margin-top:8px}
.pd-hold-actions h3{font-size:16px;margin:12px 0 6px}
.pay-authorized{background:#f1e8fc;color:#4c1d95}
.pay-status{display:inline-flex;flex-direction:column;align-items:flex-start;gap:3px}
.pay-deadline{font-size:13px;color:#4a5568}
.pay-quick{display:flex;gap:8px 12px;align-items:center;flex-wrap:wrap;margin:16px 0 12px}
.pay-quick a{display:inline-block;padding:4px 12px;border:1px solid #8792a2;border-radius:999px;color:inherit;text-decoration:none}
.pay-quick a[aria-current=true]{background:#1c2433;color:#fff;border-color:#1c2433;font-weight:600}
.pay-quick .hint{margin:0}
`;
