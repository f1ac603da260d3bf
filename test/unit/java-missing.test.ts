import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import setup from '../fixtures/global-setup.js';

/** A PATH holding only `node`: everything `npm start` needs to start, except Java. */
const noJavaDir = mkdtempSync(join(tmpdir(), 'no-java-'));
symlinkSync(process.execPath, join(noJavaDir, 'node'));
afterAll(() => rmSync(noJavaDir, { recursive: true, force: true }));

const INSTALL_HINTS = ['apt-get install openjdk-17-jre-headless', 'brew install openjdk@17'];

function runLocal(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('starting without Java', () => {
  it('npm start stops with exit code 1 and one line naming Java and how to install it, no stack trace', async () => {
    // Prepare
    const { DYNAMODB_ENDPOINT: _endpoint, DATA_DIR: _dataDir, ...env } = process.env;

    // Act
    const { code, stdout, stderr } = await runLocal({ ...env, PATH: noJavaDir });

    // Assess
    expect(code).toBe(1);
    expect(stdout).toBe('');
    const lines = stderr.trim().split('\n');
    expect(lines, stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/Java 17/);
    for (const hint of INSTALL_HINTS) expect(lines[0]).toContain(hint);
  }, 30_000);

  it('the integration and e2e global setup fails with the same one line', async () => {
    // Prepare
    const saved = { path: process.env.PATH, endpoint: process.env.TEST_DYNAMODB_ENDPOINT };
    process.env.PATH = noJavaDir;
    delete process.env.TEST_DYNAMODB_ENDPOINT;
    const project = { provide: () => undefined } as unknown as Parameters<typeof setup>[0];

    // Act
    const failure = await setup(project).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    process.env.PATH = saved.path;
    if (saved.endpoint !== undefined) process.env.TEST_DYNAMODB_ENDPOINT = saved.endpoint;

    // Assess
    expect(failure).toBeInstanceOf(Error);
    expect(failure!.message.split('\n')).toHaveLength(1);
    for (const hint of INSTALL_HINTS) expect(failure!.message).toContain(hint);
    expect(failure!.stack).toBe(`${failure!.name}: ${failure!.message}`);
  });
});
