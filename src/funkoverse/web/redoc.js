// The API's reference page (/redoc): Redoc over the server's own OpenAPI document, with the
// system's fonts (nothing fetched from elsewhere).
Redoc.init("/openapi.json", {
  theme: { typography: { fontFamily: "system-ui, sans-serif", headings: { fontFamily: "system-ui, sans-serif" }, code: { fontFamily: "ui-monospace, monospace" } } },
}, document.getElementById("redoc"));
