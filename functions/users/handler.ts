import { createHttpHandler } from '../../shared/http/middleware.js';
import { USERS } from '../../shared/operations/users.js';
import { core } from '../../shared/runtime/core.js';
import { userService } from '../../shared/runtime/services/users.js';

export const handler = createHttpHandler(USERS, core, () => ({ users: userService(core()) }));
