/**
 * Every migration, in order. Listed statically (not discovered by reading the folder) so that they
 * load the same way under tsx, vitest and any bundler; a test checks every file here is listed.
 */
import type { Migration } from "kysely/migration";
import * as m0001 from "./0001-init";
import * as m0002 from "./0002-accounts";
import * as m0003 from "./0003-identities";
import * as m0004 from "./0004-credit-ledger";
import * as m0005 from "./0005-rendering";
import * as m0006 from "./0006-administration";
import * as m0007 from "./0007-render-provenance";
import * as m0008 from "./0008-edits";
import * as m0009 from "./0009-listing-exports";
import * as m0010 from "./0010-two-factor-failures";
import * as m0011 from "./0011-storage-budgets";
import * as m0012 from "./0012-payment-holds";
import * as m0013 from "./0013-query-indexes";
import * as m0014 from "./0014-backups";
import * as m0015 from "./0015-render-request-ids";
import * as m0016 from "./0016-housekeeping-runs";
import * as m0017 from "./0017-credit-packages";
import * as m0018 from "./0018-studio-settings";
import * as m0019 from "./0019-webhook-receipts";
import * as m0020 from "./0020-onboarding-done";
import * as m0021 from "./0021-version-numbers";
import * as m0022 from "./0022-teams";
import * as m0023 from "./0023-clients";
import * as m0024 from "./0024-review-links";
import * as m0025 from "./0025-render-leases";
import * as m0026 from "./0026-run-claims-and-rate-counts";
import * as m0027 from "./0027-render-workers";
import * as m0028 from "./0028-engine-fallback";
import * as m0029 from "./0029-room-measures";
import * as m0030 from "./0030-upscale-engine";
import * as m0031 from "./0031-render-sets";
import * as m0033 from "./0033-engine-work-ids";
import * as m0034 from "./0034-api-keys";
import * as m0035 from "./0035-api-idempotency";
import * as m0036 from "./0036-webhooks";
import * as m0038 from "./0038-api-key-language";
import * as m0039 from "./0039-api-render-slots";
import * as m0040 from "./0040-api-usage";
import * as m0041 from "./0041-space-events";
import * as m0042 from "./0042-render-style-snapshot";
import * as m0043 from "./0043-custom-styles";
import * as m0044 from "./0044-community";
import * as m0045 from "./0045-marketplace";
import * as m0046 from "./0046-portfolios";
import * as m0047 from "./0047-paint";
import * as m0048 from "./0048-exterior-modes";
import * as m0049 from "./0049-listing-videos";
import * as m0050 from "./0050-team-listing-videos";

export const migrations: Record<string, Migration> = {
  "0001-init": m0001,
  "0002-accounts": m0002,
  "0003-identities": m0003,
  "0004-credit-ledger": m0004,
  "0005-rendering": m0005,
  "0006-administration": m0006,
  "0007-render-provenance": m0007,
  "0008-edits": m0008,
  "0009-listing-exports": m0009,
  "0010-two-factor-failures": m0010,
  "0011-storage-budgets": m0011,
  "0012-payment-holds": m0012,
  "0013-query-indexes": m0013,
  "0014-backups": m0014,
  "0015-render-request-ids": m0015,
  "0016-housekeeping-runs": m0016,
  "0017-credit-packages": m0017,
  "0018-studio-settings": m0018,
  "0019-webhook-receipts": m0019,
  "0020-onboarding-done": m0020,
  "0021-version-numbers": m0021,
  "0022-teams": m0022,
  "0023-clients": m0023,
  "0024-review-links": m0024,
  "0025-render-leases": m0025,
  "0026-run-claims-and-rate-counts": m0026,
  "0027-render-workers": m0027,
  "0028-engine-fallback": m0028,
  "0029-room-measures": m0029,
  "0030-upscale-engine": m0030,
  "0031-render-sets": m0031,
  "0033-engine-work-ids": m0033,
  "0034-api-keys": m0034,
  "0035-api-idempotency": m0035,
  "0036-webhooks": m0036,
  "0038-api-key-language": m0038,
  "0039-api-render-slots": m0039,
  "0040-api-usage": m0040,
  "0041-space-events": m0041,
  "0042-render-style-snapshot": m0042,
  "0043-custom-styles": m0043,
  "0044-community": m0044,
  "0045-marketplace": m0045,
  "0046-portfolios": m0046,
  "0047-paint": m0047,
  "0048-exterior-modes": m0048,
  "0049-listing-videos": m0049,
  "0050-team-listing-videos": m0050,
};
