import {
  createOrganizationService,
  type OrganizationService,
} from '../../domain/organizations/organization-service.js';
import type { OrganizationStore } from '../../domain/organizations/ports.js';
import { createOrganizationStore } from '../../persistence/organization-store.js';
import type { Core } from '../core.js';

export function organizationService(
  core: Core,
  { store = createOrganizationStore(core.table) }: { store?: OrganizationStore } = {},
): OrganizationService {
  return createOrganizationService({ ...core.deps, store });
}
