/** The checkout's one stylesheet, inlined under the page's nonce: plain, calm, readable on a phone. */
export const CHECKOUT_CSS = `
*{box-sizing:border-box}
html,body{margin:0}
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","DejaVu Sans",sans-serif;color:#1c2433;background:#f2f4f8;-webkit-text-size-adjust:100%}
body.embedded{background:#fff}
.page{max-width:468px;margin:0 auto;padding:32px 16px 24px}
.embedded .page{max-width:none;padding:12px}
.card{background:#fff;border:1px solid #e1e6ef;border-radius:16px;box-shadow:0 10px 30px rgba(22,34,64,.07);padding:24px}
.embedded .card{border:0;box-shadow:none;padding:8px}
.merchant{display:flex;align-items:center;gap:12px;margin-bottom:18px}
.avatar{flex:none;width:42px;height:42px;border-radius:12px;background:#1f4fd1;color:#fff;display:flex;align-items:center;justify-content:center;font-weight:700;font-size:18px}
.merchant-name{font-weight:600;line-height:1.3;overflow-wrap:anywhere}
.host{color:#5d6b82;font-size:14px;overflow-wrap:anywhere}
.badge{display:inline-block;margin-left:auto;flex:none;background:#fff4d6;color:#8a5a00;border:1px solid #f0d48a;border-radius:999px;padding:2px 10px;font-size:12px;font-weight:600;white-space:nowrap}
.label{color:#5d6b82;font-size:13px;letter-spacing:.02em}
.amount{font-size:34px;font-weight:700;letter-spacing:-.01em;line-height:1.2;margin:2px 0 0}
dl.details{display:grid;grid-template-columns:auto 1fr;gap:6px 16px;margin:18px 0 0;padding:14px 0 0;border-top:1px solid #edf0f5;font-size:15px}
dt{color:#5d6b82}
dd{margin:0;overflow-wrap:anywhere}
.hint{color:#5d6b82;font-size:14px;margin:14px 0 0}
fieldset{border:0;padding:0;margin:22px 0 0;min-width:0}
legend{font-weight:600;margin-bottom:10px;padding:0}
.method{display:flex;align-items:center;gap:12px;border:1px solid #d3dae6;border-radius:12px;padding:14px;cursor:pointer;margin-top:8px}
.method:has(input:checked){border-color:#1f4fd1;box-shadow:0 0 0 1px #1f4fd1;background:#f5f8ff}
.method input{margin:0;width:18px;height:18px;accent-color:#1f4fd1}
.method small{display:block;color:#5d6b82;font-size:13px}
.method .logo{display:inline-flex;width:48px;height:32px;color:#1f4fd1;flex:none}
.method .logo svg{width:48px;height:32px}
.button{display:block;width:100%;text-align:center;background:#1f4fd1;color:#fff;border:0;border-radius:12px;padding:14px 16px;font:inherit;font-weight:600;cursor:pointer;text-decoration:none;margin-top:22px}
.button:hover,.button:focus-visible{background:#173fae}
.button:focus-visible,.link:focus-visible,.use:focus-visible{outline:3px solid #9db5f5;outline-offset:2px}
.button.secondary{background:#fff;color:#1f4fd1;border:1px solid #c9d3ea}
.button.secondary:hover{background:#f5f8ff}
.link{display:block;text-align:center;margin-top:16px;color:#5d6b82;font-size:14px}
.notice{background:#fff8e5;border:1px solid #f0d48a;color:#5f4100;border-radius:12px;padding:12px 14px;font-size:14px;margin:0 0 16px}
.error{background:#fdeeee;border:1px solid #f2b8b8;color:#8f1d1d;border-radius:12px;padding:12px 14px;margin:16px 0 0;font-size:15px}
.result{text-align:center}
.icon{width:60px;height:60px;border-radius:50%;display:flex;align-items:center;justify-content:center;margin:4px auto 14px}
.icon svg{width:30px;height:30px}
.ok{background:#e2f5e9;color:#17803d}
.fail{background:#fdeeee;color:#b42318}
.wait{background:#e9efff;color:#1f4fd1}
.muted{background:#eef0f4;color:#5d6b82}
.wait svg{animation:spin 1.6s linear infinite}
@keyframes spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.wait svg{animation:none}}
h1{font-size:22px;line-height:1.3;margin:0 0 8px}
h1.section{margin-top:22px}
h2{font-size:16px;margin:24px 0 4px}
p{margin:0 0 8px}
.message{font-size:17px}
label.field{display:block;margin-top:14px;font-size:14px;font-weight:600}
.field input{display:block;width:100%;margin-top:6px;padding:12px;border:1px solid #c9d1de;border-radius:10px;font:inherit;font-weight:400;background:#fff;color:inherit}
.field input:focus{outline:2px solid #1f4fd1;outline-offset:0;border-color:#1f4fd1}
.field input[aria-invalid=true]{border-color:#d64545}
.row{display:grid;grid-template-columns:1fr 1fr;gap:12px}
table.cards{width:100%;border-collapse:collapse;font-size:14px;margin-top:6px}
table.cards td{padding:7px 4px;border-top:1px solid #edf0f5;vertical-align:middle}
table.cards td:last-child{text-align:right}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace;white-space:nowrap}
.use{font:inherit;font-size:13px;color:#1f4fd1;background:#fff;border:1px solid #c9d3ea;border-radius:8px;padding:3px 10px;cursor:pointer}
footer{text-align:center;color:#5d6b82;font-size:13px;margin-top:16px}
footer a{color:#5d6b82;margin:0 6px}
footer a[aria-current]{color:#1c2433;font-weight:600;text-decoration:none}
.lock{vertical-align:-2px;margin-right:4px}
@media (max-width:420px){.page{padding:16px 10px}.card{padding:18px}.amount{font-size:30px}}
`;
