import type { Metadata } from '../core/read-metadata';

/** A webhook endpoint; its secret is kept apart and shown only in the answer to its creation. */
export interface WebhookEndpoint {
  id: string;
  object: 'webhook_endpoint';
  api_version: string | null;
  application: null;
  created: number;
  description: string | null;
  enabled_events: string[];
  livemode: false;
  metadata: Metadata;
  status: 'enabled' | 'disabled';
  url: string;
}

/** Whether the endpoint wants events of this type. */
export function wantsEvent(endpoint: WebhookEndpoint, type: string): boolean {
  return endpoint.status === 'enabled' && (endpoint.enabled_events.includes('*') || endpoint.enabled_events.includes(type));
}
