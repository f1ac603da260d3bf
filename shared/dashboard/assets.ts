import { createHash } from 'node:crypto';
import { ENHANCE_SCRIPT } from '../hosted/enhance-script.js';
import { STYLESHEET } from '../hosted/stylesheet.js';
import { AUTH_SCRIPT } from './scripts/auth.js';
import { SETTINGS_SCRIPT } from './scripts/settings.js';
import { TEAM_SCRIPT } from './scripts/team.js';
import { WORK_SCRIPT } from './scripts/work.js';
import { BASE_STYLES } from './styles/base.js';
import { SETTINGS_STYLES } from './styles/settings.js';
import { TEAM_STYLES } from './styles/team.js';
import { WORK_STYLES } from './styles/work.js';

/** A file served under /dashboard/assets/, named by the hash of its content (cached for a year). */
export interface DashboardAsset {
  path: string;
  contentType: string;
  body: string;
}

function asset(body: string, extension: 'css' | 'js', contentType: string): DashboardAsset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return { path: `/dashboard/assets/${hash}.${extension}`, contentType, body };
}

/**
 * The one stylesheet (the hosted pages' and the dashboard's parts) and the one script module (the
 * hosted pages' busy buttons and each area's part) every dashboard page links.
 */
export const DASHBOARD_ASSETS = {
  stylesheet: asset(
    [STYLESHEET, BASE_STYLES, WORK_STYLES, SETTINGS_STYLES, TEAM_STYLES].map((part) => part.trim()).join('\n'),
    'css',
    'text/css; charset=utf-8',
  ),
  script: asset(
    [ENHANCE_SCRIPT, AUTH_SCRIPT, WORK_SCRIPT, SETTINGS_SCRIPT, TEAM_SCRIPT].map((part) => part.trim()).join('\n'),
    'js',
    'text/javascript; charset=utf-8',
  ),
} as const;

const BY_PATH = new Map(Object.values(DASHBOARD_ASSETS).map((entry) => [entry.path, entry]));

export function dashboardAssetAt(path: string): DashboardAsset | undefined {
  return BY_PATH.get(path);
}
