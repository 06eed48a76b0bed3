// The same call as code to copy. The secret is never put in a snippet: each reads TOLLGATE_KEY from
// the environment, so a snippet can be pasted into a ticket or a screenshot without leaking a key.

const quote = (text) => `'${text.replace(/'/g, "'\\''")}'`;

/** { curl, fetch, python } for a GET of `url` with the key in `keyHeader`. */
export function snippets(url, keyHeader) {
  return {
    curl: `curl -i -H "${keyHeader}: $TOLLGATE_KEY" ${quote(url)}`,
    fetch: `const res = await fetch(${JSON.stringify(url)}, {\n  headers: { ${JSON.stringify(keyHeader)}: process.env.TOLLGATE_KEY },\n});\nconsole.log(res.status, res.headers.get('x-ratelimit-requests-remaining'));\nconsole.log(await res.json());`,
    python: `import os\nimport requests\n\nres = requests.get(\n    ${JSON.stringify(url)},\n    headers={${JSON.stringify(keyHeader)}: os.environ["TOLLGATE_KEY"]},\n    timeout=30,\n)\nprint(res.status_code, res.headers.get("X-RateLimit-Requests-Remaining"))\nprint(res.json())`,
  };
}
