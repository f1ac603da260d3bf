import { createHttpHandler } from '../../shared/http/middleware.js';
import { POLICIES } from '../../shared/operations/policies.js';
import { core } from '../../shared/runtime/core.js';
import { policyService } from '../../shared/runtime/services/policies.js';

export const handler = createHttpHandler(POLICIES, core, () => ({ policies: policyService(core()) }));
