import * as z from 'zod/mini';
import * as activation from './activation/activation-view.js';
import * as compliance from './compliance/compliance-view.js';
import * as hotMode from './hot-mode/hot-mode-view.js';
import * as organizations from './organizations/organization-view.js';
import { TOOL_VIEW_MODULES, viewLookup } from './tool-views.js';
import * as reviews from './reviews/review-view.js';
import * as users from './users/user-view.js';

/**
 * Every response view by the name its module exports it under. The catalog names an operation's
 * output (`output: 'cardView'`, checked by the compiler against this registry); OpenAPI and the
 * tests resolve the name here, the MCP tools in TOOL_VIEW_MODULES (./tool-views.ts: the view
 * modules of the areas that offer tools, which this list includes). Function bundles never import
 * this module: a view costs a function's bundle only where it presents it, and then only its
 * presenter (views are lazy and `@__PURE__`, docs/architecture.md). A new area's view module adds
 * one line here, or in TOOL_VIEW_MODULES when its area offers tools.
 */
export const VIEW_MODULES = {
  activation,
  compliance,
  hotMode,
  organizations,
  users,
  reviews,
  ...TOOL_VIEW_MODULES,
};

type Modules = typeof VIEW_MODULES;
type Exports = { [M in keyof Modules]: Modules[M] }[keyof Modules];
type SchemaNamesOf<T> = T extends unknown ? { [K in keyof T]: T[K] extends z.ZodMiniType ? K : never }[keyof T] : never;

/** The name of a view: an exported schema of a view module. */
export type ViewName = Extract<SchemaNamesOf<Exports>, string>;

const lookup = viewLookup(VIEW_MODULES);

/** The schema of a view, by name. */
export const viewOf = (name: ViewName): z.ZodMiniType => lookup(name);
