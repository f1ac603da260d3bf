import { createHttpHandler } from '../../shared/http/middleware.js';
import { APPROVALS } from '../../shared/operations/approvals.js';
import { core } from '../../shared/runtime/core.js';
import { approvalService } from '../../shared/runtime/services/approvals.js';

export const handler = createHttpHandler(APPROVALS, core, () => ({ approvals: approvalService(core()) }));
