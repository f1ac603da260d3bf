import { hostedUrl } from '../../config/hosted-urls.js';
import type { SessionRevoker } from '../../domain/users/ports.js';
import { createUserService, type UserService } from '../../domain/users/user-service.js';
import type { UserStore } from '../../domain/users/user-store.js';
import { createUserStore } from '../../persistence/user-store.js';
import type { Core } from '../core.js';

export function userService(
  core: Core,
  { store = createUserStore(core.table), sessions }: { store?: UserStore; sessions?: SessionRevoker } = {},
): UserService {
  return createUserService({
    store,
    clock: core.clock,
    ids: core.ids,
    publicUrl: (path) => hostedUrl(core.config, path),
    sessions,
  });
}
