/**
 * `npm run api:types`: writes tests/generated/api-v1.d.ts from the API's OpenAPI document, the one
 * /api/v1/openapi.json serves (decision 097). Run it after changing a route or a schema of the API.
 */
import fs from "node:fs";
import { openApiDocument } from "../src/server/api/openapi";
import { API_TYPES_FILE, generateApiTypes } from "./lib/api-types";

fs.writeFileSync(API_TYPES_FILE, await generateApiTypes(openApiDocument("types")));
console.log(`Wrote ${API_TYPES_FILE}`);
