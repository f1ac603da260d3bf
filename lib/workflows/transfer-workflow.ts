import { TRANSFER_STEPS_WORKER, TRANSFER_WORKFLOW_NAME } from '../../shared/workers.js';
import { TRANSFER_END_STATUSES } from '../../shared/workflows/transfer-step-input.js';
import type { StateMachineDefinition, WorkflowDeclaration } from './asl.js';
import { placeholder } from './asl.js';
import {
  listed,
  stepStatusIn,
  stepStatusWithTimestamp,
  stepTask,
  TRUNCATED_WAIT_PAUSE_SECONDS,
  truncatedWaitPause,
} from './steps.js';

/**
 * The transfer workflow (Step Functions STANDARD; decisions.md section 4), started once per transfer
 * with `{"transferId": ...}` as input and the transfer id as execution name
 * (shared/workflows/transfer-workflows.ts). Each Task calls the `transfer-steps` worker with
 * `{step, transferId}` (TransferStepInput of shared/domain/transfers/ports.ts); its answer
 * (TransferStepOutput: status, settleAt) lands in `$.step` and decides what comes next:
 *
 *   Submit -> Submitted? -PENDING-> WaitForRail (until settleAt) -> Settle -> Settled?
 *     Settled? -PENDING-> WaitForRailAgain (until the new settleAt) -> NotSettledYet (1 s) -> Settle ...
 *     an end status of the transfer (transfer-states.ts: COMPLETED | FAILED | CANCELLED, from either step) -> Done
 *     anything else -> UnexpectedStatus (the execution fails: alarm)
 *
 * A step that finds its work done answers the status as it is (a test helper advanced the
 * transfer, a cancel won the race), so every business outcome ends in Done: failed executions
 * (and their alarm) are only steps that kept failing or answered nonsense.
 *
 * The wait is a TimestampPath on the `settleAt` the step answers (ISO 8601 with milliseconds,
 * already divided by TIME_SCALE in the sandbox), so sandbox and real waits are the same state.
 * aws-local-stepfunctions waits to the millisecond; Step Functions truncates a Wait timestamp to
 * the second, so in AWS the settle step may run up to a second early and answer PENDING: the
 * loop back waits until the settleAt it answers and then NOT_SETTLED_PAUSE_SECONDS more, so a
 * settle answering PENDING is asked again a second after that settleAt (never in a tight loop,
 * whatever settleAt says), and one the rail has not settled yet costs one settle call per
 * second at most.
 */

/** The transfer-steps function's ARN in the definition (CloudFormation DefinitionSubstitutions). */
export const TRANSFER_STEPS_PLACEHOLDER = 'TransferStepsFunctionArn';

/**
 * Longer than any rail takes (sandbox: 3 minutes at most, before TIME_SCALE); a transfer still
 * not settled then needs a person: the execution times out, which alarms.
 */
export const TRANSFER_WORKFLOW_TIMEOUT_SECONDS = 14 * 24 * 3600;

/** The least time between two settle calls of one transfer. */
export const NOT_SETTLED_PAUSE_SECONDS = TRUNCATED_WAIT_PAUSE_SECONDS;

const TRANSFER_STEPS = placeholder(TRANSFER_STEPS_PLACEHOLDER);

/** The statuses after which there is nothing left to do (the step answered the transfer's end): the state table's end states. */
const isFinal = stepStatusIn(TRANSFER_END_STATUSES);
const endStatuses = listed(TRANSFER_END_STATUSES);
const isPendingWithSettleAt = stepStatusWithTimestamp('PENDING', 'settleAt');

const definition: StateMachineDefinition = {
  Comment: 'Allowance transfer: submit to the rail, wait for it, settle (decisions.md section 4)',
  StartAt: 'Submit',
  TimeoutSeconds: TRANSFER_WORKFLOW_TIMEOUT_SECONDS,
  States: {
    Submit: stepTask({
      Comment: 'INITIATED -> PENDING (with settleAt) or FAILED (the rail refused it)',
      Resource: TRANSFER_STEPS,
      Parameters: { step: 'submit', 'transferId.$': '$.transferId' },
      Next: 'Submitted',
    }),
    Submitted: {
      Type: 'Choice',
      Choices: [
        { ...isPendingWithSettleAt, Next: 'WaitForRail' },
        { ...isFinal, Next: 'Done' },
      ],
      Default: 'UnexpectedStatus',
    },
    WaitForRail: {
      Type: 'Wait',
      Comment: 'Until the rail settles (settleAt: scaled by TIME_SCALE in the sandbox)',
      TimestampPath: '$.step.settleAt',
      Next: 'Settle',
    },
    Settle: stepTask({
      Comment: 'PENDING -> COMPLETED or FAILED; a cancelled transfer is left alone',
      Resource: TRANSFER_STEPS,
      Parameters: { step: 'settle', 'transferId.$': '$.transferId' },
      Next: 'Settled',
    }),
    Settled: {
      Type: 'Choice',
      Choices: [
        { ...isPendingWithSettleAt, Next: 'WaitForRailAgain' },
        { ...isFinal, Next: 'Done' },
      ],
      Default: 'UnexpectedStatus',
    },
    WaitForRailAgain: {
      Type: 'Wait',
      Comment: 'The rail has not settled yet: until the settleAt the settle step answered',
      TimestampPath: '$.step.settleAt',
      Next: 'NotSettledYet',
    },
    NotSettledYet: truncatedWaitPause(
      'And a second more: Step Functions truncates a Wait timestamp to the second, so the settle comes after it',
      'Settle',
    ),
    Done: { Type: 'Succeed', Comment: `The transfer is ${endStatuses}` },
    UnexpectedStatus: {
      Type: 'Fail',
      Comment: 'A step answered a status the workflow can not act on (a bug): the execution fails and alarms',
      Error: 'Transfer.UnexpectedStatus',
      Cause: `a transfer step answered neither PENDING with settleAt nor ${endStatuses}`,
    },
  },
};

export const TRANSFER_WORKFLOW: WorkflowDeclaration = {
  name: TRANSFER_WORKFLOW_NAME,
  definition,
  taskWorkers: { [TRANSFER_STEPS_PLACEHOLDER]: TRANSFER_STEPS_WORKER },
};
