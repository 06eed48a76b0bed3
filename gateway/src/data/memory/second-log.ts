/**
 * One key's sliding log for one API: parallel arrays of call times and refund tokens. An entry
 * lives for a second, longer than young-generation GCs are apart under load, so an object per
 * entry would be promoted to the old generation; numbers in arrays are not separate objects.
 */
export interface SecondLog {
  times: number[];
  members: number[];
}

/** Drops the entries at or before `cutoffMs`, in place (a test clock may go back, so no ordering is assumed). */
export function trimLog(log: SecondLog, cutoffMs: number): void {
  let kept = 0;
  for (let i = 0; i < log.times.length; i++) {
    if ((log.times[i] as number) > cutoffMs) {
      log.times[kept] = log.times[i] as number;
      log.members[kept] = log.members[i] as number;
      kept++;
    }
  }
  log.times.length = kept;
  log.members.length = kept;
}

/** Removes the entry of `member`; returns whether it was there. */
export function removeMember(log: SecondLog | undefined, member: number): boolean {
  const at = log ? log.members.indexOf(member) : -1;
  if (!log || at < 0) return false;
  log.times.splice(at, 1);
  log.members.splice(at, 1);
  return true;
}
