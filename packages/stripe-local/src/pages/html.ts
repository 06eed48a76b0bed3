import type { Answer } from '../http/send-answer';

/** Text made safe for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A template tag that escapes every interpolated value, except {@link raw} markup. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += toMarkup(value) + (strings[index + 1] ?? '');
  });
  return new Markup(out);
}

/** Markup that is already safe. */
export class Markup {
  constructor(readonly text: string) {}
}

function toMarkup(value: unknown): string {
  if (value instanceof Markup) return value.text;
  if (Array.isArray(value)) return value.map(toMarkup).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

const STYLE = `
body{font:16px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;background:#f6f9fc;color:#1a1f36}
main{max-width:56rem;margin:2rem auto;padding:0 1rem;display:grid;gap:1.5rem}
section{background:#fff;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.1);padding:1.5rem}
h1{font-size:1.4rem;margin:0 0 .5rem}h2{font-size:1.1rem;margin:0 0 1rem}
label{display:block;margin:.75rem 0 .25rem;font-size:.9rem;color:#4f566b}
input{width:100%;box-sizing:border-box;padding:.6rem;border:1px solid #cfd7df;border-radius:6px;font-size:1rem}
.row{display:flex;gap:.75rem}.row>div{flex:1}
button{margin-top:1rem;padding:.7rem 1.2rem;border:0;border-radius:6px;background:#635bff;color:#fff;font-size:1rem;cursor:pointer}
button.secondary{background:#fff;color:#635bff;border:1px solid #635bff}
.error{background:#fdecea;color:#a4262c;padding:.75rem;border-radius:6px}
.notice{background:#e8f5e9;color:#1b5e20;padding:.75rem;border-radius:6px}
table{width:100%;border-collapse:collapse}td,th{text-align:left;padding:.4rem;border-bottom:1px solid #e3e8ee}
.muted{color:#697386;font-size:.9rem}.amount{font-size:2rem;font-weight:600}
.badge{display:inline-block;padding:0 .5rem;border-radius:4px;background:#e3e8ee;font-size:.85rem}
`;

/** A whole page: no scripts, no outside assets. */
export function page(status: number, title: string, body: Markup): Answer {
  const text = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>${body.text}</main></body></html>`;
  return {
    status,
    body: text,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      // Inline styles only; redirects after a form post go to the merchant's site, so no form-action.
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'",
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    },
  };
}

/** A 303 to `location`: where a form post leads. */
export function redirect(location: string): Answer {
  return { status: 303, body: '', headers: { Location: location } };
}

/** A page saying something is not there. */
export function notFoundPage(what: string): Answer {
  return page(404, 'Not found', html`<section><h1>Not found</h1><p>${what}</p></section>`);
}

/** The card fields of every hosted page, named as on Stripe's own Checkout page. */
export function cardFields(): Markup {
  return html`<label for="cardNumber">Card number</label>
<input id="cardNumber" name="cardNumber" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" required>
<div class="row"><div><label for="cardExpiry">Expiry (MM / YY)</label>
<input id="cardExpiry" name="cardExpiry" autocomplete="cc-exp" placeholder="MM / YY" required></div>
<div><label for="cardCvc">CVC</label><input id="cardCvc" name="cardCvc" inputmode="numeric" autocomplete="cc-csc" placeholder="123" required></div></div>`;
}

/** The card form fields of a posted form. */
export function readCardFields(form: Record<string, string>): { number?: string; expiry?: string; cvc?: string } {
  return { number: form.cardNumber, expiry: form.cardExpiry, cvc: form.cardCvc };
}
