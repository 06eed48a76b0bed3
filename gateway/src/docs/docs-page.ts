/**
 * The Swagger UI page; its assets come from the installed swagger-ui-dist under /docs/assets and its
 * start-up from /docs/init.js (no inline script: the pages' CSP allows none).
 */
export const DOCS_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Tollgate API reference</title>
    <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`;

/**
 * Starts Swagger UI. What is typed into "Authorize" (a key, the admin token) stays in the page's
 * memory and is gone with the tab: nothing is persisted. No validator badge (it would call
 * validator.swagger.io, which the CSP refuses).
 */
export const DOCS_INIT = `window.ui = SwaggerUIBundle({ url: '/docs/openapi.json', dom_id: '#swagger-ui', persistAuthorization: false, validatorUrl: null });
`;
