/**
 * Names of the memory engine's counters and sliding logs. They are the strings the Redis keys
 * use, because the embedded store's file keeps its counters under these names: a new name would
 * reset every quota month of an existing file.
 */
export const counterNames = {
  secondLog: (accountId: string, api: string): string => `gw:{${accountId}}:sec:${api}`,
  month: (accountId: string, api: string, monthId: string): string => `gw:{${accountId}}:month:${api}:${monthId}`,
  day: (accountId: string, api: string, dayId: string): string => `gw:{${accountId}}:day:${api}:${dayId}`,
  signups: (ip: string, hourId: string): string => `gw:{signup:${ip}}:${hourId}`,
  action: (accountId: string, action: string, windowId: string): string => `gw:{${accountId}}:act:${action}:${windowId}`,
};
