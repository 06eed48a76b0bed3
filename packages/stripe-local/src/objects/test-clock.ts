/** A test clock: frozen time that the customers attached to it live in. */
export interface TestClock {
  id: string;
  object: 'test_helpers.test_clock';
  created: number;
  deletes_after: number;
  frozen_time: number;
  livemode: false;
  name: string | null;
  status: 'ready' | 'advancing' | 'internal_failure';
  status_details: { advancing?: { target_frozen_time: number } };
}
