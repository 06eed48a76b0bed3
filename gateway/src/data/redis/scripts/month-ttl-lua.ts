/**
 * Lua: `monthTtl(now)`, the seconds a month counter made at `now` (Unix ms) lives: to the end of its
 * UTC calendar month plus a day, as `ttlSeconds(monthWindow(now), now)` says in domain/windows.ts
 * (a test holds the two to the same answer). The admission script works it out itself, once a
 * month per counter, instead of every call sending it: each argument a script is sent costs Redis
 * about a thousand instructions a call. The calendar is Howard Hinnant's `civil_from_days` and
 * `days_from_civil`, in whole numbers only (Lua's numbers are doubles: exact to 2^53).
 */
export const MONTH_TTL_LUA = `
local function monthTtl(now)
  local z = math.floor(now / 86400000) + 719468
  local era = math.floor(z / 146097)
  local doe = z - era * 146097
  local yoe = math.floor((doe - math.floor(doe / 1460) + math.floor(doe / 36524) - math.floor(doe / 146096)) / 365)
  local doy = doe - (365 * yoe + math.floor(yoe / 4) - math.floor(yoe / 100))
  local mp = math.floor((5 * doy + 2) / 153)
  -- The month after now's, in the calendar these formulas count in: years start in March (month 0),
  -- so January and February (10, 11) belong to the year before, and after February comes March.
  local y, month = yoe + era * 400, mp + 1
  if month == 12 then y, month = y + 1, 0 end
  era = math.floor(y / 400)
  yoe = y - era * 400
  local days = era * 146097 + yoe * 365 + math.floor(yoe / 4) - math.floor(yoe / 100) + math.floor((153 * month + 2) / 5) - 719468
  return math.max(1, math.ceil((days * 86400000 - now) / 1000)) + 86400
end
`;
