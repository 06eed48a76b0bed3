/** What a hosted page answered to a form post. */
export interface FormAnswer {
  status: number;
  location: string | null;
  body: string;
}

/** Posts a form to a hosted page as a browser does, without following the redirect. */
export async function postForm(url: string, fields: Record<string, string>): Promise<FormAnswer> {
  const response = await fetch(url, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });
  return { status: response.status, location: response.headers.get('location'), body: await response.text() };
}

/** The card fields of the hosted pages, with a future expiry and a CVC. */
export function card(number: string): Record<string, string> {
  return { cardNumber: number, cardExpiry: '12 / 34', cardCvc: '123' };
}

/** Test card numbers as a person types them. */
export const CARDS = { ok: '4242 4242 4242 4242', chargeFails: '4000 0000 0000 0341', insufficientFunds: '4000 0000 0000 9995' } as const;
