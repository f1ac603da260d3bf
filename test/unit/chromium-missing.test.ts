import { describe, expect, it } from 'vitest';
import setup from '../fixtures/browser-global-setup.js';
import { chromiumInstalled } from '../fixtures/chromium.js';

describe('browser tests without Chromium', () => {
  it('the browser project stops with one line saying how to install Chromium, no stack trace', () => {
    // Prepare
    const saved = process.env.CHROMIUM_PATH;
    process.env.CHROMIUM_PATH = '/nonexistent/chromium';

    // Act
    let failure: Error | undefined;
    try {
      setup();
    } catch (error) {
      failure = error as Error;
    } finally {
      if (saved === undefined) delete process.env.CHROMIUM_PATH;
      else process.env.CHROMIUM_PATH = saved;
    }

    // Assess
    expect(failure?.name).toBe('ChromiumMissingError');
    expect(failure?.message.split('\n')).toHaveLength(1);
    expect(failure?.message).toContain('apt-get install chromium fonts-liberation');
    expect(failure?.stack).toBe(`ChromiumMissingError: ${failure?.message}`);
  });

  it('finds an executable at CHROMIUM_PATH', () => {
    expect(chromiumInstalled(process.execPath)).toBe(true);
    expect(chromiumInstalled('/nonexistent/chromium')).toBe(false);
  });
});
