import { DISPUTE_STEPS_WORKER, DISPUTE_WORKFLOW_NAME } from '../../shared/workers.js';
import { DISPUTE_END_STATUSES } from '../../shared/workflows/dispute-step-input.js';
import type { StateMachineDefinition, WorkflowDeclaration } from './asl.js';
import { placeholder } from './asl.js';
import {
  listed,
  STEP_RESULT_PATH,
  stepStatusIn,
  stepStatusWithTimestamp,
  stepTask,
  truncatedWaitPause,
} from './steps.js';

/**
 * The dispute deadline workflow (Step Functions STANDARD; decisions.md section 7), started once per
 * dispute right after its opening committed, with `{"disputeId", "respondBy"}` as input and the
 * dispute id as execution name (shared/workflows/step-functions.ts). It waits until `respondBy`,
 * then its one Task calls the `dispute-steps` worker with `{step: 'deadline', disputeId}`
 * (DisputeStepInput of shared/domain/disputes/ports.ts); the answer (DisputeStepOutput: status,
 * respondBy) lands in `$.step` and decides what comes next:
 *
 *   WaitForDeadline (until respondBy) -> Deadline -> Decided?
 *     Decided? -OPEN with respondBy-> WaitForDeadlineAgain (until that respondBy) -> NotDueYet (1 s) -> Deadline ...
 *     RESPONDED, or an end status of the dispute (dispute-states.ts) -> Done
 *     anything else -> UnexpectedStatus (the execution fails: alarm)
 *
 * The step lapses a dispute still OPEN at `respondBy` to RESOLVED_AGENT (the money to the
 * initiator); a dispute the respondent answered (RESPONDED: the operator decides, at any time) or
 * the operator already resolved is left alone and its status answered. A response racing the
 * deadline: both are one conditional write on the dispute, so exactly one wins, and the step
 * answers whichever status it finds. A RESPONDED dispute ends the workflow: nothing in it is due
 * at a time any more.
 *
 * The waits are TimestampPaths on `respondBy` (ISO 8601, already divided by TIME_SCALE in the
 * sandbox), so sandbox and real waits are the same states. Step Functions truncates a Wait
 * timestamp to the second, so the step may run up to a second early and answer OPEN: the loop
 * back waits until the respondBy it answers and then TRUNCATED_WAIT_PAUSE_SECONDS more.
 */

/** The dispute-steps function's ARN in the definition (CloudFormation DefinitionSubstitutions). */
export const DISPUTE_STEPS_PLACEHOLDER = 'DisputeStepsFunctionArn';

/**
 * The response window is 7 days; three more cover a step that keeps failing for a while. An
 * execution still running then (the dispute neither lapsed nor answered) times out, which alarms.
 */
export const DISPUTE_WORKFLOW_TIMEOUT_SECONDS = 10 * 24 * 3600;

const DISPUTE_STEPS = placeholder(DISPUTE_STEPS_PLACEHOLDER);

/** The statuses after which the deadline has nothing to do: answered (RESPONDED), or the state table's end states. */
export const DISPUTE_WORKFLOW_DONE_STATUSES = ['RESPONDED', ...DISPUTE_END_STATUSES] as const;
const doneStatuses = listed(DISPUTE_WORKFLOW_DONE_STATUSES);

const definition: StateMachineDefinition = {
  Comment:
    'Allowance dispute: wait for the response deadline, then lapse a dispute still OPEN (decisions.md section 7)',
  StartAt: 'WaitForDeadline',
  TimeoutSeconds: DISPUTE_WORKFLOW_TIMEOUT_SECONDS,
  States: {
    WaitForDeadline: {
      Type: 'Wait',
      Comment: 'Until respondBy (created + 7 days, divided by TIME_SCALE in the sandbox)',
      TimestampPath: '$.respondBy',
      Next: 'Deadline',
    },
    Deadline: stepTask({
      Comment: 'OPEN at respondBy -> RESOLVED_AGENT (money to the initiator); any other status is left alone',
      Resource: DISPUTE_STEPS,
      Parameters: { step: 'deadline', 'disputeId.$': '$.disputeId' },
      Next: 'Decided',
    }),
    Decided: {
      Type: 'Choice',
      Choices: [
        { ...stepStatusWithTimestamp('OPEN', 'respondBy'), Next: 'WaitForDeadlineAgain' },
        { ...stepStatusIn(DISPUTE_WORKFLOW_DONE_STATUSES), Next: 'Done' },
      ],
      Default: 'UnexpectedStatus',
    },
    WaitForDeadlineAgain: {
      Type: 'Wait',
      Comment: 'The step ran before respondBy (the dispute is still OPEN): until the respondBy it answered',
      TimestampPath: `${STEP_RESULT_PATH}.respondBy`,
      Next: 'NotDueYet',
    },
    NotDueYet: truncatedWaitPause(
      'And a second more: Step Functions truncates a Wait timestamp to the second, so the step comes after it',
      'Deadline',
    ),
    Done: { Type: 'Succeed', Comment: `The dispute is ${doneStatuses}` },
    UnexpectedStatus: {
      Type: 'Fail',
      Comment: 'The step answered a status the workflow can not act on (a bug): the execution fails and alarms',
      Error: 'Dispute.UnexpectedStatus',
      Cause: `the deadline step answered neither OPEN with respondBy nor ${doneStatuses}`,
    },
  },
};

export const DISPUTE_WORKFLOW: WorkflowDeclaration = {
  name: DISPUTE_WORKFLOW_NAME,
  definition,
  taskWorkers: { [DISPUTE_STEPS_PLACEHOLDER]: DISPUTE_STEPS_WORKER },
};
