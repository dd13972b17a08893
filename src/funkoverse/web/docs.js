// The API's documentation page (/docs): Swagger UI over the server's own OpenAPI document,
// every script served by the server, nothing fetched from elsewhere.
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  validatorUrl: null,
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
