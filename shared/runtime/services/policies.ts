import { createPolicyService, type PolicyService } from '../../domain/policies/policy-service.js';
import type { PolicyStore } from '../../domain/policies/ports.js';
import { createPolicyStore } from '../../persistence/policy-store.js';
import type { Core } from '../core.js';

export function policyService(
  core: Core,
  { store = createPolicyStore(core.table) }: { store?: PolicyStore } = {},
): PolicyService {
  return createPolicyService({ ...core.deps, store });
}
