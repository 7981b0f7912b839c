/** The page a returning buyer sees while the payment's outcome is not known yet: it reloads itself. */
export function returnPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="3">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Confirming your payment</title></head>
<body><main><h1>Confirming your payment…</h1><p>This page refreshes by itself and takes you back to the shop.</p></main></body></html>
`;
}
