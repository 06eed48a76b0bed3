/** A billing portal session: a short link to this server's portal page for one customer. */
export interface PortalSession {
  id: string;
  object: 'billing_portal.session';
  configuration: string;
  created: number;
  customer: string;
  flow: { type: string; subscription: string | null; after_completion: { type: 'portal_homepage' | 'redirect'; redirect: { return_url: string } | null } } | null;
  livemode: false;
  locale: null;
  on_behalf_of: null;
  return_url: string | null;
  url: string;
}
