/**
 * The partition keys (IAM `dynamodb:LeadingKeys` patterns) of the only items the service deletes:
 * a hot wallet's folded inbox items (`WALLET#<id>#IN#<g>`) and drained lanes (`WALLET#<id>#LANE#<l>`),
 * the hot wallet registry (`HOT_WALLETS`) and a user's freed email slot (`USER_EMAIL#...`). CDK grants
 * DeleteItem and BatchWriteItem on these keys only (lib/constructs/service-function.ts bindTable);
 * no other partition (journal, main wallets, audit, idempotency) can be deleted from by any function.
 * The grain is the partition (IAM has no condition on the sort key): an inbox partition's
 * accumulator and a lane, funded or not, are within reach; the ConditionExpressions of the deletes
 * themselves keep those (test/unit/deletable-keys-reach.test.ts).
 */
export const DELETABLE_KEY_PATTERNS = ['WALLET#*#IN#*', 'WALLET#*#LANE#*', 'HOT_WALLETS', 'USER_EMAIL#*'] as const;

/** Actions allowed on DELETABLE_KEY_PATTERNS only (BatchWriteItem: the fold's batched inbox deletes). */
export const DELETE_ACTIONS = ['dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'] as const;
