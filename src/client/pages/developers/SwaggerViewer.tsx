/**
 * The OpenAPI document rendered by Swagger UI (swagger-ui-react, bundled with the app; decision 097).
 * Loaded lazily by ApiReference.tsx, so that its code and styles are a chunk of their own that only
 * this part of /developers asks for. It asks for nothing but /api/v1/openapi.json: no online
 * validator badge, no configuration read from the address (queryConfigEnabled stays off), and "Try
 * it out" sends requests to this server only (the document's server is /api/v1).
 */
import SwaggerUI from "swagger-ui-react";
import "swagger-ui-react/swagger-ui.css";
import "./api-reference.css";
import { API_BASE } from "../../../shared/api";

/** No validator badge, whatever the layout: it would load an image from an outside validator. */
const noValidatorBadge = () => ({ components: { onlineValidatorBadge: () => null } });

export default function SwaggerViewer({ onReady }: { onReady?: () => void }) {
  return (
    <div className="api-reference" data-testid="api-reference-viewer">
      <SwaggerUI
        url={`${API_BASE}/openapi.json`}
        plugins={[noValidatorBadge]}
        queryConfigEnabled={false}
        deepLinking={false}
        docExpansion="list"
        defaultModelsExpandDepth={0}
        tryItOutEnabled={false}
        onComplete={() => onReady?.()}
      />
    </div>
  );
}
