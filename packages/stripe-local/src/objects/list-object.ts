/** Stripe's list envelope. */
export interface ListObject<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
  total_count?: number;
}

/** A whole list embedded in another object (a subscription's items, an invoice's lines). */
export function embeddedList<T>(data: T[], url: string): ListObject<T> {
  return { object: 'list', data, has_more: false, total_count: data.length, url };
}
