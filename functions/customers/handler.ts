import { createHttpHandler } from '../../shared/http/middleware.js';
import { CUSTOMERS } from '../../shared/operations/customers.js';
import { core } from '../../shared/runtime/core.js';
import { customerService } from '../../shared/runtime/services/customers.js';

export const handler = createHttpHandler(CUSTOMERS, core, () => ({ customers: customerService(core()) }));
