import { readFileSync } from 'node:fs';
import { App, Stack, Validations } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { describe, expect, it } from 'vitest';
import { applyNagChecks, NAG_ACKNOWLEDGMENTS, nagOutcome, nagPacks } from '../../lib/nag.js';
import { synthStage } from './synth-stage.js';

/**
 * cdk-nag (AwsSolutions and Serverless) over whole stages: nothing is left once the acknowledgments
 * of lib/nag.ts are applied, every acknowledgment still covers something, and their number is
 * counted here: adding one is a decision this test makes visible.
 */
const ACKNOWLEDGMENT_COUNT = 13;

describe('cdk-nag', () => {
  const stages = ['dev', 'production'].map((name) => [name, synthStage(name, { bundle: false })] as const);

  it.each(stages)('leaves no finding on the %s stage (both packs)', (_name, stage) => {
    for (const pack of nagPacks()) {
      const { violations } = nagOutcome(pack, stage.app);
      expect(
        violations.map(
          (violation) =>
            `${violation.ruleName}: ${violation.violatingResources.map((r) => r.constructPath).join(', ')}`,
        ),
        pack.name,
      ).toEqual([]);
    }
  });

  it(`counts ${ACKNOWLEDGMENT_COUNT} acknowledgments, each with its reason, each covering a finding`, () => {
    expect(NAG_ACKNOWLEDGMENTS).toHaveLength(ACKNOWLEDGMENT_COUNT);
    const covered = NAG_ACKNOWLEDGMENTS.map(() => 0);
    for (const [, stage] of stages) {
      for (const pack of nagPacks()) nagOutcome(pack, stage.app).covered.forEach((n, i) => (covered[i]! += n));
    }
    NAG_ACKNOWLEDGMENTS.forEach((ack, i) => {
      expect(ack.reason.length, ack.rule).toBeGreaterThan(60);
      expect(covered[i], `${ack.rule} ${ack.finding ?? ''} covers nothing: remove it`).toBeGreaterThan(0);
    });
  });

  it('stops synthesis on a finding nobody acknowledged', () => {
    const app = new App();
    // A queue without TLS enforcement and without a DLQ: AwsSolutions-SQS3 and SQS4.
    new sqs.Queue(new Stack(app, 'Nagged'), 'Plain', { enforceSSL: false });
    applyNagChecks(app);
    // The CDK names the failed validation, or prints the report as the error (under Vitest).
    expect(() => app.synth()).toThrow(/Validation failed|AwsSolutions-SQS4|does not require requests to use SSL/);
  });

  it('has no acknowledgment anywhere else (no Validations.acknowledge on any construct)', () => {
    for (const [, stage] of stages) {
      const acknowledged = stage.app.node
        .findAll()
        .filter((construct) =>
          construct.node.metadata.some((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY),
        );
      expect(acknowledged.map((construct) => construct.node.path)).toEqual([]);
    }
  });

  it('is what bin/app.ts runs at synthesis', () => {
    const source = readFileSync(new URL('../../bin/app.ts', import.meta.url), 'utf8');
    expect(source).toMatch(/applyNagChecks\(app\);\s+app\.synth\(\);/);
  });
});
