/**
 * Why a request path cannot be routed as it stands, or undefined when it can. The gateway routes
 * and charges by path, and the service behind it may normalise differently (Express decodes, a
 * Python or Go service may resolve `..`): a path whose meaning depends on who reads it is refused
 * before routing, never forwarded as-is. The query string is the service's to validate.
 */
export function checkPath(path: string): string | undefined {
  for (let i = 0; i < path.length; i++) {
    const code = path.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return 'the path contains control characters';
  }
  // Every refusal below needs one of these: most paths are done after one test.
  if (!/[%\\.#]|\/\//.test(path)) return undefined;
  // Never part of a request target; a proxy would drop what follows while the route check saw it.
  if (path.includes('#')) return 'the path contains a fragment (#)';
  if (/%(?![0-9A-Fa-f]{2})/.test(path)) return 'the path has a malformed percent-encoding';
  if (/%(?:[01][0-9A-Fa-f]|7[Ff])/.test(path)) return 'the path contains encoded control characters';
  if (/%2[Ff]|%5[Cc]|\\/.test(path)) return 'the path contains an encoded slash or a backslash';
  if (path.includes('//')) return 'the path contains an empty segment (//)';
  for (const segment of path.split('/')) {
    const decoded = segment.replace(/%2[Ee]/g, '.');
    if (decoded === '.' || decoded === '..') return 'the path contains a dot segment (. or ..)';
  }
  return undefined;
}
