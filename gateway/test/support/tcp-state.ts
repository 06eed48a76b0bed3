import { readFileSync } from 'node:fs';

/** TCP states of /proc/net/tcp (include/net/tcp_states.h). */
const TIME_WAIT = '06';
const CLOSE = '07';

/**
 * Whether the other end of our IPv4 loopback connection from `localPort` has closed its side too:
 * our socket, closed first, is in TIME_WAIT (or gone) once the peer's FIN came. A test reads it to
 * know a server has seen its client leave, without guessing how long that takes on a busy machine.
 */
export function peerHasClosed(localPort: number): boolean {
  const local = `0100007F:${localPort.toString(16).toUpperCase().padStart(4, '0')}`;
  const line = readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .find((fields) => fields[1] === local);
  return !line || line[3] === TIME_WAIT || line[3] === CLOSE;
}
