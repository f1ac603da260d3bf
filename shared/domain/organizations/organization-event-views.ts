import { id, lazy, text, view } from '../views.js';

/**
 * The payloads of the organizations' own events, by name in `organization-events.ts`. Their own module: the
 * events file reads their types, and the area's view module (which re-exports them, so the view
 * registry names them) depends on the area's service, which depends on the event payload types.
 */

/** The payload of `organization.created` (`organization-events.ts`). */
export const organizationCreatedEventView = /* @__PURE__ */ lazy(() =>
  view({ id: id('organization', 'The new organization.'), name: text('Its name.') }, 'An organization was created.', {
    id: 'org_ipK5yfL5D6aVwx00',
    name: 'Acme',
  }),
);
