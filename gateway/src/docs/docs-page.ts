/** The Swagger UI page; its assets come from the installed swagger-ui-dist under /docs/assets. */
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
    <script>window.ui = SwaggerUIBundle({ url: '/docs/openapi.json', dom_id: '#swagger-ui', persistAuthorization: true });</script>
  </body>
</html>
`;
