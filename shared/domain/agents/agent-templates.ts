import type { OrganizationPermission } from '../tenancy.js';
import { DEFAULT_AGENT_PERMISSIONS } from '../tenancy.js';

/** The agent templates of interface-spec 4.1. A zero limit marks a read-only reporting agent. */
export interface AgentTemplate {
  templateId: string;
  name: string;
  maxTransactionAmount: string;
  dailyLimit: string;
  requireHumanApproval: boolean;
  readOnly: boolean;
  permissions: OrganizationPermission[];
}

const READ_ONLY_PERMISSIONS: OrganizationPermission[] = ['wallets:read', 'payments:read'];

const template = (
  templateId: string,
  name: string,
  maxTransactionAmount: string,
  dailyLimit: string,
  requireHumanApproval: boolean,
): AgentTemplate => {
  const readOnly = maxTransactionAmount === '0.00';
  return {
    templateId,
    name,
    maxTransactionAmount,
    dailyLimit,
    requireHumanApproval,
    readOnly,
    permissions: readOnly ? READ_ONLY_PERMISSIONS : DEFAULT_AGENT_PERMISSIONS,
  };
};

export const AGENT_TEMPLATES: readonly AgentTemplate[] = [
  template('customer-support', 'Customer Support Agent', '100.00', '500.00', false),
  template('procurement', 'Procurement Agent', '500.00', '5000.00', true),
  template('research', 'Research Agent', '50.00', '500.00', false),
  template('trading', 'Trading Agent', '10000.00', '50000.00', false),
  template('expense-tracker', 'Expense Tracker', '0.00', '0.00', false),
  template('invoice-collector', 'Invoice Collector', '0.00', '0.00', false),
  template('budget-guardian', 'Budget Guardian', '0.00', '0.00', false),
  template('payroll-agent', 'Payroll Agent', '5000.00', '50000.00', true),
  template('revenue-reporter', 'Revenue Reporter', '0.00', '0.00', false),
  template('subscription-manager', 'Subscription Manager', '1000.00', '10000.00', false),
];

export const TEMPLATE_IDS = AGENT_TEMPLATES.map((t) => t.templateId) as [string, ...string[]];

export function findTemplate(templateId: string): AgentTemplate | undefined {
  return AGENT_TEMPLATES.find((t) => t.templateId === templateId);
}
