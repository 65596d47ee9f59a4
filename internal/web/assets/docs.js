// The API reference: Swagger UI over /openapi.json. In demo mode the
// Authorize dialog is prefilled with the demo client's credentials.
"use strict";
(async function () {
  const cfg = await fetch("/web/config.json").then((r) => r.json());
  const ui = SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#swagger",
    deepLinking: false,
    tryItOutEnabled: true,
    persistAuthorization: false,
  });
  if (cfg.demo) {
    ui.initOAuth({ clientId: cfg.client_id, clientSecret: cfg.client_secret });
  }
  window.energyDocs = ui;
})();
