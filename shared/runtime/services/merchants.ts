import { createMerchantService, type MerchantService } from '../../domain/merchants/merchant-service.js';
import type { MerchantStore } from '../../domain/merchants/ports.js';
import { createMerchantStore } from '../../persistence/merchant-store.js';
import type { Core } from '../core.js';

export function merchantService(
  core: Core,
  { store = createMerchantStore(core.table) }: { store?: MerchantStore } = {},
): MerchantService {
  return createMerchantService({ ...core.deps, store });
}
