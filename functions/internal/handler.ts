import { createHttpHandler } from '../../shared/http/middleware.js';
import { INTERNAL } from '../../shared/operations/internal.js';
import { core } from '../../shared/runtime/core.js';
import { hotModeService } from '../../shared/runtime/services/hot-mode.js';
import { complianceService } from '../../shared/runtime/services/compliance.js';
import { merchantService } from '../../shared/runtime/services/merchants.js';
import { organizationService } from '../../shared/runtime/services/organizations.js';
import { reviewService } from '../../shared/runtime/services/reviews.js';

/** Operator endpoints. */
export const handler = createHttpHandler(INTERNAL, core, () => ({
  organizations: organizationService(core()),
  compliance: complianceService(core()),
  merchants: merchantService(core()),
  reviews: reviewService(core()),
  hotMode: hotModeService(core()),
}));
