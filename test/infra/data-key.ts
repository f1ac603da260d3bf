import { asArray, sameJson, type Statement } from './iam.js';
import { logicalIdOf, resolveCrossStack, type SynthesizedStage } from './synth-stage.js';

/** Written out (not imported from the construct): widening the grant must fail the tests. */
export const DATA_KEY_ACTIONS = ['kms:Decrypt', 'kms:GenerateDataKey'];

/**
 * Whether a statement is exactly the data key grant of ServiceFunction.bindDataKey: GenerateDataKey
 * and Decrypt, on the stage's data key only, nothing else.
 */
export function isDataKeyStatement(stage: SynthesizedStage, statement: Statement): boolean {
  if (statement.Effect !== 'Allow' || statement.Sid !== 'DataKeyEnvelope' || statement.Condition !== undefined) return false;
  const actions = asArray(statement.Action as string | string[]);
  const resources = asArray(statement.Resource);
  if (!sameJson([...actions].sort(), DATA_KEY_ACTIONS) || resources.length !== 1) return false;
  return sameJson(resolveCrossStack(resources[0], stage.dataTemplate), { 'Fn::GetAtt': [logicalIdOf(stage.data.dataKey), 'Arn'] });
}

/** The statement `bindWebhookEncryptionKey` adds: GetSecretValue on the data stack's webhook key secret, nothing else. */
export function isWebhookKeyStatement(stage: SynthesizedStage, statement: Statement): boolean {
  if (statement.Effect !== 'Allow' || statement.Condition !== undefined) return false;
  const actions = asArray(statement.Action as string | string[]);
  const resources = asArray(statement.Resource);
  if (!sameJson(actions, ['secretsmanager:GetSecretValue']) || resources.length !== 1 || !JSON.stringify(resources[0]).includes('ExportsOutputRef')) return false;
  return sameJson(resolveCrossStack(resources[0], stage.dataTemplate), { Ref: logicalIdOf(stage.data.webhookEncryptionKey) });
}
