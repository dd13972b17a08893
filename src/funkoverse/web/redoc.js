// The API's reference page (/redoc): Redoc over the server's own OpenAPI document, with the
// system's fonts (nothing fetched from elsewhere). Redoc 3's standalone bundle is an ES
// module; its search runs in a worker made from a blob, which the page's security policy
// does not allow, so the search is left out; its telemetry is turned off.
import { init } from "./vendor/redoc/redoc.standalone.js";

init("/openapi.json", {
  disableSearch: true,
  disableTelemetry: true,
  theme: { typography: { fontFamily: "system-ui, sans-serif", headings: { fontFamily: "system-ui, sans-serif" }, code: { fontFamily: "ui-monospace, monospace" } } },
}, document.getElementById("redoc"));
