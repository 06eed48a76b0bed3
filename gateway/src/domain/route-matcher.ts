import type { OpenApiDocument } from '@tollgate/envelope/core';

/**
 * The route a path is, as the service documents it (or null for none), from its OpenAPI document: the paths it
 * documents under `/v1/`, templated segments (`{id}`) matching one segment. A trailing slash is
 * ignored, as the services' routers ignore it. The path has no query string.
 */
export function routeMatcher(document: OpenApiDocument): (path: string) => string | null {
  const exact = new Set<string>();
  const templated: [RegExp, string][] = [];
  for (const path of Object.keys(document.paths ?? {})) {
    if (!path.startsWith('/v1/')) continue;
    if (path.includes('{')) {
      const pattern = path.split('/').map((s) => (/^\{[^}]+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
      templated.push([new RegExp(`^${pattern}$`), path]);
    } else exact.add(path);
  }
  return (path) => {
    const bare = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    if (exact.has(bare)) return bare;
    for (const [re, template] of templated) if (re.test(bare)) return template;
    return null;
  };
}
