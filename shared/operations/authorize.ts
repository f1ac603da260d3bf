import { requirePermission } from '../auth/authenticate.js';
import { ApiError } from '../domain/errors.js';
import type { Principal } from '../domain/tenancy.js';
import type { Operation } from './define.js';

/**
 * Whether a principal may call an operation (decisions.md section 1, in its order of checks):
 * operator keys only on operator operations and only there; the declared permission; sandbox-only
 * operations refuse live keys; organization operations refuse wallet-scoped keys. Every edge
 * calls this before the operation runs, so MCP can not skip what HTTP enforces.
 */
export function authorize(op: Operation, principal: Principal): void {
  if (op.access === 'public') return;
  if (op.access === 'operator' && principal.kind !== 'OPERATOR') {
    throw new ApiError('PERMISSION_DENIED', 'This endpoint is reserved for the service operator.');
  }
  if (op.access !== 'operator' && principal.kind === 'OPERATOR') {
    throw new ApiError('PERMISSION_DENIED', 'Operator keys act only on /v1/internal endpoints.');
  }
  requirePermission(principal, op.permission);
  if (op.sandboxOnly && principal.environment !== 'SANDBOX') {
    throw new ApiError(
      'SANDBOX_ONLY',
      'This endpoint exists only in the sandbox; deposit with a transfer in production.',
    );
  }
  if (op.access === 'organization' && principal.kind !== 'ORGANIZATION') {
    throw new ApiError('PERMISSION_DENIED', 'This operation needs an organization-level API key.');
  }
}

/** Whether the principal may call the operation at all (MCP lists only these tools). */
export function mayCall(op: Operation, principal: Principal): boolean {
  try {
    authorize(op, principal);
    return true;
  } catch {
    return false;
  }
}
