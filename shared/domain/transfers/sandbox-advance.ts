import type { AuditAction } from '../audit/actions.js';
import { ApiError } from '../errors.js';
import type { ServiceDeps } from '../ports.js';
import type { RequestContext } from '../tenancy.js';
import type { TransferStore } from './ports.js';
import { RAIL_SETTLEMENT_MS, scaledMs } from './transfer-rules.js';
import { reloadTransfer, type RailAcceptance, type TransferTransitions } from './transfer-transitions.js';
import type { ExternalRail, Transfer, TransferStatus } from './types.js';

/** The states the test helper moves a transfer to. */
export type AdvanceTarget = Extract<TransferStatus, 'PENDING' | 'COMPLETED' | 'FAILED'>;

/** The failure reason of a transfer the test helper failed. */
const FORCED_REASON = 'FAILED_BY_TEST_HELPER';

/** The test helper's next move toward a target state (a trigger of the state table), from each state it may leave. */
const ADVANCE_MOVES: Record<
  AdvanceTarget,
  Partial<Record<'INITIATED' | 'PENDING', 'submit' | 'complete' | 'reject' | 'fail'>>
> = {
  PENDING: { INITIATED: 'submit' },
  COMPLETED: { INITIATED: 'submit', PENDING: 'complete' },
  FAILED: { INITIATED: 'reject', PENDING: 'fail' },
};
const MAX_ADVANCE_ROUNDS = 4;

export interface SandboxAdvanceOptions {
  transitions: TransferTransitions;
  /** A transfer the caller may see (the client operations' `get`). */
  load: (ctx: RequestContext, transferId: string) => Promise<Transfer>;
}

/**
 * Sandbox test helper: moves a transfer to PENDING, COMPLETED or FAILED through the same
 * transitions and movements as the workflow (the workflow then finds the work done). Its
 * submission goes to no rail: it is accepted at once and settles after the rail's sandbox time.
 */
export function createSandboxAdvance(deps: ServiceDeps<TransferStore>, options: SandboxAdvanceOptions) {
  const { store, clock } = deps;
  const { transitions, load } = options;

  /** The test helper's stand-in for the rail's acceptance. */
  const forcedAcceptance = (transfer: Transfer): RailAcceptance => ({
    reference: `forced_${transfer.id}`,
    settleAt: new Date(
      clock.now().getTime() +
        scaledMs(transfer.environment, RAIL_SETTLEMENT_MS[transfer.rail as ExternalRail], deps.timeScale),
    ).toISOString(),
  });

  async function advance(
    ctx: RequestContext,
    action: AuditAction,
    transferId: string,
    to: AdvanceTarget,
  ): Promise<Transfer> {
    let transfer = await load(ctx, transferId);
    const audit = { actor: ctx.actor, action };
    const moves = {
      submit: (current: Transfer) => transitions.submit(current, forcedAcceptance(current), audit),
      complete: (current: Transfer) => transitions.complete(current, audit),
      reject: (current: Transfer) => transitions.reject(current, FORCED_REASON, audit),
      fail: (current: Transfer) => transitions.fail(current, FORCED_REASON, audit),
    };
    const refuse = (current: Transfer): never => {
      throw new ApiError('INVALID_STATE', `A ${current.status} transfer can not move to ${to}.`, {
        status: current.status,
        to,
      });
    };
    if (transfer.direction === 'INTERNAL' || transfer.status === to) return refuse(transfer);
    // One move at a time; a move lost to the workflow (or a cancel) is decided again from the state it left.
    for (let round = 0; round < MAX_ADVANCE_ROUNDS; round++) {
      if (transfer.status === to) return transfer;
      const move = ADVANCE_MOVES[to][transfer.status as 'INITIATED' | 'PENDING'];
      if (!move) return refuse(transfer);
      transfer = (await moves[move](transfer)) ?? (await reloadTransfer(store, transferId));
    }
    return transfer.status === to ? transfer : refuse(transfer);
  }

  return { advance };
}
