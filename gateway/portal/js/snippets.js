// The same call as code to copy. The secret is never put in a snippet: each reads TOLLGATE_KEY from
// the environment, so a snippet can be pasted into a ticket or a screenshot without leaking a key.

const quote = (text) => `'${text.replace(/'/g, "'\\''")}'`;

/** { curl, fetch, python, go } for a GET of `url` with the key in `keyHeader`. */
export function snippets(url, keyHeader) {
  return {
    curl: `curl -i -H "${keyHeader}: $TOLLGATE_KEY" ${quote(url)}`,
    fetch: `const res = await fetch(${JSON.stringify(url)}, {\n  headers: { ${JSON.stringify(keyHeader)}: process.env.TOLLGATE_KEY },\n});\nconsole.log(res.status, res.headers.get('x-ratelimit-requests-remaining'));\nconsole.log(await res.json());`,
    python: `import os\nimport requests\n\nres = requests.get(\n    ${JSON.stringify(url)},\n    headers={${JSON.stringify(keyHeader)}: os.environ["TOLLGATE_KEY"]},\n    timeout=30,\n)\nprint(res.status_code, res.headers.get("X-RateLimit-Requests-Remaining"))\nprint(res.json())`,
    go: `package main\n\nimport (\n\t"fmt"\n\t"io"\n\t"net/http"\n\t"os"\n)\n\nfunc main() {\n\treq, err := http.NewRequest(http.MethodGet, ${JSON.stringify(url)}, nil)\n\tif err != nil {\n\t\tpanic(err)\n\t}\n\treq.Header.Set(${JSON.stringify(keyHeader)}, os.Getenv("TOLLGATE_KEY"))\n\tres, err := http.DefaultClient.Do(req)\n\tif err != nil {\n\t\tpanic(err)\n\t}\n\tdefer res.Body.Close()\n\tbody, err := io.ReadAll(res.Body)\n\tif err != nil {\n\t\tpanic(err)\n\t}\n\tfmt.Println(res.StatusCode, res.Header.Get("X-RateLimit-Requests-Remaining"))\n\tfmt.Println(string(body))\n}`,
  };
}
