import type { Template } from 'aws-cdk-lib/assertions';
import { asArray, sameJson, type Statement } from './iam.js';
import { logicalIdOf, resolveCrossStack, type SynthesizedStage } from './synth-stage.js';

/** Written out (not imported from the construct): widening the grant must fail the tests. */
export const DATA_KEY_ACTIONS = ['kms:Decrypt', 'kms:GenerateDataKey'];

/**
 * Whether a statement is exactly the data key grant of ServiceFunction.bindDataKey: GenerateDataKey
 * and Decrypt, on the stage's data key only, nothing else.
 */
export function isDataKeyStatement(stage: SynthesizedStage, statement: Statement): boolean {
  if (statement.Effect !== 'Allow' || statement.Sid !== 'DataKeyEnvelope' || statement.Condition !== undefined)
    return false;
  const actions = asArray(statement.Action as string | string[]);
  const resources = asArray(statement.Resource);
  if (!sameJson([...actions].sort(), DATA_KEY_ACTIONS) || resources.length !== 1) return false;
  return sameJson(resolveCrossStack(resources[0], stage.dataTemplate), {
    'Fn::GetAtt': [logicalIdOf(stage.data.dataKey), 'Arn'],
  });
}

/**
 * Whether a statement is exactly a read of one secret (ServiceFunction.bindSecret): GetSecretValue,
 * nothing else, on the secret with logical id `secretId` (in this stack, or in `producer`'s through
 * an export).
 */
export function isSecretReadStatement(statement: Statement, secretId: string, producer?: Template): boolean {
  if (statement.Effect !== 'Allow' || statement.Condition !== undefined) return false;
  const resources = asArray(statement.Resource);
  if (
    !sameJson(asArray(statement.Action as string | string[]), ['secretsmanager:GetSecretValue']) ||
    resources.length !== 1
  )
    return false;
  const resource =
    producer && JSON.stringify(resources[0]).includes('ExportsOutputRef')
      ? resolveCrossStack(resources[0], producer)
      : resources[0];
  return sameJson(resource, { Ref: secretId });
}

/** The statement `bindWebhookEncryptionKey` adds: GetSecretValue on the data stack's webhook key secret, nothing else. */
export function isWebhookKeyStatement(stage: SynthesizedStage, statement: Statement): boolean {
  return isSecretReadStatement(statement, logicalIdOf(stage.data.webhookEncryptionKey), stage.dataTemplate);
}
