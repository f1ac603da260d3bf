import type { DashboardAnswer, DashboardSession } from './context.js';
import { dashboardPage, DashboardLayout } from './layout.js';

/** A refusal inside the signed-in frame (an operation's 403, an unknown page): the message in an alert. */
export function errorPage(session: DashboardSession, status: number, title: string, message: string): DashboardAnswer {
  return dashboardPage(
    status,
    <DashboardLayout session={session} title={title}>
      <div class="alert" role="alert">
        {message}
      </div>
      <p>
        <a href="/dashboard">Back to the overview</a>
      </p>
    </DashboardLayout>,
  );
}
