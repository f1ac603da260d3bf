import type { Clock } from '../clock.js';
import type { RailTransfer, TransferRail } from './ports.js';
import { RAIL_SETTLEMENT_MS, scaledMs } from './transfer-rules.js';

/**
 * The sandbox rail (decisions.md section 4): accepts every submission, except an account number
 * ending in 0003 (rejected at submission: INITIATED -> FAILED), and settles after the rail's
 * duration divided by TIME_SCALE; an account number ending in 0002 or a USDC address ending in
 * `dead` fails at settlement. A cancel is accepted until the settlement time. Stateless:
 * everything it needs is in the transfer.
 */
export const SANDBOX_MAGIC = {
  rejectedAtSubmission: '0003',
  failsAtSettlement: '0002',
  usdcFailsAtSettlement: 'dead',
} as const;

const accountNumberOf = (transfer: RailTransfer) =>
  transfer.counterparty.kind === 'bank'
    ? (transfer.counterparty.accountNumber ?? transfer.counterparty.last4)
    : undefined;

export function sandboxRail(clock: Clock, timeScale: number): TransferRail {
  return {
    async submit(transfer) {
      if (accountNumberOf(transfer)?.endsWith(SANDBOX_MAGIC.rejectedAtSubmission))
        return { accepted: false, reason: 'SUBMISSION_REJECTED' };
      const settleAt = new Date(
        clock.now().getTime() + scaledMs('SANDBOX', RAIL_SETTLEMENT_MS[transfer.rail], timeScale),
      ).toISOString();
      return { accepted: true, reference: `sandbox_${transfer.id}`, settleAt };
    },
    async settlement(transfer) {
      if (accountNumberOf(transfer)?.endsWith(SANDBOX_MAGIC.failsAtSettlement))
        return { outcome: 'FAILED', reason: 'R03_NO_ACCOUNT' };
      if (
        transfer.counterparty.kind === 'usdc' &&
        transfer.counterparty.address.toLowerCase().endsWith(SANDBOX_MAGIC.usdcFailsAtSettlement)
      )
        return { outcome: 'FAILED', reason: 'ADDRESS_REJECTED' };
      if (clock.now().getTime() < Date.parse(transfer.settleAt))
        return { outcome: 'PENDING', settleAt: transfer.settleAt };
      return { outcome: 'SETTLED' };
    },
    async cancel(transfer) {
      // Until its settlement time a sandbox transfer can be stopped; from then on it is settling.
      return clock.now().getTime() < Date.parse(transfer.settleAt)
        ? { cancelled: true }
        : { cancelled: false, reason: 'ALREADY_SETTLING' };
    },
  };
}

/**
 * The production rail until a provider is configured: every submission is rejected, so a live
 * transfer fails at once (its hold released) instead of moving money that does not exist.
 */
export const unconfiguredRail: TransferRail = {
  async submit() {
    return { accepted: false, reason: 'RAIL_NOT_CONFIGURED' };
  },
  async settlement() {
    return { outcome: 'FAILED', reason: 'RAIL_NOT_CONFIGURED' };
  },
  async cancel() {
    return { cancelled: true };
  },
};
