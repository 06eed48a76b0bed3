/** Where {@link deadlineCheckLua}'s code finds Redis's time, the deadline, and what it returns when late. */
export interface DeadlineCheck {
  /** A Lua expression for the deadline (Unix ms, a string as scripts receive it), e.g. `ARGV[1]`. */
  deadline: string;
  /** What the script returns when the deadline has passed. */
  onLate: string;
  /** A Lua expression for `{seconds, microseconds}`; Redis `TIME` unless a test gives its own. */
  time?: string;
}

/**
 * Lua statements that end the script with `onLate` when Redis's clock is past the deadline: a
 * script that reaches Redis after it (the gateway already answered 503) must write nothing.
 *
 * The deadline is compared as text while it lies in a later second than Redis's clock, which is
 * every call but those in the deadline's own second (a gateway's deadlines are seconds away):
 * digit strings of equal length compare as their numbers do, and turning `TIME`'s two strings and
 * the deadline into numbers was 2% of the admission script's instructions. Otherwise, and for a
 * deadline of any other length, the numbers are compared.
 */
export function deadlineCheckLua(check: DeadlineCheck): string {
  return `
local time = ${check.time ?? "redis.call('TIME')"}
local deadline = ${check.deadline}
local second = string.sub(deadline, 1, -4)
if not (#second == #time[1] and time[1] < second) and time[1] * 1000 + math.floor(time[2] / 1000) > deadline + 0 then return ${check.onLate} end
`;
}
